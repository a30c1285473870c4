import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createApiKeyFor } from '../../../test/support/api-key';
import { waitForImport } from '../../../test/support/imports';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import { csvCell } from './export-contacts';

describe('csvCell', () => {
  it('escapes formula injection and quotes', () => {
    expect(csvCell('=cmd()', ',')).toBe("'=cmd()");
    expect(csvCell('+55 11', ';')).toBe("'+55 11");
    expect(csvCell('-1', ',')).toBe("'-1");
    expect(csvCell('@SUM(A1)', ',')).toBe("'@SUM(A1)");
    expect(csvCell('\tx', ',')).toBe("'\tx");
    expect(csvCell('a;b', ';')).toBe('"a;b"');
    expect(csvCell('diz "oi"', ',')).toBe('"diz ""oi"""');
    expect(csvCell('normal', ',')).toBe('normal');
  });
});

describe.each(DATABASE_KINDS)('contacts, lists and imports API on %s', (kind) => {
  let t: TestApp;
  let a: SignedInUser;
  let b: SignedInUser;
  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await signUp(t, { verified: true });
    b = await signUp(t, { verified: true });
  });
  afterAll(async () => {
    await t.close();
  });

  const json = (user: SignedInUser) => ({ ...user.headers, 'content-type': 'application/json' });

  it('requires a session', async () => {
    expect((await t.app.inject({ url: '/api/contacts' })).statusCode).toBe(401);
  });

  it('creates, lists, updates and bulk-handles contacts; isolates accounts (404)', async () => {
    const list = (
      await t.app.inject({ method: 'POST', url: '/api/lists', headers: json(a), payload: { name: 'Clientes VIP' } })
    ).json();
    expect(list).toMatchObject({ name: 'Clientes VIP', optIn: 'single', contactCount: 0 });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/contacts',
      headers: json(a),
      payload: { email: ' Ana@Exemplo.COM ', name: 'Ana', fields: { cidade: 'Recife' }, listIds: [list.id] },
    });
    expect(created.statusCode).toBe(201);
    const contact = created.json();
    expect(contact.email).toBe('ana@exemplo.com');
    const dup = await t.app.inject({
      method: 'POST',
      url: '/api/contacts',
      headers: json(a),
      payload: { email: 'ana@exemplo.com' },
    });
    expect(dup.statusCode).toBe(409);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/contacts',
      headers: json(a),
      payload: { email: 'nada' },
    });
    expect(bad.statusCode).toBe(400);
    // With the reason, as the import's report gives it.
    expect(bad.json().error.message).toContain('E-mail inválido: falta o @.');

    const page = (await t.app.inject({ url: `/api/contacts?listId=${list.id}`, headers: a.headers })).json();
    expect(page.items.map((c: { email: string }) => c.email)).toEqual(['ana@exemplo.com']);

    // Account B sees nothing of A's and cannot change it.
    expect((await t.app.inject({ url: `/api/contacts/${contact.id}`, headers: b.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/lists/${list.id}`, headers: b.headers })).statusCode).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'PATCH',
          url: `/api/contacts/${contact.id}`,
          headers: json(b),
          payload: { name: 'X' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/lists/${list.id}`, headers: b.headers })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/contacts/${contact.id}/erase`, headers: b.headers })).statusCode,
    ).toBe(404);
    const bBulk = await t.app.inject({
      method: 'POST',
      url: '/api/contacts/bulk',
      headers: json(b),
      payload: { action: 'delete', ids: [contact.id] },
    });
    expect(bBulk.json().affected).toBe(0);
    expect((await t.app.inject({ url: '/api/contacts', headers: b.headers })).json().items).toEqual([]);
    expect((await t.app.inject({ url: '/api/lists', headers: b.headers })).json().items).toEqual([]);

    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/contacts/${contact.id}`,
      headers: json(a),
      payload: { name: 'Ana Paula' },
    });
    expect(patched.json().name).toBe('Ana Paula');
    const unsub = await t.app.inject({
      method: 'POST',
      url: '/api/contacts/bulk',
      headers: json(a),
      payload: { action: 'unsubscribe', ids: [contact.id] },
    });
    expect(unsub.json().affected).toBe(1);
    const detail = (await t.app.inject({ url: `/api/contacts/${contact.id}`, headers: a.headers })).json();
    expect(detail).toMatchObject({ status: 'unsubscribed', lists: [{ listId: list.id, status: 'unsubscribed' }] });
  });

  it('keeps contact_field_values (typed number/date fields, ADR 0039) and the field keys right after every write path', async () => {
    const user = await signUp(t, { verified: true });
    const db = t.database.db;
    /** The account's typed rows, as "email field num day". */
    const stored = async () =>
      (
        await queryRows<{ row: string }>(
          db,
          sql`select c.email || ' ' || v.field || ' ' || coalesce(v.num::text, '-') || ' ' || coalesce(v.day, '-') as row
                from contact_field_values v join contacts c on c.id = v.contact_id
               where v.account_id = ${user.accountId} order by 1`,
        )
      ).map((r) => r.row);
    /** What a fresh typing of every contact's fields gives (the migration's backfill): the triggers must agree. */
    const expectFresh = async () => {
      const fresh = (
        await queryRows<{ row: string }>(
          db,
          sql`select c.email || ' ' || e.key || ' ' || coalesce(contact_field_number(e.value)::text, '-') || ' '
                     || coalesce(contact_field_day(e.value), '-') as row
                from contacts c cross join lateral jsonb_each_text(c.fields) e
               where c.account_id = ${user.accountId}
                 and (contact_field_number(e.value) is not null or contact_field_day(e.value) is not null)
               order by 1`,
        )
      ).map((r) => r.row);
      const rows = await stored();
      expect(rows).toEqual(fresh);
      // …and the account's field keys with how many contacts carry each (contact_field_keys, migration 0057).
      const keyCounts = async (query: SQL) => (await queryRows<{ row: string }>(db, query)).map((r) => r.row);
      const keysFresh = await keyCounts(
        sql`select e.key || ' ' || count(*) as row from contacts c cross join lateral jsonb_object_keys(c.fields) e(key)
             where c.account_id = ${user.accountId} group by e.key order by 1`,
      );
      expect(
        await keyCounts(
          sql`select key || ' ' || contacts as row from contact_field_keys
               where account_id = ${user.accountId} and contacts <> 0 order by 1`,
        ),
      ).toEqual(keysFresh);
      const fields = await t.app.inject({ url: '/api/segments/fields', headers: user.headers });
      expect(fields.json().customFields).toEqual(keysFresh.map((k) => k.split(' ')[0]).sort());
      return rows;
    };
    // Web form: a number, a date in each spelling, text that is neither.
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/contacts',
      headers: json(user),
      payload: { email: 'ana@campos.com', fields: { pontos: ' 10,5 ', nascimento: '15/02/1985', cidade: 'Recife' } },
    });
    expect(created.statusCode).toBe(201);
    const ana = created.json();
    expect(await expectFresh()).toEqual(['ana@campos.com nascimento - 1985-02-15', 'ana@campos.com pontos 10.5 -']);
    // Web edit: the number becomes text (its row goes), the date changes, a new number field appears.
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/contacts/${ana.id}`,
      headers: json(user),
      payload: { fields: { pontos: 'dez', nascimento: '1990-01-31T10:00:00Z', saldo: '-3', cidade: 'Recife' } },
    });
    expect(patched.statusCode).toBe(200);
    expect(await expectFresh()).toEqual(['ana@campos.com nascimento - 1990-01-31', 'ana@campos.com saldo -3 -']);
    // An edit that leaves the fields as they are (name only) keeps the rows.
    await t.app.inject({
      method: 'PATCH',
      url: `/api/contacts/${ana.id}`,
      headers: json(user),
      payload: { name: 'Ana' },
    });
    expect(await expectFresh()).toHaveLength(2);
    // Public API upsert: merges into the existing contact, creates another.
    const secret = await createApiKeyFor(t, user);
    const merged = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/contacts',
      headers: { ...bearer(secret), 'content-type': 'application/json' },
      payload: { email: 'ana@campos.com', fields: { pontos: '42' }, legalBasis: 'consent' },
    });
    expect(merged.statusCode).toBe(200);
    const bia = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/contacts',
      headers: { ...bearer(secret), 'content-type': 'application/json' },
      payload: { email: 'bia@campos.com', fields: { pontos: '7' }, legalBasis: 'consent' },
    });
    expect(bia.statusCode).toBe(201);
    expect(await expectFresh()).toEqual([
      'ana@campos.com nascimento - 1990-01-31',
      'ana@campos.com pontos 42 -',
      'ana@campos.com saldo -3 -',
      'bia@campos.com pontos 7 -',
    ]);
    // CSV import: new contacts (the batch statement's plain insert), then updating existing ones.
    const importCsv = async (csv: string, updateExisting: boolean) => {
      const up = (
        await t.app.inject({
          method: 'POST',
          url: '/api/imports',
          headers: { ...user.headers, 'content-type': 'text/csv' },
          payload: csv,
        })
      ).json();
      const mapping = { email: 'email', pontos: 'field:pontos', nascimento: 'field:nascimento' };
      const start = await t.app.inject({
        method: 'POST',
        url: `/api/imports/${up.importId}/start`,
        headers: json(user),
        payload: { mapping, legalBasis: 'consent', consentSource: 'planilha', updateExisting },
      });
      expect(start.statusCode).toBe(202);
      expect(await waitForImport(t, user, up.importId)).toMatchObject({ status: 'done' });
    };
    await importCsv('email;pontos;nascimento\ncaio@campos.com;1.000;03/11/1979\ndavi@campos.com;;2000-02-29\n', false);
    await importCsv('email;pontos;nascimento\nbia@campos.com;8;\ncaio@campos.com;abc;1979-11-30\n', true);
    expect(await expectFresh()).toEqual([
      'ana@campos.com nascimento - 1990-01-31',
      'ana@campos.com pontos 42 -',
      'ana@campos.com saldo -3 -',
      'bia@campos.com pontos 8 -',
      'caio@campos.com nascimento - 1979-11-30',
      'davi@campos.com nascimento - 2000-02-29',
    ]);
    // Erasure and bulk deletion take the rows with the contact.
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/contacts/${ana.id}/erase`, headers: user.headers })).statusCode,
    ).toBe(200);
    const caio = (await t.app.inject({ url: '/api/contacts?search=caio', headers: user.headers })).json().items[0];
    const bulk = await t.app.inject({
      method: 'POST',
      url: '/api/contacts/bulk',
      headers: json(user),
      payload: { action: 'delete', ids: [caio.id] },
    });
    expect(bulk.json().affected).toBe(1);
    expect(await expectFresh()).toEqual(['bia@campos.com pontos 8 -', 'davi@campos.com nascimento - 2000-02-29']);
    // A deleted account's contacts go by cascade: its keys go with them, the other accounts' stay.
    const other = await signUp(t, { verified: true });
    await t.app.inject({
      method: 'POST',
      url: '/api/contacts',
      headers: json(other),
      payload: { email: 'eva@campos.com', fields: { cidade: 'Natal' } },
    });
    const keysOf = async (accountId: string) =>
      (
        await queryRows<{ key: string; contacts: number }>(
          db,
          sql`select key, contacts from contact_field_keys where account_id = ${accountId} order by key`,
        )
      ).map((r) => `${r.key} ${r.contacts}`);
    expect(await keysOf(other.accountId)).toEqual(['cidade 1']);
    await db.execute(sql`delete from accounts where id = ${other.accountId}`);
    expect(await keysOf(other.accountId)).toEqual([]);
    expect(await keysOf(user.accountId)).not.toEqual([]);
  });

  it('exports CSV with BOM, `;` and formula-injection escaping', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/contacts',
      headers: json(a),
      payload: { email: 'formula@x.com', name: '=HYPERLINK("http://mal")' },
    });
    const res = await t.app.inject({ url: '/api/contacts/export.csv?delimiter=;', headers: a.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.body.startsWith('\uFEFFE-mail;Nome;')).toBe(true);
    expect(res.body).toContain(`formula@x.com;"'=HYPERLINK(""http://mal"")";`);
  });

  it('exports a date a typed import stored (AAAA-MM-DD) as dd/mm/aaaa, which imports back as the same date', async () => {
    const d = await signUp(t, { verified: true });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/contacts',
      headers: json(d),
      payload: { email: 'dani@padaria.com.br', fields: { aniversario: '1985-07-04', cep: '01310-100' } },
    });
    expect(created.statusCode).toBe(201);
    const res = await t.app.inject({ url: '/api/contacts/export.csv', headers: d.headers });
    const [header, row] = res.body.split('\r\n');
    expect(header).toContain('Aniversario;Cep;');
    expect(row).toMatch(/^dani@padaria\.com\.br;;04\/07\/1985;01310-100;/);
    // One column per key some contact of this account still carries: another account's keys (cidade, pontos…)
    // never, and a key edited away from its last contact no longer.
    expect(header).not.toMatch(/Cidade|Pontos/);
    const edited = await t.app.inject({
      method: 'PATCH',
      url: `/api/contacts/${created.json().id}`,
      headers: json(d),
      payload: { fields: { aniversario: '1985-07-04' } },
    });
    expect(edited.statusCode).toBe(200);
    const after = await t.app.inject({ url: '/api/contacts/export.csv', headers: d.headers });
    const [headerAfter] = after.body.split('\r\n');
    expect(headerAfter).toContain('Aniversario;');
    expect(headerAfter).not.toContain('Cep');
  });

  it('exports the CSV a person reads in Excel pt-BR, and importing it back changes nothing', async () => {
    const c = await signUp(t, { verified: true });
    const patchedZone = await t.app.inject({
      method: 'PATCH',
      url: '/api/account',
      headers: json(c),
      payload: { timeZone: 'America/Manaus' },
    });
    expect(patchedZone.statusCode).toBe(200);
    const create = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/api/contacts', headers: json(c), payload });
    const ana = (
      await create({
        email: 'ana@padaria.com.br',
        name: 'Ana Souza',
        fields: { cidade: 'Recife', data_nascimento: '12/03/1990' },
        legalBasis: 'consent',
        consentSource: 'balcão da loja',
      })
    ).json();
    await create({ email: 'bia@padaria.com.br', name: 'Bia; "a" Lima', fields: { cidade: 'Manaus', CPF: '123' } });
    const caio = (await create({ email: 'caio@padaria.com.br', legalBasis: 'legitimate_interest' })).json();
    await t.app.inject({
      method: 'POST',
      url: '/api/contacts/bulk',
      headers: json(c),
      payload: { action: 'unsubscribe', ids: [caio.id] },
    });
    const snapshot = async () =>
      (await t.app.inject({ url: '/api/contacts?limit=200', headers: c.headers }))
        .json()
        .items.map((x: Record<string, unknown>) => ({ ...x, updatedAt: undefined }));
    const before = await snapshot();

    const res = await t.app.inject({ url: '/api/contacts/export.csv', headers: c.headers });
    expect(res.statusCode).toBe(200);
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe(
      '\uFEFFE-mail;Nome;CPF;Cidade;Data nascimento;Situação;Base legal (LGPD);Origem do consentimento;Cadastrado em',
    );
    const created = new Date(ana.createdAt);
    // America/Manaus is UTC-4 all year.
    const local = new Date(created.getTime() - 4 * 3600_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    const when = `${pad(local.getUTCDate())}/${pad(local.getUTCMonth() + 1)}/${local.getUTCFullYear()} ${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}`;
    expect(lines).toContain(
      `ana@padaria.com.br;Ana Souza;;Recife;12/03/1990;Inscrito;Consentimento;balcão da loja;${when}`,
    );
    expect(lines.some((l) => l.startsWith('bia@padaria.com.br;"Bia; ""a"" Lima";123;Manaus;;Inscrito;;'))).toBe(true);
    expect(lines.some((l) => l.startsWith('caio@padaria.com.br;;;;;Descadastrado;Legítimo interesse;'))).toBe(true);
    expect(res.body).not.toMatch(/subscribed|consent[;_]|T\d\d:\d\d:\d\d/);
    // `,` still on request.
    const comma = await t.app.inject({ url: '/api/contacts/export.csv?delimiter=comma', headers: c.headers });
    expect(comma.body.startsWith('\uFEFFE-mail,Nome,CPF,Cidade')).toBe(true);

    // Round trip through the real import, with the mapping it suggests.
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: { ...c.headers, 'content-type': 'text/csv', 'x-file-name': 'contatos.csv' },
      payload: Buffer.from(res.rawPayload),
    });
    expect(upload.statusCode).toBe(201);
    const up = upload.json();
    expect(up.suggestedMapping).toEqual({
      'E-mail': 'email',
      Nome: 'name',
      CPF: 'field:cpf',
      Cidade: 'field:cidade',
      'Data nascimento': 'field:data_nascimento',
      Situação: 'ignore',
      'Base legal (LGPD)': 'ignore',
      'Origem do consentimento': 'ignore',
      'Cadastrado em': 'ignore',
    });
    // A key that is not lower-case (CPF, set through the API) is mapped to itself by hand.
    const start = await t.app.inject({
      method: 'POST',
      url: `/api/imports/${up.importId}/start`,
      headers: json(c),
      payload: {
        mapping: { ...up.suggestedMapping, CPF: 'field:CPF' },
        legalBasis: 'consent',
        consentSource: 'planilha',
      },
    });
    expect(start.statusCode).toBe(202);
    const done = await waitForImport(t, c, up.importId);
    expect(done).toMatchObject({ status: 'done', inserted: 0 });
    expect(await snapshot()).toEqual(before);
  });

  it('imports over HTTP with preview, progress to 100%, rejected report; erase blocks re-import', async () => {
    const list = (
      await t.app.inject({ method: 'POST', url: '/api/lists', headers: json(a), payload: { name: 'Importados' } })
    ).json();
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: { ...a.headers, 'content-type': 'text/csv', 'x-file-name': 'clientes.csv' },
      payload: 'email;nome\njoao@x.com;João\nruim;Ruim\n',
    });
    expect(upload.statusCode).toBe(201);
    const up = upload.json();
    expect(up).toMatchObject({ delimiter: ';', encoding: 'utf-8', columns: ['email', 'nome'], totalRows: 2 });
    expect(up.suggestedMapping).toEqual({ email: 'email', nome: 'name' });
    expect((await t.app.inject({ url: `/api/imports/${up.importId}`, headers: b.headers })).statusCode).toBe(404);
    const start = await t.app.inject({
      method: 'POST',
      url: `/api/imports/${up.importId}/start`,
      headers: json(a),
      payload: { mapping: up.suggestedMapping, listId: list.id, legalBasis: 'consent', consentSource: 'loja física' },
    });
    expect(start.statusCode).toBe(202);
    const done = await waitForImport(t, a, up.importId);
    expect(done).toMatchObject({ status: 'done', percent: 100, inserted: 1, skippedInvalid: 1, rejectedCount: 1 });
    const rejected = await t.app.inject({ url: `/api/imports/${up.importId}/rejected.csv`, headers: a.headers });
    expect(rejected.body).toContain('ruim;Ruim;E-mail inválido');

    const joao = (await t.app.inject({ url: '/api/contacts?search=joao', headers: a.headers })).json().items[0];
    const exported = await t.app.inject({ url: `/api/contacts/${joao.id}/export`, headers: a.headers });
    expect(exported.json()).toMatchObject({
      contact: { email: 'joao@x.com', name: 'João', consent: { legalBasis: 'consent', source: 'loja física' } },
      lists: [{ listName: 'Importados', status: 'subscribed' }],
    });
    const erase = await t.app.inject({ method: 'POST', url: `/api/contacts/${joao.id}/erase`, headers: a.headers });
    expect(erase.statusCode).toBe(200);
    expect((await t.app.inject({ url: `/api/contacts/${joao.id}`, headers: a.headers })).statusCode).toBe(404);

    const again = (
      await t.app.inject({
        method: 'POST',
        url: '/api/imports',
        headers: { ...a.headers, 'content-type': 'text/csv' },
        payload: 'email\nJOAO@x.com\n',
      })
    ).json();
    await t.app.inject({
      method: 'POST',
      url: `/api/imports/${again.importId}/start`,
      headers: json(a),
      payload: { mapping: { email: 'email' }, legalBasis: 'consent', consentSource: 'planilha' },
    });
    expect(await waitForImport(t, a, again.importId)).toMatchObject({ inserted: 0, skippedSuppressed: 1 });
    const manual = await t.app.inject({
      method: 'POST',
      url: '/api/contacts',
      headers: json(a),
      payload: { email: 'joao@x.com' },
    });
    expect(manual.statusCode).toBe(409);
  });

  it('refuses an upload without an e-mail column with a pt-BR error', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: { ...a.headers, 'content-type': 'text/csv' },
      payload: 'nome;cidade\nJoão;Recife\n',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain('Não encontramos uma coluna de e-mail');
  });
});
