import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForImport } from '../../../test/support/imports';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { createDatabaseBeforeMigration, DATABASE_KINDS, insertAccountRow } from '../../../test/support/test-database';
import { type Db, queryRows } from '../../db/database';
import { accounts } from '../accounts/accounts.db';
import { markContactUndeliverable, syncContactStatusWithLists } from '../contacts/contact-status';
import { trustSenderAddress } from '../sender-identities/testing/trust-sender';
import { creditAccount } from '../sending/testing/send-fixtures';
import { LIST_COUNT_FOLD_AT } from './list-counts';
import { resubscribeMembership, unsubscribeMemberships } from './memberships';

/** Every list of the account as "name members subscribed", counted from the memberships themselves: the oracle. */
async function rawCounts(db: Db, accountId: string): Promise<string[]> {
  return (
    await queryRows<{ row: string }>(
      db,
      sql`select l.name || ' ' || (select count(*) from list_memberships m where m.list_id = l.id) || ' ' ||
                 (select count(*) from list_memberships m join contacts c on c.id = m.contact_id
                   where m.list_id = l.id and m.status = 'subscribed' and c.status = 'subscribed') as row
            from lists l where l.account_id = ${accountId} order by l.name`,
    )
  ).map((r) => r.row);
}

describe.each(DATABASE_KINDS)('list counts on %s', (kind) => {
  let t: TestApp;
  let db: Db;
  let user: SignedInUser;
  const json = () => ({ ...user.headers, 'content-type': 'application/json' });
  const call = async (method: 'POST' | 'DELETE', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: payload ? json() : user.headers, payload });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.statusCode === 204 ? null : res.json();
  };
  /** What the lists page shows, as the oracle's rows; each list's own page says the same. */
  const expectShownAsCounted = async () => {
    const page = await t.app.inject({ url: '/api/lists', headers: user.headers });
    const items = page.json().items as Array<{
      id: string;
      name: string;
      contactCount: number;
      subscribedCount: number;
    }>;
    const shown = items.map((l) => `${l.name} ${l.contactCount} ${l.subscribedCount}`).sort();
    expect(shown).toEqual(await rawCounts(db, user.accountId));
    for (const l of items) {
      const one = (await t.app.inject({ url: `/api/lists/${l.id}`, headers: user.headers })).json();
      expect(`${one.name} ${one.contactCount} ${one.subscribedCount}`).toBe(
        `${l.name} ${l.contactCount} ${l.subscribedCount}`,
      );
    }
    return shown;
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    db = t.database.db;
    user = await signUp(t, { verified: true });
    // A double opt-in list sends its confirmation (paid) from the account's default sender.
    await creditAccount(db, user.accountId, 1_000);
    await trustSenderAddress(db, user.accountId, 'loja@listas.com.br');
    await db.update(accounts).set({ defaultFromEmail: 'loja@listas.com.br' }).where(eq(accounts.id, user.accountId));
  });
  afterAll(async () => {
    await t.close();
  });

  it('show what the memberships say after every writer of memberships and of contacts’ status', async () => {
    const clientes = await call('POST', '/api/lists', { name: 'Clientes' });
    const dupla = await call('POST', '/api/lists', { name: 'Dupla', optIn: 'double' });
    const extra = await call('POST', '/api/lists', { name: 'Extra' });
    // Web form onto lists (single: subscribed; double: pending, not subscribed).
    const ids: Record<string, string> = {};
    for (const name of ['ana', 'bia', 'caio', 'davi']) {
      const created = await call('POST', '/api/contacts', {
        email: `${name}@listas.com.br`,
        listIds: name === 'davi' ? [dupla.id] : [clientes.id, extra.id],
      });
      ids[name] = created.id;
    }
    expect(await expectShownAsCounted()).toEqual(['Clientes 3 3', 'Dupla 1 0', 'Extra 3 3']);
    // CSV import into a list: new contacts and one already there.
    const up = (
      await t.app.inject({
        method: 'POST',
        url: '/api/imports',
        headers: { ...user.headers, 'content-type': 'text/csv' },
        payload: 'email\neva@listas.com.br\nfabio@listas.com.br\nana@listas.com.br\n',
      })
    ).json();
    await call('POST', `/api/imports/${up.importId}/start`, {
      mapping: { email: 'email' },
      listId: clientes.id,
      legalBasis: 'consent',
      consentSource: 'planilha',
      updateExisting: true,
    });
    expect(await waitForImport(t, user, up.importId)).toMatchObject({ status: 'done' });
    await expectShownAsCounted();
    // Bulk: add to a list, remove from a list, unsubscribe from everything.
    await call('POST', '/api/contacts/bulk', { action: 'add_to_list', ids: [ids.davi], listId: extra.id });
    await call('POST', '/api/contacts/bulk', { action: 'remove_from_list', ids: [ids.bia], listId: extra.id });
    await call('POST', '/api/contacts/bulk', { action: 'unsubscribe', ids: [ids.caio] });
    await expectShownAsCounted();
    // A list's unsubscribe link and the preference centre's way back, with the contact's status following.
    await unsubscribeMemberships(db, ids.ana as string, [clientes.id]);
    await syncContactStatusWithLists(db, ids.ana as string);
    await expectShownAsCounted();
    await resubscribeMembership(db, ids.ana as string, clientes.id);
    await syncContactStatusWithLists(db, ids.ana as string);
    // A hard bounce: the contact stops counting as subscribed on every list, its memberships stay.
    await markContactUndeliverable(db, user.accountId, ids.bia as string, 'bounced');
    await expectShownAsCounted();
    // Deleting and erasing contacts, then a list.
    await call('POST', '/api/contacts/bulk', { action: 'delete', ids: [ids.davi] });
    await call('POST', `/api/contacts/${ids.ana}/erase`);
    await expectShownAsCounted();
    await call('DELETE', `/api/lists/${extra.id}`);
    expect(await expectShownAsCounted()).toHaveLength(2);
    const [orphans] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from list_count_deltas where list_id = ${extra.id}`,
    );
    expect(orphans?.n).toBe(0);
  });

  it('an account deleted with its lists and contacts leaves no count rows behind', async () => {
    const other = await signUp(t, { verified: true });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/lists',
      headers: { ...other.headers, 'content-type': 'application/json' },
      payload: { name: 'Da outra conta' },
    });
    const listId = created.json().id as string;
    await t.app.inject({
      method: 'POST',
      url: '/api/contacts',
      headers: { ...other.headers, 'content-type': 'application/json' },
      payload: { email: 'hana@listas.com.br', listIds: [listId] },
    });
    const rowsOf = async () =>
      (
        await queryRows<{ n: number; sum: number }>(
          db,
          sql`select count(*)::int as n, coalesce(sum(subscribed), 0)::int as sum from list_count_deltas
               where list_id = ${listId}`,
        )
      )[0];
    expect((await rowsOf())?.sum).toBe(1);
    await db.execute(sql`delete from accounts where id = ${other.accountId}`);
    expect(await rowsOf()).toEqual({ n: 0, sum: 0 });
    // The account that stays still shows what its memberships say.
    await expectShownAsCounted();
  });

  it('a list whose count rows piled up is folded into one row by the next read, and counts the same', async () => {
    const list = await call('POST', '/api/lists', { name: 'Muitas' });
    const contact = await call('POST', '/api/contacts', { email: 'gil@listas.com.br', listIds: [list.id] });
    // Each statement that changes the list appends a row: leave and come back until the rows pile up.
    for (let i = 0; i < LIST_COUNT_FOLD_AT / 2 + 1; i++) {
      await unsubscribeMemberships(db, contact.id, [list.id]);
      await resubscribeMembership(db, contact.id, list.id);
    }
    const rows = async () =>
      (
        await queryRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from list_count_deltas where list_id = ${list.id}`,
        )
      )[0]?.n;
    expect(await rows()).toBeGreaterThan(LIST_COUNT_FOLD_AT);
    expect(await expectShownAsCounted()).toContain('Muitas 1 1');
    expect(await rows()).toBe(1);
    expect(await expectShownAsCounted()).toContain('Muitas 1 1');
  });
});

describe.each(DATABASE_KINDS)('the list counts migration on %s', (kind) => {
  it('counts the lists as they were before it', async () => {
    const database = await createDatabaseBeforeMigration(kind, '_list_counts');
    try {
      const db = database.db;
      const accountId = await insertAccountRow(db);
      await db.execute(sql`insert into lists (account_id, name) values (${accountId}, 'A'), (${accountId}, 'B')`);
      await db.execute(
        sql`insert into contacts (account_id, email, status) values
              (${accountId}, 'a@x.com', 'subscribed'), (${accountId}, 'b@x.com', 'bounced'),
              (${accountId}, 'c@x.com', 'subscribed')`,
      );
      await db.execute(
        sql`insert into list_memberships (list_id, contact_id, status)
            select l.id, c.id, case when c.email = 'c@x.com' and l.name = 'A' then 'pending' else 'subscribed' end
              from lists l cross join contacts c where l.account_id = ${accountId}`,
      );
      await database.migrate();
      const shown = await queryRows<{ row: string }>(
        db,
        sql`select l.name || ' ' || sum(d.members) || ' ' || sum(d.subscribed) as row
              from lists l join list_count_deltas d on d.list_id = l.id group by l.name order by l.name`,
      );
      expect(shown.map((r) => r.row)).toEqual(['A 3 1', 'B 3 2']);
      expect(shown.map((r) => r.row)).toEqual(await rawCounts(db, accountId));
    } finally {
      await database.close();
    }
  }, 120_000);
});
