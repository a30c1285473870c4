import { generateKeyPairSync, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveAuthSecret } from '../../src/config';
import { type Db, queryRows } from '../../src/db/database';
import { accounts } from '../../src/modules/accounts/accounts.db';
import { tickAutomations } from '../../src/modules/automations/automations-runtime';
import { sweepLowBalanceCrossings } from '../../src/modules/billing/notify-low-balance';
import { encryptSecret } from '../../src/modules/sender-identities/key-encryption';
import { senderDomains } from '../../src/modules/sender-identities/sender-identities.db';
import { createSigningResolver } from '../../src/modules/sender-identities/sender-signing';
import { trustSenderAddress } from '../../src/modules/sender-identities/testing/trust-sender';
import { dkimDnsRecord } from '../../src/modules/sending/dkim/dkim-signer';
import { runEngineUntil, useEngineHarness } from '../../src/modules/sending/testing/engine-harness';
import { creditAccount } from '../../src/modules/sending/testing/send-fixtures';
import { dkimProblems, headerFields, wireProblems } from '../../src/modules/sending/wire/wire-check';
import { createDkimSigners, senderSettings } from '../../src/worker/sending-runtime';
import { bearer, createApiKeyFor } from '../support/api-key';
import { randomClientIp, type SignedInUser, signUp } from '../support/sign-in';
import type { TestApp } from '../support/test-app';
import { DATABASE_KINDS } from '../support/test-database';

/**
 * The seam matrix, message side: every kind of message Carteiro emits — each of its own e-mails (verification,
 * reset, magic link, invitation, sender confirmation, a list's double opt-in confirmation, the low-balance notice),
 * each test send (campaign, library template, A/B variant), a campaign, a transactional API message and an
 * automation step — is triggered the way a user, an integrator or the worker triggers it, received by a loopback
 * SMTP server that keeps the raw DATA, and checked like the wire-conformance suite: CRLF only, line lengths,
 * printable headers, and mailauth DKIM `pass` for every signature (the platform key, plus the From domain's own key
 * when the From is on the account's verified domain). Marketing messages (campaign, automation, test sends) carry
 * List-Id and the RFC 8058 pair under the signatures; Carteiro's own and transactional ones carry neither.
 *
 * One pipeline (ADR 0032) is what makes this table one row per kind: a kind that bypassed the wire builder or the
 * signer (as test sends and system mail once did through nodemailer) fails here, whatever its own tests check.
 */
const PLATFORM_DOMAIN = 'carteiro-plataforma.test';
const SENDER_DOMAIN = 'marca.com.br';
const FROM = `loja@${SENDER_DOMAIN}`;
const json = { 'content-type': 'application/json' };
const TEMPLATE =
  '<p>Olá, {{ contato.nome }}! Promoção de verão.</p>\n<p><a href="https://loja.com.br/ofertas">Ver ofertas</a></p>\n<p><a href="{{ link_descadastro }}">Descadastrar</a></p>';

function pem(type: 'rsa' | 'ed25519'): string {
  const pair = type === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ed25519');
  return String(pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
}

/** The platform's keys (DKIM_* files, as an operator configures them) and the sender domain's key. */
const keys = { platformRsa: pem('rsa'), platformEd: pem('ed25519'), sender: pem('rsa') };
const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carteiro-dkim-'));
fs.writeFileSync(path.join(keyDir, 'rsa.pem'), keys.platformRsa);
fs.writeFileSync(path.join(keyDir, 'ed.pem'), keys.platformEd);
const records = new Map([
  [`carteiro._domainkey.${PLATFORM_DOMAIN}`, dkimDnsRecord(keys.platformRsa)],
  [`carteiro-ed._domainkey.${PLATFORM_DOMAIN}`, dkimDnsRecord(keys.platformEd)],
  [`ct1._domainkey.${SENDER_DOMAIN}`, dkimDnsRecord(keys.sender)],
]);

type Kind = 'system' | 'marketing' | 'transactional';

/** Every wire and DKIM problem of one received message of `kind`, signed by `signatures` keys. */
async function messageProblems(raw: Buffer, kind: Kind, signatures: number): Promise<string[]> {
  const problems = wireProblems(raw);
  const marketing = kind === 'marketing';
  problems.push(
    ...(await dkimProblems(
      raw,
      records,
      signatures,
      marketing ? ['from', 'subject', 'list-unsubscribe', 'list-unsubscribe-post', 'list-id'] : ['from', 'subject'],
    )),
  );
  const names = headerFields(raw).map((h) => h.name);
  for (const name of ['list-unsubscribe', 'list-unsubscribe-post', 'list-id']) {
    if (names.includes(name) !== marketing) problems.push(`${name} ${marketing ? 'missing' : 'present'}`);
  }
  for (const name of ['from', 'to', 'subject', 'date', 'message-id', 'mime-version']) {
    if (names.filter((n) => n === name).length !== 1) problems.push(`not exactly one ${name}`);
  }
  return problems;
}

describe.each(DATABASE_KINDS)('every kind of message Carteiro emits, on %s', (kind) => {
  const engine = useEngineHarness(kind, {
    DKIM_DOMAIN: PLATFORM_DOMAIN,
    DKIM_SELECTOR: 'carteiro',
    DKIM_RSA_KEY_PATH: path.join(keyDir, 'rsa.pem'),
    DKIM_ED25519_KEY_PATH: path.join(keyDir, 'ed.pem'),
  });
  let t: TestApp;
  let db: Db;
  let user: SignedInUser;

  async function call(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, as = user) {
    const headers = payload === undefined ? as.headers : { ...as.headers, ...json };
    const res = await t.app.inject({ method, url, headers, payload: payload as never });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.statusCode === 204 ? null : res.json();
  }

  /** The one message the app's mailer sent to `to` whose subject matches, as received (raw DATA); some are sent after the response. */
  async function mailedTo(to: string, subject: RegExp): Promise<Buffer> {
    const until = Date.now() + 15_000;
    for (;;) {
      const found = (await t.sentMail()).filter((m) => m.to.includes(to) && subject.test(m.subject));
      if (found.length > 0 || Date.now() > until) {
        expect(found, `${to} ${subject}`).toHaveLength(1);
        return Buffer.from(found[0]?.raw as string, 'utf8');
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Runs the engine (platform key + the sender domain's key) until nothing of the account is queued. */
  async function deliverAll(): Promise<void> {
    const platformSigners = createDkimSigners(t.config);
    const sender = engine.newSender({
      signers: platformSigners,
      signingFor: createSigningResolver({
        db,
        secret: resolveAuthSecret(t.config),
        platformSigners,
        platformBounceDomain: senderSettings(t.config).bounceDomain,
      }),
    });
    await runEngineUntil(
      sender,
      async () => {
        const [left] = await queryRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from messages where account_id = ${user.accountId} and status = 'queued'`,
        );
        return Number(left?.n) === 0;
      },
      'no message of the account queued',
      { ms: 30_000, pauseMs: 0 },
    );
  }

  function engineReceived(to: string, subject: string): Buffer {
    const found = engine.sink.messages.filter((m) => m.to === to && m.raw.toString('latin1').includes(subject));
    expect(found, `${to} ${subject}`).toHaveLength(1);
    return found[0]?.raw as Buffer;
  }

  beforeAll(async () => {
    ({ t, db } = engine);
    user = await signUp(t, { verified: true });
    await creditAccount(db, user.accountId, 1_000_000);
    await db.insert(senderDomains).values({
      accountId: user.accountId,
      domain: SENDER_DOMAIN,
      selector: 'ct1',
      dkimRsaPrivateEnc: encryptSecret(resolveAuthSecret(t.config), keys.sender),
      dkimRsaRecord: records.get(`ct1._domainkey.${SENDER_DOMAIN}`) as string,
      dkimEd25519PrivateEnc: encryptSecret(resolveAuthSecret(t.config), keys.platformEd),
      dkimEd25519Record: 'x',
      status: 'verified',
    });
    await db
      .update(accounts)
      .set({ defaultFromEmail: FROM, defaultFromName: 'Marca Ação' })
      .where(eq(accounts.id, user.accountId));
  });

  describe("Carteiro's own e-mails: the platform key signs, no List-Unsubscribe", () => {
    it('sign-up verification', async () => {
      const email = `novo-${randomUUID().slice(0, 8)}@example.com`;
      await signUp(t, { email });
      expect(await messageProblems(await mailedTo(email, /confirm|verifi/i), 'system', 2)).toEqual([]);
    });

    it('password reset and magic link', async () => {
      const post = (url: string, payload: object) =>
        t.app.inject({
          method: 'POST',
          url,
          headers: { origin: t.origin, ...json },
          remoteAddress: randomClientIp(),
          payload,
        });
      expect((await post('/api/auth/request-password-reset', { email: user.email, redirectTo: '/x' })).statusCode).toBe(
        200,
      );
      expect(
        (await post('/api/auth/sign-in/magic-link', { email: user.email, callbackURL: '/dashboard' })).statusCode,
      ).toBe(200);
      expect(await messageProblems(await mailedTo(user.email, /Redefinição de senha/), 'system', 2)).toEqual([]);
      expect(await messageProblems(await mailedTo(user.email, /link para entrar/), 'system', 2)).toEqual([]);
    });

    it('team invitation and sender confirmation', async () => {
      const invitee = `convidada-${randomUUID().slice(0, 6)}@example.com`;
      await call('POST', '/api/account/invitations', { email: invitee, role: 'member' });
      expect(await messageProblems(await mailedTo(invitee, /convite|convid/i), 'system', 2)).toEqual([]);
      const address = `vendas-${randomUUID().slice(0, 6)}@outra-loja.com.br`;
      await call('POST', '/api/sender-addresses', { email: address });
      expect(await messageProblems(await mailedTo(address, /remetente/), 'system', 2)).toEqual([]);
    });

    it("a double opt-in list's confirmation request from the hosted form (Carteiro's own e-mail)", async () => {
      const list = await call('POST', '/api/lists', { name: 'VIP', optIn: 'double' });
      const email = `vip-${randomUUID().slice(0, 6)}@destino.com.br`;
      const res = await t.app.inject({
        method: 'POST',
        url: `/s/${list.id}`,
        remoteAddress: randomClientIp(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ email, nome: 'Ana', consentimento: 'sim' }).toString(),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(await messageProblems(await mailedTo(email, /^Confirme sua inscrição/), 'system', 2)).toEqual([]);
    });

    it('the low-balance notice', async () => {
      const owner = await signUp(t, { verified: true });
      await creditAccount(db, owner.accountId, 6_000);
      const key = await createApiKeyFor(t, owner, 'send_only');
      await trustSenderAddress(db, owner.accountId, 'pedidos@outra-marca.com.br');
      // An API batch takes the balance under the threshold; the one watcher mails the owner.
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/messages/batch',
        headers: bearer(key, json),
        payload: {
          messages: Array.from({ length: 20 }, (_, i) => ({
            to: { email: `pedido-${i}@destino.com.br` },
            from: { email: 'pedidos@outra-marca.com.br' },
            subject: 'Pedido',
            text: 'Obrigado!',
            category: 'transactional',
          })),
        },
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
      await sweepLowBalanceCrossings({
        db,
        mailer: t.mailer,
        thresholdMillis: 5_950,
        publicUrl: t.config.PUBLIC_URL,
      });
      expect(await messageProblems(await mailedTo(owner.email, /saldo/i), 'system', 2)).toEqual([]);
    });
  });

  describe("test sends: the campaign's own From, signed by its domain's key and the platform's, built as the real one", () => {
    let campaign = '';
    beforeAll(async () => {
      const list = await call('POST', '/api/lists', { name: 'Clientes' });
      await call('POST', '/api/contacts', { email: 'cliente@destino.com.br', name: 'Cliente', listIds: [list.id] });
      campaign = (
        await call('POST', '/api/campaigns', {
          uuid: randomUUID(),
          name: 'Oferta',
          subject: 'Oferta para {{ contato.nome }}',
          fromName: 'Marca Ação',
          fromEmail: FROM,
          replyTo: `sac@${SENDER_DOMAIN}`,
          template: TEMPLATE,
          includeListIds: [list.id],
          abTest: { variants: [{ subject: 'Assunto B' }], testPercent: 50, criterion: 'opens', waitHours: 1 },
        })
      ).id;
    });

    for (const [label, variant, subject] of [
      ['campaign', undefined, '[TESTE] Oferta para'],
      ['A/B variant B', 1, '[TESTE] Assunto B'],
    ] as const) {
      it(label, async () => {
        const to = `revisora-${randomUUID().slice(0, 6)}@example.com`;
        await call('POST', `/api/campaigns/${campaign}/test-send`, { emails: [to], ...(variant ? { variant } : {}) });
        const raw = await mailedTo(to, /^\[TESTE\]/);
        expect(await messageProblems(raw, 'marketing', 3)).toEqual([]);
        const parsed = await simpleParser(raw);
        expect(parsed.subject?.startsWith(subject)).toBe(true);
        expect(parsed.from?.value[0]).toEqual({ address: FROM, name: 'Marca Ação' });
        expect(parsed.replyTo?.value[0]?.address).toBe(`sac@${SENDER_DOMAIN}`);
        expect(headerFields(raw).find((h) => h.name === 'list-id')?.value).toBe(
          `<${campaign}.${senderSettings(t.config).listIdDomain}>`,
        );
        expect(parsed.headers.get('x-carteiro-test')).toBe('true');
      });
    }

    it('library template', async () => {
      const template = await call('POST', '/api/templates', {
        name: 'Modelo',
        subject: 'Novidades',
        html: TEMPLATE,
      });
      const to = `revisor-${randomUUID().slice(0, 6)}@example.com`;
      await call('POST', `/api/templates/${template.id}/test-send`, { emails: [to] });
      const raw = await mailedTo(to, /^\[TESTE\] Novidades/);
      expect(await messageProblems(raw, 'marketing', 3)).toEqual([]);
      expect(headerFrom(raw)).toBe(FROM);
    });
  });

  describe('the engine: campaign, transactional, automation — the same checks', () => {
    it("a campaign, a transactional API message, an automation step and a sender's list confirmation", async () => {
      const list = await call('POST', '/api/lists', { name: 'Boas-vindas' });
      const template = await call('POST', '/api/templates', { name: 'Oi', subject: 'Bem-vinda', html: TEMPLATE });
      const automation = await call('POST', '/api/automations', {
        name: 'Boas-vindas',
        fromEmail: FROM,
        fromName: 'Marca Ação',
        trigger: { type: 'list_joined', listId: list.id },
        steps: [{ waitAmount: 0, waitUnit: 'hours', templateId: template.id }],
      });
      await call('POST', `/api/automations/${automation.id}/activate`);
      await call('POST', '/api/contacts', { email: 'nova@destino.com.br', name: 'Nova', listIds: [list.id] });
      // The sender's own double opt-in confirmation (dashboard path): a transactional message of the account.
      const vip = await call('POST', '/api/lists', { name: 'VIP painel', optIn: 'double' });
      await call('POST', '/api/contacts', { email: 'pendente@destino.com.br', listIds: [vip.id] });
      const campaign = (
        await call('POST', '/api/campaigns', {
          uuid: randomUUID(),
          name: 'Campanha',
          subject: 'Campanha especial',
          fromName: 'Marca Ação',
          fromEmail: FROM,
          template: TEMPLATE,
          includeListIds: [list.id],
        })
      ).id;
      await call('POST', `/api/campaigns/${campaign}/send`);
      const key = await createApiKeyFor(t, user, 'send_only');
      const sent = await t.app.inject({
        method: 'POST',
        url: '/api/v1/messages',
        headers: bearer(key, json),
        payload: {
          to: { email: 'comprador@destino.com.br' },
          from: { email: FROM, name: 'Marca Ação' },
          subject: 'Pedido enviado',
          text: 'Seu pedido saiu para entrega.',
          category: 'transactional',
        },
      });
      expect(sent.statusCode, sent.body).toBe(201);
      const tick = await tickAutomations(
        { db, mailer: t.mailer, publicUrl: t.config.PUBLIC_URL },
        new Date(Date.now() + 1000),
      );
      expect(tick.sent).toBe(1);
      await deliverAll();
      expect(await messageProblems(engineReceived('nova@destino.com.br', 'Campanha especial'), 'marketing', 3)).toEqual(
        [],
      );
      expect(await messageProblems(engineReceived('nova@destino.com.br', 'Bem-vinda'), 'marketing', 3)).toEqual([]);
      expect(
        await messageProblems(engineReceived('comprador@destino.com.br', 'Pedido enviado'), 'transactional', 3),
      ).toEqual([]);
      expect(await messageProblems(engineReceived('pendente@destino.com.br', ''), 'transactional', 3)).toEqual([]);
    });
  });
});

/** The From address of a raw message. */
function headerFrom(raw: Buffer): string {
  const from = headerFields(raw).find((h) => h.name === 'from')?.value ?? '';
  return (/<([^>]+)>/.exec(from)?.[1] ?? from).trim();
}
