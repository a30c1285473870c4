import { generateKeyPairSync } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { createRequire } from 'node:module';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDnsServer, type TestDnsServer } from '../../../test/support/dns-server';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { SendingEngine } from '../../worker/sending-engine';
import { createRelayTransport } from '../../worker/sending-runtime';
import { createDkimSigner, DEFAULT_SIGNED_HEADERS, dkimDnsRecord } from '../sending/dkim/dkim-signer';
import { runEngineUntil } from '../sending/testing/engine-harness';
import {
  campaignStatus,
  createListWithContacts,
  createReadyCampaign,
  creditAccount,
  testSenderSettings,
} from '../sending/testing/send-fixtures';
import { type SmtpSink, startSmtpSink } from '../sending/testing/smtp-sink';
import { createSigningResolver } from './sender-signing';
import { trustSenderAddress } from './testing/trust-sender';

/**
 * The end-to-end proof that only verified senders sign: a message built and sent by the real engine, checked by `mailauth` (DKIM,
 * SPF, DMARC) against a DNS server on loopback holding the records. Before the domain is verified the same
 * sender's mail fails DMARC (only the platform signs, bounces on the platform's domain); after, it passes.
 */
const { authenticate } = createRequire(import.meta.url)('mailauth') as {
  authenticate: (input: Buffer, options: Record<string, unknown>) => Promise<unknown>;
};

const PLATFORM = 'carteiro.test';
const PLATFORM_BOUNCES = 'bounces.carteiro.test';

interface AuthResult {
  dkim: { results: { signingDomain: string; status: { result: string; aligned?: string | false } }[] };
  spf: { domain: string; status: { result: string } };
  dmarc: { status: { result: string } };
}

describe.each(DATABASE_KINDS)('per-domain DKIM signing on %s', (kind) => {
  let t: TestApp;
  let dns: TestDnsServer;
  let sink: SmtpSink;
  let resolver: Resolver;

  beforeAll(async () => {
    dns = await startTestDnsServer();
    sink = await startSmtpSink();
    t = await createTestApp(kind, { DNS_SERVERS: dns.address, BOUNCE_DOMAIN: PLATFORM_BOUNCES });
    resolver = new Resolver({ timeout: 2000, tries: 1 });
    resolver.setServers([dns.address]);
    // The platform's own DNS: SPF of the bounce domain (our relay is 127.0.0.1) and the include senders add.
    dns.setTxt(PLATFORM_BOUNCES, ['v=spf1 ip4:127.0.0.1 -all']);
    dns.setTxt(`_spf.${PLATFORM_BOUNCES}`, ['v=spf1 ip4:127.0.0.1 -all']);
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
    await dns.close();
  });

  function platformSigner() {
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }) as string;
    dns.setTxt(`plat._domainkey.${PLATFORM}`, [dkimDnsRecord(pem)]);
    return createDkimSigner({
      domain: PLATFORM,
      selector: 'plat',
      privateKeyPem: pem,
      algorithm: 'rsa-sha256',
      headerNames: [...DEFAULT_SIGNED_HEADERS, 'feedback-id', 'reply-to'],
    });
  }

  async function sendOne(user: SignedInUser, listId: string, fromEmail: string, to: string) {
    const id = await createReadyCampaign(t.database.db, user.accountId, { includeListIds: [listId], fromEmail });
    const res = await t.app.inject({ method: 'POST', url: `/api/campaigns/${id}/send`, headers: user.headers });
    expect(res.statusCode, res.body).toBe(200);
    const platform = [platformSigner()];
    const transport = createRelayTransport(sink.url, 1);
    const sender = new SendingEngine({
      db: t.database.db,
      transports: [transport],
      settings: testSenderSettings({ bounceDomain: PLATFORM_BOUNCES }),
      logger: pino({ level: 'silent' }),
      mailer: t.mailer,
      signers: platform,
      signingFor: createSigningResolver({
        db: t.database.db,
        secret: t.config.AUTH_SECRET as string,
        platformSigners: platform,
        platformBounceDomain: PLATFORM_BOUNCES,
      }),
    });
    const before = sink.messages.length;
    try {
      await runEngineUntil(
        sender,
        async () => (await campaignStatus(t.database.db, id))?.status === 'sent',
        'the campaign sent',
      );
    } finally {
      await sender.stop();
      await transport.close();
    }
    const got = sink.messages.slice(before).find((m) => m.to === to);
    if (!got) throw new Error('message not delivered to the sink');
    return got;
  }

  async function verify(message: { raw: Buffer; from: string }): Promise<AuthResult> {
    const result = await authenticate(message.raw, {
      ip: '127.0.0.1',
      helo: 'mta.carteiro.test',
      sender: message.from,
      mta: 'mx.destino.test',
      disableArc: true,
      disableBimi: true,
      resolver: (name: string, type: string) => resolver.resolve(name, type as 'TXT') as Promise<never>,
    });
    return result as unknown as AuthResult;
  }

  it('fails DMARC before the domain is verified and passes it (DKIM both signatures, SPF aligned) after', async () => {
    const user = await signUp(t, { verified: true });
    await creditAccount(t.database.db, user.accountId, 10_000);
    const { listId } = await createListWithContacts(t.database.db, user.accountId, ['cliente@destino.test'], {
      cidade: 'Recife',
    });
    dns.setTxt('_dmarc.loja.test', ['v=DMARC1; p=reject']);

    // Before: a confirmed address only — signed by the platform, bounces on the platform's domain.
    await trustSenderAddress(t.database.db, user.accountId, 'ofertas@loja.test');
    const before = await verify(await sendOne(user, listId, 'ofertas@loja.test', 'cliente@destino.test'));
    expect(before.dkim.results.map((r) => [r.signingDomain, r.status.result])).toEqual([['carteiro.test', 'pass']]);
    expect(before.spf.status.result).toBe('pass');
    expect(before.spf.domain).toBe(PLATFORM_BOUNCES);
    expect(before.dmarc.status.result).toBe('fail');

    // The domain is added, its records published on the loopback DNS, and checked.
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/sender-domains',
      headers: user.headers,
      payload: { domain: 'loja.test' },
    });
    const domain = created.json() as { id: string; records: { kind: string; name: string; value: string }[] };
    for (const r of domain.records) {
      if (r.kind === 'dkim' || r.kind === 'dkim_ed25519') dns.setTxt(r.name, [r.value]);
      if (r.kind === 'spf') dns.setTxt(r.name, [r.value]);
      if (r.kind === 'return_path') dns.setCname(r.name, r.value);
    }
    const checked = await t.app.inject({
      method: 'POST',
      url: `/api/sender-domains/${domain.id}/check`,
      headers: user.headers,
    });
    expect(checked.json()).toMatchObject({ status: 'verified', returnPathVerified: true });

    const after = await verify(await sendOne(user, listId, 'ofertas@loja.test', 'cliente@destino.test'));
    const dkim = after.dkim.results.map((r) => [r.signingDomain, r.status.result]).sort();
    expect(dkim).toEqual([
      ['carteiro.test', 'pass'],
      ['loja.test', 'pass'],
      ['loja.test', 'pass'],
    ]);
    expect(after.spf.status.result).toBe('pass');
    expect(after.spf.domain).toBe('bounces.loja.test');
    expect(after.dmarc.status.result).toBe('pass');
  });
});
