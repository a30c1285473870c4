import { generateKeyPairSync } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import type { TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import type { SenderSettings, SendingEngine } from '../../worker/sending-engine';
import { accounts } from '../accounts/accounts.db';
import { ledgerEntries } from '../billing/billing.db';
import { campaignAlerts } from '../bounces/bounces.db';
import { checkCampaignProtection } from '../bounces/record-report';
import { createDkimSigner, DEFAULT_SIGNED_HEADERS, dkimDnsRecord } from '../sending/dkim/dkim-signer';
import { createDkimSigningPool, type DkimSigningPool } from '../sending/dkim/signing-pool';
import { messages } from '../sending/messages.db';
import { recordsResolver, verifyDkim } from '../sending/testing/dkim-check';
import { runEngineUntil, useEngineHarness } from '../sending/testing/engine-harness';
import {
  campaignStatus,
  createListWithContacts,
  createReadyCampaign,
  creditAccount,
  suppressEmail,
  testSenderSettings,
  unsubscribeEmail,
} from '../sending/testing/send-fixtures';
import type { SmtpSink } from '../sending/testing/smtp-sink';
import { campaigns } from './campaigns.db';

const settings = testSenderSettings;

const emailsOf = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}@destino.com.br`);

describe.each(DATABASE_KINDS)('sending engine on %s', (kind) => {
  const harness = useEngineHarness(kind);
  let t: TestApp;
  let sink: SmtpSink;
  let db: Db;
  beforeAll(() => {
    ({ t, sink, db } = harness);
  });

  function newSender(
    overrides: Partial<SenderSettings> = {},
    signers: ReturnType<typeof createDkimSigner>[] = [],
    signingPool?: DkimSigningPool,
  ) {
    return harness.newSender({
      signers,
      signingPool,
      settings: settings(overrides),
      logger: pino({ level: process.env.SENDER_LOG ?? 'silent' }),
    });
  }

  /** Runs the manager until the campaign reaches one of `statuses` (or gives up after `ms`). */
  async function drain(sender: SendingEngine, campaignId: string, statuses = ['sent'], ms = 10_000) {
    let row: Awaited<ReturnType<typeof campaignStatus>>;
    await runEngineUntil(
      sender,
      async () => {
        row = await campaignStatus(db, campaignId);
        return row !== undefined && statuses.includes(row.status);
      },
      `the campaign ${statuses.join('/')}`,
      {
        ms,
        explain: async () => {
          const rows = await db.select().from(messages).where(eq(messages.campaignId, campaignId));
          const summary = rows.map((r) => `${r.email}:${r.status}:${r.attempts}:${r.response ?? ''}`).join(' | ');
          return `${(await campaignStatus(db, campaignId))?.status}; ${summary}`;
        },
      },
    );
    return row as NonNullable<typeof row>;
  }

  async function userWithAudience(emailsA: string[], emailsB: string[] = [], creditMillis = 100_000) {
    const user = await signUp(t, { verified: true });
    if (creditMillis > 0) await creditAccount(db, user.accountId, creditMillis);
    const a = await createListWithContacts(db, user.accountId, emailsA, { cidade: 'Salvador' });
    const lists = [a.listId];
    if (emailsB.length) lists.push((await createListWithContacts(db, user.accountId, emailsB)).listId);
    return { user, lists };
  }

  const send = (user: SignedInUser, id: string) =>
    t.app.inject({ method: 'POST', url: `/api/campaigns/${id}/send`, headers: user.headers });

  it('sends one message per recipient with the RFC 8058, List-Id, Feedback-ID and VERP headers, personalised', async () => {
    const shared = emailsOf('dup', 2);
    const { user, lists } = await userWithAudience(
      [...emailsOf('h', 3), ...shared],
      [...shared, 'so-b@destino.com.br'],
    );
    await suppressEmail(db, user.accountId, 'h0@destino.com.br');
    await unsubscribeEmail(db, user.accountId, 'h1@destino.com.br');
    const id = await createReadyCampaign(db, user.accountId, { includeListIds: lists });

    const res = await t.app.inject({ method: 'POST', url: '/send-campaign', headers: user.headers, payload: { id } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, campaignId: id, recipients: 4, reservedMillis: 20 });

    const before = sink.messages.length;
    await drain(newSender(), id);
    const got = sink.messages.slice(before);
    expect(got.map((m) => m.to).sort()).toEqual([
      'dup0@destino.com.br',
      'dup1@destino.com.br',
      'h2@destino.com.br',
      'so-b@destino.com.br',
    ]);

    const rows = await db.select().from(messages).where(eq(messages.campaignId, id));
    const h2 = got.find((m) => m.to === 'h2@destino.com.br');
    const row = rows.find((r) => r.email === 'h2@destino.com.br');
    if (!h2 || !row) throw new Error('missing h2');
    expect(row.token).toMatch(/^[0-9a-f]{40}$/);
    expect(h2.from).toBe(`b+${row.token}@bounces.carteiro.test`);
    const mail = await simpleParser(h2.raw);
    expect(mail.subject).toBe('Oferta para Pessoa h2');
    expect(mail.html).toContain('Olá, Pessoa h2 de Salvador!');
    expect(mail.html).toContain('Promoção de verão — ação válida até sábado.');
    expect(mail.text).toContain('Promoção de verão — ação válida até sábado.');
    expect(mail.html).toContain(`https://app.carteiro.test/u/${row.token}`);
    expect(mail.html).toContain(`https://app.carteiro.test/campaign/${id}/template-viewer?t=${row.token}`);
    expect(mail.from?.value[0]).toMatchObject({ name: 'Loja Ação', address: 'loja@exemplo.com.br' });
    // Message-ID under the sending domain (ADR 0011).
    expect(mail.messageId).toBe(`<${row.token}@exemplo.com.br>`);
    expect(mail.date).toBeInstanceOf(Date);
    const headerText = h2.raw.toString('utf8').split(/\r\n\r\n/)[0] ?? '';
    expect(headerText.match(/^List-Unsubscribe:/gim)).toHaveLength(1);
    expect(headerText).toContain(`List-Unsubscribe: <https://app.carteiro.test/u/${row.token}>`);
    expect(headerText).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(headerText).toMatch(new RegExp(`^List-Id: <${id}\\.carteiro\\.test>\r?$`, 'im'));
    expect(headerText).toContain(`Feedback-ID: ${id}:${user.accountId}:campaign:carteiro`);

    const campaign = await campaignStatus(db, id);
    expect(campaign).toMatchObject({ status: 'sent', sentCount: 4, failedCount: 0, recipientsCount: 4 });
    const ledger = await db.select().from(ledgerEntries).where(eq(ledgerEntries.campaignId, id));
    expect(ledger.find((e) => e.kind === 'send')?.amountMillis).toBe(-20);
    // The owner is told, in pt-BR.
    const notices = await t.sentMail();
    expect(notices.some((m) => m.subject === 'Campanha enviada: Campanha de teste' && m.to.includes(user.email))).toBe(
      true,
    );

    const progress = await t.app.inject({ method: 'GET', url: `/api/campaigns/${id}/progress`, headers: user.headers });
    expect(progress.json()).toMatchObject({ status: 'sent', sent: 4, failed: 0, remaining: 0 });
  });

  it.each([
    ['on the engine thread', false],
    ['on the signing pool threads', true],
  ] as const)(
    'DKIM-signs with RSA-2048 and Ed25519 %s, both verified by mailauth, h= covering the List-Unsubscribe headers',
    async (_where, pooled) => {
      const recipients = emailsOf(pooled ? 'pool' : 'dkim', 12);
      const { user, lists } = await userWithAudience(recipients);
      const id = await createReadyCampaign(db, user.accountId, { includeListIds: lists });
      expect((await send(user, id)).statusCode).toBe(200);
      const pems = {
        rsa: String(
          generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
        ),
        ed: String(generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' })),
      };
      const headerNames = [...DEFAULT_SIGNED_HEADERS, 'feedback-id'];
      const signers = [
        createDkimSigner({
          domain: 'exemplo.com.br',
          selector: 'rsa1',
          privateKeyPem: pems.rsa,
          algorithm: 'rsa-sha256',
          headerNames,
        }),
        createDkimSigner({
          domain: 'exemplo.com.br',
          selector: 'ed1',
          privateKeyPem: pems.ed,
          algorithm: 'ed25519-sha256',
          headerNames,
        }),
      ];
      const pool = pooled ? createDkimSigningPool({ threads: 2, chunkSize: 3 }) : undefined;
      const before = sink.messages.length;
      try {
        await drain(newSender({}, signers, pool), id);
      } finally {
        await pool?.close();
      }
      const got = sink.messages.slice(before).filter((m) => recipients.includes(m.to));
      expect(got).toHaveLength(12);
      const records: Record<string, string> = {
        'rsa1._domainkey.exemplo.com.br': dkimDnsRecord(pems.rsa),
        'ed1._domainkey.exemplo.com.br': dkimDnsRecord(pems.ed),
      };
      for (const message of got) {
        const results = await verifyDkim(message.raw, recordsResolver(records));
        expect(results.map((r) => r.status.result)).toEqual(['pass', 'pass']);
        for (const r of results)
          expect(r.signingHeaders?.keys.toLowerCase()).toContain('list-unsubscribe: list-unsubscribe-post');
      }
    },
  );

  it('with a plain-http PUBLIC_URL (development) still sends complete messages', async () => {
    const { user, lists } = await userWithAudience(['dev@destino.com.br']);
    const id = await createReadyCampaign(db, user.accountId, { includeListIds: lists });
    expect((await send(user, id)).statusCode).toBe(200);
    const before = sink.messages.length;
    await drain(newSender({ publicUrl: 'http://localhost:10100' }), id);
    const got = sink.messages.slice(before).find((m) => m.to === 'dev@destino.com.br');
    if (!got) throw new Error('not delivered');
    const mail = await simpleParser(got.raw);
    expect(mail.subject).toBe('Oferta para Pessoa dev');
    expect(mail.html).toContain('Pessoa dev');
    const head = got.raw.toString('utf8').split(/\r\n\r\n/)[0] ?? '';
    expect(head).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(head).toMatch(/^List-Unsubscribe: <http:\/\/localhost:10100\/u\/[0-9a-f]{40}>\r?$/m);
  });

  it('skips a contact unsubscribed after the snapshot, retries 4xx, fails 5xx without retry, charges only sent', async () => {
    const { user, lists } = await userWithAudience([
      'ok@destino.com.br',
      'soft@destino.com.br',
      'hard@destino.com.br',
      'policy@destino.com.br',
      'late@destino.com.br',
    ]);
    const id = await createReadyCampaign(db, user.accountId, { includeListIds: lists });
    expect((await send(user, id)).statusCode).toBe(200);
    await unsubscribeEmail(db, user.accountId, 'late@destino.com.br');
    sink.rcptReply = (address, attempt) => {
      if (address === 'soft@destino.com.br' && attempt < 3) return { code: 451, message: '4.3.0 Tente mais tarde' };
      if (address === 'hard@destino.com.br') return { code: 550, message: '5.1.1 Caixa inexistente' };
      if (address === 'policy@destino.com.br') return { code: 550, message: '5.7.1 Mensagem recusada por politica' };
      return null;
    };
    await drain(newSender({ batchSize: 10 }), id);
    const rows = await db.select().from(messages).where(eq(messages.campaignId, id));
    const by = Object.fromEntries(rows.map((r) => [r.email, r]));
    expect(by['ok@destino.com.br']).toMatchObject({ status: 'sent', attempts: 1, smtpCode: 250 });
    expect(by['soft@destino.com.br']).toMatchObject({ status: 'sent', attempts: 3 });
    expect(by['hard@destino.com.br']).toMatchObject({
      status: 'failed',
      attempts: 1,
      smtpCode: 550,
      enhancedCode: '5.1.1',
      policy: false,
    });
    expect(by['policy@destino.com.br']).toMatchObject({
      status: 'failed',
      attempts: 1,
      enhancedCode: '5.7.1',
      policy: true,
    });
    expect(by['late@destino.com.br']).toMatchObject({ status: 'skipped', attempts: 1 });
    expect(sink.attempts.get('hard@destino.com.br')).toBe(1);
    expect(sink.attempts.get('late@destino.com.br')).toBeUndefined();
    expect(await campaignStatus(db, id)).toMatchObject({
      status: 'sent',
      sentCount: 2,
      failedCount: 2,
      skippedCount: 1,
      rejectedCount: 1,
      policyRejectedCount: 1,
    });
    const report = await t.app.inject({ url: `/api/campaigns/${id}/report`, headers: user.headers });
    expect(report.json()).toMatchObject({ recipients: 5, delivered: 2, failed: 2, skipped: 1, pending: 0 });
    expect(report.json().bounces).toMatchObject({ hard: 1, policy: 1 });
    const ledger = await db.select().from(ledgerEntries).where(eq(ledgerEntries.campaignId, id));
    expect(ledger.find((e) => e.kind === 'reservation')?.amountMillis).toBe(-25);
    expect(ledger.find((e) => e.kind === 'send')).toMatchObject({ amountMillis: -10, emailCount: 2 });
    const [account] = await db.select().from(accounts).where(eq(accounts.id, user.accountId));
    expect(account?.balanceMillis).toBe(100_000 - 10);
  });

  it('pauses itself when the relay refuses too many mailboxes (5xx at send time counts as a hard bounce)', async () => {
    const emails = emailsOf('recusa', 20);
    const { user, lists } = await userWithAudience(emails);
    const id = await createReadyCampaign(db, user.accountId, { includeListIds: lists });
    expect((await send(user, id)).statusCode).toBe(200);
    sink.rcptReply = (address) =>
      ['recusa1@destino.com.br', 'recusa2@destino.com.br', 'recusa3@destino.com.br'].includes(address)
        ? { code: 550, message: '5.1.1 Caixa inexistente' }
        : null;
    const protection = {
      softBounceLimit: 3,
      protectionMinDeliveries: 10,
      protectionHardBounceRate: 0.05,
      protectionComplaintRate: 0.001,
    };
    const sender = harness.newSender({
      settings: settings({ batchSize: 20, concurrency: 1 }),
      onRejections: (campaignId) => checkCampaignProtection(db, campaignId, protection),
    });
    await drain(sender, id, ['paused']);
    expect(await campaignStatus(db, id)).toMatchObject({ status: 'paused', sentCount: 17, rejectedCount: 3 });
    const progress = await t.app.inject({ method: 'GET', url: `/api/campaigns/${id}/progress`, headers: user.headers });
    expect(progress.json().pausedReason).toMatch(/^Envio pausado automaticamente: a taxa de devoluções permanentes/);
    const alerts = await db.select().from(campaignAlerts).where(eq(campaignAlerts.campaignId, id));
    expect(alerts).toMatchObject([{ kind: 'hard_bounce_rate' }]);
  });

  it('a 4xx past the retry window fails', async () => {
    const { user, lists } = await userWithAudience(['sempre-451@destino.com.br']);
    const id = await createReadyCampaign(db, user.accountId, { includeListIds: lists });
    expect((await send(user, id)).statusCode).toBe(200);
    sink.rcptReply = () => ({ code: 451, message: '4.2.2 Caixa cheia' });
    const sender = newSender({ retryBaseSeconds: 60, retryMaxSeconds: 60, retryWindowSeconds: 3_600 });
    await sender.tick();
    const [first] = await db.select().from(messages).where(eq(messages.campaignId, id));
    expect(first).toMatchObject({ status: 'queued', attempts: 1, smtpCode: 451 });
    // The retry comes due (its row is moved: due times are the database's) when the engine's clock is an hour on,
    // so the attempt after it would fall past the retry window.
    harness.clock.advance(3_600_000);
    await db.execute(sql`update messages set next_attempt_at = now() where campaign_id = ${id}`);
    await db.execute(sql`update message_batches set due_at = now() where campaign_id = ${id} and status = 'queued'`);
    await drain(sender, id);
    const [row] = await db.select().from(messages).where(eq(messages.campaignId, id));
    expect(row?.status).toBe('failed');
    expect(row?.smtpCode).toBe(451);
    expect(row?.attempts).toBe(2);
  });

  it('refuses a short balance with the missing amount, rolling the status and the snapshot back', async () => {
    const { user, lists } = await userWithAudience(emailsOf('pobre', 3), [], 10);
    const id = await createReadyCampaign(db, user.accountId, { includeListIds: lists });
    const res = await send(user, id);
    expect(res.statusCode).toBe(402);
    expect(res.json().error.code).toBe('insufficient_balance');
    expect(res.json().error.message).toMatch(/saldo insuficiente/i);
    expect(res.json().error.message).toContain('R$');
    expect((await campaignStatus(db, id))?.status).toBe('draft');
    expect(await db.select().from(messages).where(eq(messages.campaignId, id))).toHaveLength(0);
  });

  it('refuses an unverified user, a campaign without unsubscribe link, and an empty audience (pt-BR)', async () => {
    const unverified = await signUp(t, { verified: false });
    const l = await createListWithContacts(db, unverified.accountId, ['x@destino.com.br']);
    const c1 = await createReadyCampaign(db, unverified.accountId, { includeListIds: [l.listId] });
    const r1 = await send(unverified, c1);
    expect(r1.statusCode).toBe(403);
    expect(r1.json().error.message).toContain('Confirme seu e-mail');

    const { user, lists } = await userWithAudience(['y@destino.com.br']);
    const c2 = await createReadyCampaign(db, user.accountId, { includeListIds: lists, template: '<p>sem link</p>' });
    const noLink = await send(user, c2);
    expect(noLink.statusCode).toBe(409);
    expect(noLink.json().error.code).toBe('campaign_not_ready');
    const empty = await createListWithContacts(db, user.accountId, []);
    const c3 = await createReadyCampaign(db, user.accountId, { includeListIds: [empty.listId] });
    const r3 = await send(user, c3);
    expect(r3.statusCode).toBe(409);
    expect(r3.json().error).toMatchObject({ code: 'campaign_not_ready' });
    expect(r3.json().error.message).toContain('Nenhum destinatário');
    // Another account's campaign is not found.
    expect((await send(unverified, c2)).statusCode).toBe(404);
  });

  it('two concurrent sends: exactly one 200 and one 409, one snapshot, one reservation', async () => {
    const { user, lists } = await userWithAudience(emailsOf('dois', 4));
    const id = await createReadyCampaign(db, user.accountId, { includeListIds: lists });
    const [r1, r2] = await Promise.all([
      send(user, id),
      t.app.inject({ method: 'POST', url: '/send-campaign', headers: user.headers, payload: { id } }),
    ]);
    expect([r1.statusCode, r2.statusCode].sort()).toEqual([200, 409]);
    const refused = r1.statusCode === 409 ? r1 : r2;
    expect(refused.json().error.message).toMatch(/já está sendo enviada|mudou de situação/);
    expect(await db.select().from(messages).where(eq(messages.campaignId, id))).toHaveLength(4);
    const reservations = await db.select().from(ledgerEntries).where(eq(ledgerEntries.campaignId, id));
    expect(reservations).toHaveLength(1);
  });

  it('pause stops claiming, resume goes on, cancel skips the rest and charges only what was sent', async () => {
    const { user, lists } = await userWithAudience(emailsOf('pausa', 9));
    const id = await createReadyCampaign(db, user.accountId, { includeListIds: lists });
    expect((await send(user, id)).statusCode).toBe(200);
    const sender = newSender({ batchSize: 2, concurrency: 1 });
    expect(await sender.campaigns.sendCampaignBatch(id)).toBe(2);
    const call = (action: string) =>
      t.app.inject({ method: 'POST', url: `/api/campaigns/${id}/${action}`, headers: user.headers });
    expect((await call('pause')).statusCode).toBe(200);
    expect(await sender.campaigns.sendCampaignBatch(id)).toBe(0);
    await sender.tick();
    expect(await campaignStatus(db, id)).toMatchObject({ status: 'paused', sentCount: 2 });
    expect((await call('pause')).statusCode).toBe(409);
    expect((await call('resume')).statusCode).toBe(200);
    expect(await sender.campaigns.sendCampaignBatch(id)).toBe(2);
    expect((await call('cancel')).statusCode).toBe(200);
    expect(await sender.campaigns.sendCampaignBatch(id)).toBe(0);
    await sender.tick();
    const rows = await db.select().from(messages).where(eq(messages.campaignId, id));
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(4);
    expect(rows.filter((r) => r.status === 'skipped')).toHaveLength(5);
    // Progress comes from the counters, which the statements that write the rows keep equal to them.
    const progress = await t.app.inject({ method: 'GET', url: `/api/campaigns/${id}/progress`, headers: user.headers });
    expect(progress.json()).toMatchObject({ status: 'cancelled', recipients: 9, sent: 4, skipped: 5, remaining: 0 });
    expect(await campaignStatus(db, id)).toMatchObject({ status: 'cancelled', sentCount: 4 });
    const ledger = await db.select().from(ledgerEntries).where(eq(ledgerEntries.campaignId, id));
    expect(ledger.find((e) => e.kind === 'send')).toMatchObject({ amountMillis: -20, emailCount: 4 });
    expect((await call('resume')).statusCode).toBe(409);
  });

  it('pauses itself with a pt-BR reason after consecutive relay failures, and resumes', async () => {
    const { user, lists } = await userWithAudience(emailsOf('queda', 6));
    const id = await createReadyCampaign(db, user.accountId, { includeListIds: lists });
    expect((await send(user, id)).statusCode).toBe(200);
    sink.down = true;
    const sender = newSender({
      batchSize: 1,
      concurrency: 1,
      pauseAfterErrors: 3,
      retryBaseSeconds: 60,
      retryMaxSeconds: 60,
    });
    await drain(sender, id, ['paused']);
    const progress = await t.app.inject({ method: 'GET', url: `/api/campaigns/${id}/progress`, headers: user.headers });
    expect(progress.json()).toMatchObject({ status: 'paused', sent: 0, remaining: 6 });
    expect(progress.json().pausedReason).toMatch(
      /^Pausada automaticamente: o servidor de envio falhou 3 vezes seguidas/,
    );
    sink.down = false;
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/campaigns/${id}/resume`, headers: user.headers })).statusCode,
    ).toBe(200);
    await drain(sender, id);
    expect(await campaignStatus(db, id)).toMatchObject({ status: 'sent', sentCount: 6 });
  });

  it('starts a scheduled campaign by itself when its time comes', async () => {
    const { user, lists } = await userWithAudience(emailsOf('agenda', 2));
    const id = await createReadyCampaign(db, user.accountId, {
      includeListIds: lists,
      status: 'scheduled',
      scheduledAt: new Date(harness.clock.now().getTime() + 3_600_000),
    });
    const sender = newSender();
    await sender.tick();
    harness.clock.advance(3_599_000); // a second before its time: the sweep leaves it
    await sender.tick();
    expect((await campaignStatus(db, id))?.status).toBe('scheduled');
    harness.clock.advance(2_000);
    await drain(sender, id);
    expect(await campaignStatus(db, id)).toMatchObject({ status: 'sent', sentCount: 2 });
  });

  it('re-queues the messages of a dead worker after the lease and sends them once', async () => {
    const { user, lists } = await userWithAudience(emailsOf('lease', 3));
    const id = await createReadyCampaign(db, user.accountId, { includeListIds: lists });
    expect((await send(user, id)).statusCode).toBe(200);
    // A worker claimed them, then died before delivering.
    await db.execute(
      sql`with carved as (
            update campaign_sends set next_message_id = last_message_id + 1 where campaign_id = ${id}
            returning next_message_id - 1 as last_id)
          insert into message_batches (campaign_id, first_message_id, last_message_id, status, claimed_by, claimed_at)
          select ${id}, (select min(id) from messages where campaign_id = ${id}), carved.last_id, 'sending', 'morto',
                 now() - interval '10 minutes'
            from carved`,
    );
    const before = sink.messages.length;
    await drain(newSender({ leaseSeconds: 60 }), id);
    expect(sink.messages.slice(before).filter((m) => m.to.startsWith('lease'))).toHaveLength(3);
    const [counts] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from messages where campaign_id = ${id} and status = 'sent'`,
    );
    expect(counts?.n).toBe(3);
    expect((await db.select().from(campaigns).where(eq(campaigns.id, id)))[0]?.sentCount).toBe(3);
  });

  it("renews a healthy worker's lease through its rate-limit wait: no duplicate; a dead worker's batch is re-claimed", async () => {
    const { user, lists } = await userWithAudience(emailsOf('ritmo', 8));
    const id = await createReadyCampaign(db, user.accountId, { includeListIds: lists });
    expect((await send(user, id)).statusCode).toBe(200);
    const dead = await userWithAudience(emailsOf('falecido', 3));
    const deadId = await createReadyCampaign(db, dead.user.accountId, { includeListIds: dead.lists });
    expect((await send(dead.user, deadId)).statusCode).toBe(200);
    // A worker claimed the second campaign's recipients, then died before delivering: nobody renews its lease.
    await db.execute(
      sql`with carved as (
            update campaign_sends set next_message_id = last_message_id + 1 where campaign_id = ${deadId}
            returning next_message_id - 1 as last_id)
          insert into message_batches (campaign_id, first_message_id, last_message_id, status, claimed_by, claimed_at)
          select ${deadId}, (select min(id) from messages where campaign_id = ${deadId}), carved.last_id, 'sending',
                 'morto', now() - interval '10 minutes'
            from carved`,
    );
    const before = sink.messages.length;

    // One message a second and a 2 s lease: the healthy worker's second batch waits ~4 s on its own rate limiter,
    // twice the lease, while another worker sweeps leases all along.
    const slow = newSender({ ratePerRelay: 1, batchSize: 4, leaseSeconds: 2 });
    expect(await slow.campaigns.sendCampaignBatch(id)).toBe(4);
    let waiting = true;
    const second = slow.campaigns.sendCampaignBatch(id).finally(() => {
      waiting = false;
    });
    // The second batch must be this worker's before the other one starts sweeping and claiming: otherwise the
    // other worker may carve the remaining recipients first, and the test would measure that race, not the lease.
    while (waiting && slow.leases.heldIds().length === 0) await new Promise((r) => setTimeout(r, 5));
    const other = newSender({ leaseSeconds: 2 });
    while (waiting) {
      await other.tick();
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await second).toBe(4);
    expect(slow.leases.heldIds()).toEqual([]);
    await drain(other, id);
    await drain(other, deadId);

    const got = sink.messages.slice(before).map((m) => m.to);
    const healthy = got.filter((to) => to.startsWith('ritmo')).sort();
    expect(healthy).toEqual(emailsOf('ritmo', 8).sort());
    expect(got.filter((to) => to.startsWith('falecido')).sort()).toEqual(emailsOf('falecido', 3).sort());
    const [counts] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from messages where campaign_id = ${id} and status = 'sent' and attempts = 1`,
    );
    expect(counts?.n).toBe(8);
    expect(await campaignStatus(db, id)).toMatchObject({ status: 'sent', sentCount: 8 });
    expect(await campaignStatus(db, deadId)).toMatchObject({ status: 'sent', sentCount: 3 });
  });
});
