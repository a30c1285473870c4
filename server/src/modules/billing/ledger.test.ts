import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount } from '../../../test/support/test-account';
import { createTestDatabase, DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import { AppError } from '../../http/app-error';
import { findBillingAccount } from '../accounts/account-balance';
import { adjustBalanceByOperator } from './adjust-balance';
import { reserveForCampaign } from './reserve-campaign-cost';
import { settleCampaign } from './settle-campaign';

const operator = { userId: 'operator-1', email: 'ops@carteiro.local' };

describe.each(DATABASE_KINDS)('ledger on %s', (kind) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  async function ledgerSum(accountId: string): Promise<number> {
    const [row] = await queryRows<{ sum: string | number | null }>(
      database.db,
      sql`select coalesce(sum(amount_millis), 0)::bigint as sum from ledger_entries where account_id = ${accountId}`,
    );
    return Number(row?.sum ?? 0);
  }

  async function balance(accountId: string): Promise<number> {
    return (await findBillingAccount(database.db, accountId))?.balanceMillis ?? Number.NaN;
  }

  async function fund(accountId: string, millis: number) {
    await adjustBalanceByOperator(database.db, {
      accountId,
      amountMillis: millis,
      reason: 'Crédito de teste',
      operator,
    });
  }

  it('refuses a short balance with the missing amount in reais', async () => {
    const account = await createTestAccount(database.db);
    await fund(account.id, 10_000);
    const error = await reserveForCampaign(database.db, {
      accountId: account.id,
      campaignId: randomUUID(),
      recipients: 4_469,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('insufficient_balance');
    // 4469 × 5 = 22 345; missing 12 345 millis.
    expect((error as AppError).message).toBe('Saldo insuficiente: faltam R$\u00a012,345 para enviar esta campanha.');
    expect(await balance(account.id)).toBe(10_000);
  });

  it('reserves once per campaign and settles charging only sent messages', async () => {
    const account = await createTestAccount(database.db);
    await fund(account.id, 10_000);
    const campaignId = randomUUID();
    const first = await reserveForCampaign(database.db, { accountId: account.id, campaignId, recipients: 1_000 });
    const again = await reserveForCampaign(database.db, { accountId: account.id, campaignId, recipients: 1_000 });
    expect(first.reservedMillis).toBe(5_000);
    expect(again.created).toBe(false);
    expect(await balance(account.id)).toBe(5_000);

    const settled = await settleCampaign(database.db, { campaignId, sentCount: 940 });
    expect(settled.chargedMillis).toBe(4_700);
    expect(await balance(account.id)).toBe(5_300);
    const repeat = await settleCampaign(database.db, { campaignId, sentCount: 999 });
    expect(repeat.settled).toBe(false);
    expect(repeat.chargedMillis).toBe(4_700);
    expect(await balance(account.id)).toBe(5_300);
    expect(await ledgerSum(account.id)).toBe(5_300);
    await expect(settleCampaign(database.db, { campaignId: randomUUID(), sentCount: 1 })).rejects.toThrow(
      /não tem reserva/,
    );
  });

  it('uses the negotiated price for reservation and settlement', async () => {
    const account = await createTestAccount(database.db, { priceMillis: 3 });
    await fund(account.id, 1_000);
    const campaignId = randomUUID();
    const r = await reserveForCampaign(database.db, { accountId: account.id, campaignId, recipients: 300 });
    expect(r.reservedMillis).toBe(900);
    expect(r.priceMillis).toBe(3);
    const s = await settleCampaign(database.db, { campaignId, sentCount: 100 });
    expect(s.chargedMillis).toBe(300);
    expect(await balance(account.id)).toBe(700);
  });

  it('refuses to reserve for a suspended account', async () => {
    const account = await createTestAccount(database.db, { status: 'suspended' });
    await fund(account.id, 1_000);
    await expect(
      reserveForCampaign(database.db, { accountId: account.id, campaignId: randomUUID(), recipients: 1 }),
    ).rejects.toMatchObject({ code: 'account_suspended' });
  });

  it('requires a reason for operator adjustments and never debits below zero', async () => {
    const account = await createTestAccount(database.db);
    await expect(
      adjustBalanceByOperator(database.db, { accountId: account.id, amountMillis: 10, reason: ' ', operator }),
    ).rejects.toMatchObject({ code: 'validation_failed' });
    await fund(account.id, 500);
    await expect(
      adjustBalanceByOperator(database.db, { accountId: account.id, amountMillis: -501, reason: 'Estorno', operator }),
    ).rejects.toMatchObject({ code: 'insufficient_balance' });
    const rows = await queryRows<{ count: number }>(
      database.db,
      sql`select count(*)::int as count from admin_audit_log where account_id = ${account.id}`,
    );
    expect(rows[0]?.count).toBe(1);
  });

  it('refuses to update or delete ledger entries (append-only)', async () => {
    const account = await createTestAccount(database.db);
    await fund(account.id, 100);
    await expect(
      database.db.execute(sql`update ledger_entries set amount_millis = 1 where account_id = ${account.id}`),
    ).rejects.toThrow();
    await expect(
      database.db.execute(sql`delete from ledger_entries where account_id = ${account.id}`),
    ).rejects.toThrow();
    expect(await ledgerSum(account.id)).toBe(100);
  });

  it('keeps balance == sum(ledger) and never negative under random concurrent operations (property)', async () => {
    let seed = 20_240_601;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    for (let round = 0; round < 5; round++) {
      const account = await createTestAccount(database.db, { priceMillis: 1 + Math.floor(random() * 7) });
      const reserved: string[] = [];
      const ops: Array<() => Promise<unknown>> = [];
      for (let i = 0; i < 40; i++) {
        const pick = random();
        if (pick < 0.3) {
          const amount = 1 + Math.floor(random() * 3_000);
          ops.push(() => fund(account.id, amount));
        } else if (pick < 0.75) {
          const campaignId = randomUUID();
          reserved.push(campaignId);
          const recipients = Math.floor(random() * 400);
          ops.push(() => reserveForCampaign(database.db, { accountId: account.id, campaignId, recipients }));
        } else {
          const campaignId = reserved[Math.floor(random() * reserved.length)];
          const sent = Math.floor(random() * 200);
          if (campaignId) ops.push(() => settleCampaign(database.db, { campaignId, sentCount: sent }));
        }
      }
      const results = await Promise.allSettled(ops.map((op) => op()));
      for (const result of results) {
        if (result.status === 'rejected') {
          // Only the expected refusals: short balance, unknown reservation, more sent than reserved.
          expect(['insufficient_balance', 'not_found', 'bad_request']).toContain((result.reason as AppError).code);
        }
      }
      const finalBalance = await balance(account.id);
      expect(finalBalance).toBeGreaterThanOrEqual(0);
      expect(finalBalance).toBe(await ledgerSum(account.id));
      // Every entry's balance_after is a real point of the running sum, in seq order.
      const entries = await queryRows<{ amount_millis: number; balance_after_millis: number }>(
        database.db,
        sql`select amount_millis::bigint as amount_millis, balance_after_millis::bigint as balance_after_millis
            from ledger_entries where account_id = ${account.id} order by seq`,
      );
      let running = 0;
      for (const entry of entries) {
        running += Number(entry.amount_millis);
        expect(Number(entry.balance_after_millis)).toBe(running);
        expect(running).toBeGreaterThanOrEqual(0);
      }
    }
  });
});
