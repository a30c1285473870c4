import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/database';
import { adjustBalanceByOperator } from '../../billing/adjust-balance';
import type { SenderSettings } from '../../campaigns/campaign-sender';
import { campaigns } from '../../campaigns/campaigns.db';
import { contacts, suppressions } from '../../contacts/contacts.db';
import { listMemberships, lists } from '../../lists/lists.db';
import { trustSenderAddress } from '../../sender-identities/testing/trust-sender';

export const TEST_TEMPLATE = `<html><body>
<p>Olá, {{ contato.nome | default: "cliente" }} de {{ contato.cidade | default: "algum lugar" }}!</p>
<p>Promoção de verão — ação válida até sábado.</p>
<p><a href="https://exemplo.com.br/oferta">Ver oferta</a></p>
<p>{{ conta.nome }}</p>
<a href="{{ link_descadastro }}">Descadastrar</a>
</body></html>`;

/** Inserts `count` subscribed contacts into a new list of the account; returns the list id and addresses. */
export async function createListWithContacts(
  db: Db,
  accountId: string,
  emails: string[],
  opts: { name?: string; cidade?: string } = {},
): Promise<{ listId: string; emails: string[] }> {
  const [list] = await db
    .insert(lists)
    .values({ accountId, name: opts.name ?? `Lista ${randomUUID().slice(0, 6)}` })
    .returning();
  if (!list) throw new Error('list insert failed');
  for (let i = 0; i < emails.length; i += 5000) {
    const chunk = emails.slice(i, i + 5000);
    const rows = await db
      .insert(contacts)
      .values(
        chunk.map((email) => ({
          accountId,
          email,
          name: `Pessoa ${email.split('@')[0]}`,
          fields: (opts.cidade ? { cidade: opts.cidade } : {}) as Record<string, string>,
        })),
      )
      .onConflictDoUpdate({ target: [contacts.accountId, contacts.email], set: { updatedAt: new Date() } })
      .returning({ id: contacts.id });
    await db
      .insert(listMemberships)
      .values(rows.map((r) => ({ listId: list.id, contactId: r.id })))
      .onConflictDoNothing();
  }
  return { listId: list.id, emails };
}

export async function creditAccount(db: Db, accountId: string, amountMillis: number): Promise<void> {
  await adjustBalanceByOperator(db, {
    accountId,
    amountMillis,
    reason: 'crédito de teste',
    operator: { userId: 'test-operator', email: 'operador@example.com' },
  });
}

export async function suppressEmail(db: Db, accountId: string, email: string): Promise<void> {
  await db.insert(suppressions).values({
    accountId,
    emailHash: sql`encode(sha256(convert_to(${email}, 'UTF8')), 'hex')`,
    reason: 'manual',
  });
}

export async function unsubscribeEmail(db: Db, accountId: string, email: string): Promise<void> {
  await db.execute(
    sql`update contacts set status = 'unsubscribed' where account_id = ${accountId} and email = ${email}`,
  );
}

/**
 * A campaign ready to send. Its From is marked a confirmed sender of the account (ADR 0012) unless
 * `trustFrom: false` (tests of the sending rule itself).
 */
export async function createReadyCampaign(
  db: Db,
  accountId: string,
  fields: Partial<typeof campaigns.$inferInsert> & { includeListIds: string[] },
  options: { trustFrom?: boolean } = {},
): Promise<string> {
  const [row] = await db
    .insert(campaigns)
    .values({
      uuid: randomUUID(),
      createdBy: accountId,
      name: 'Campanha de teste',
      subject: 'Oferta para {{ contato.nome }}',
      fromName: 'Loja Ação',
      fromEmail: 'loja@exemplo.com.br',
      replyTo: 'contato@exemplo.com.br',
      template: TEST_TEMPLATE,
      ...fields,
    })
    .returning({ id: campaigns.id });
  if (!row) throw new Error('campaign insert failed');
  const fromEmail = fields.fromEmail === undefined ? 'loja@exemplo.com.br' : fields.fromEmail;
  if ((options.trustFrom ?? true) && fromEmail) await trustSenderAddress(db, accountId, fromEmail);
  return row.id;
}

export async function campaignStatus(db: Db, id: string) {
  const [row] = await db.select().from(campaigns).where(eq(campaigns.id, id));
  return row;
}

/** Engine settings for tests: no back-off, a fast poll, small batches; override what a test is about. */
export function testSenderSettings(overrides: Partial<SenderSettings> = {}): SenderSettings {
  return {
    batchSize: 3,
    concurrency: 2,
    ratePerRelay: 0,
    retryBaseSeconds: 0,
    retryMaxSeconds: 0,
    retryWindowSeconds: 3600,
    pauseAfterErrors: 3,
    leaseSeconds: 60,
    pollMs: 20,
    scheduleSweepSeconds: 1,
    // Tests tick the worker a few times in a row and expect each tick's housekeeping (delivery-worker.test.ts
    // tests the interval itself).
    sweepMs: 0,
    publicUrl: 'https://app.carteiro.test',
    bounceDomain: 'bounces.carteiro.test',
    listIdDomain: 'carteiro.test',
    ...overrides,
  };
}
