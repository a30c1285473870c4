import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount } from '../../../test/support/test-account';
import { createTestDatabase, DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import { accountContactCountSql } from '../contacts/contact-counts';
import { eraseContact } from '../contacts/erase-contact';
import { findContacts } from '../contacts/find-contacts';
import { createList } from '../lists/create-list';
import { findLists } from '../lists/find-lists';
import { sendTransactional } from '../transactional/send-transactional';
import { deleteImportFilesMentioning } from './import-file-store';
import { findImport, findRejectedFile, startImport, uploadImport } from './import-files';
import { runImport } from './run-import';

const TEST_LINKS = {
  publicUrl: 'https://app.carteiro.test',
  secret: 'test-secret-test-secret-test-secret-0123',
  sendConfirmations: sendTransactional,
};

async function readAll(chunks: AsyncIterable<Buffer>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts).toString('utf8');
}

describe.each(DATABASE_KINDS)('CSV import on %s', (kind) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  const storedChunks = async () =>
    Number(
      (await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from contact_import_files`))[0]?.n,
    );

  /** The account's contacts as its contact count's delta rows say (what a segment count outside a set reads). */
  const accountContacts = async (accountId: string) =>
    Number(
      (
        await queryRows<{ contacts: number | string }>(
          database.db,
          sql`select t.contacts from ${accountContactCountSql(accountId)} t`,
        )
      )[0]?.contacts,
    );
  const upload = (accountId: string, content: string | Buffer) =>
    uploadImport(database.db, accountId, Readable.from([Buffer.from(content)]), 'contatos.csv');

  async function importFile(
    accountId: string,
    content: string | Buffer,
    options: Record<string, unknown> = {},
    batchSize?: number,
  ) {
    const up = await upload(accountId, content);
    await startImport(database.db, accountId, up.importId, {
      mapping: up.suggestedMapping,
      legalBasis: 'consent',
      consentSource: 'planilha da loja',
      updateExisting: false,
      ...options,
    });
    await runImport(database.db, up.importId, TEST_LINKS, undefined, { batchSize });
    return { up, progress: await findImport(database.db, accountId, up.importId) };
  }

  it('imports a Windows-1252 `;` file with accents (pt-BR Excel)', async () => {
    const account = await createTestAccount(database.db);
    const text =
      'Nome;E-mail;Cidade\r\nJoão da Silva;joao@exemplo.com.br;São Paulo\r\nMaria Conceição;MARIA@Exemplo.com;Maceió\r\n';
    const win1252 = Buffer.from([...text].map((ch) => ({ ã: 0xe3, ç: 0xe7, ó: 0xf3 })[ch as 'ã'] ?? ch.charCodeAt(0)));
    const { up, progress } = await importFile(account.id, win1252);
    expect(up.encoding).toBe('windows-1252');
    expect(up.delimiter).toBe(';');
    expect(up.columns).toEqual(['Nome', 'E-mail', 'Cidade']);
    expect(up.preview[0]).toEqual(['João da Silva', 'joao@exemplo.com.br', 'São Paulo']);
    expect(progress).toMatchObject({ status: 'done', percent: 100, inserted: 2, processedRows: 2, totalRows: 2 });
    const page = await findContacts(database.db, account.id, { search: 'maria' });
    expect(page.items[0]).toMatchObject({
      email: 'maria@exemplo.com',
      name: 'Maria Conceição',
      fields: { cidade: 'Maceió' },
    });
    expect(page.items[0]?.consent).toMatchObject({ legalBasis: 'consent', source: 'planilha da loja' });
  });

  it('imports a UTF-8 file with BOM, `,` delimiter, quoted newlines and ragged rows', async () => {
    const account = await createTestAccount(database.db);
    const csv = '\uFEFFemail,name,obs\n"a@x.com","Ana","linha 1\nlinha 2"\nb@x.com\nc@x.com,Caio,ok,extra,mais\n';
    const { up, progress } = await importFile(account.id, csv);
    expect(up).toMatchObject({ encoding: 'utf-8', hasBom: true, delimiter: ',', columns: ['email', 'name', 'obs'] });
    expect(up.totalRows).toBe(3);
    expect(progress).toMatchObject({ status: 'done', inserted: 3, skippedInvalid: 0 });
    const { items } = await findContacts(database.db, account.id, { search: 'a@' });
    expect(items[0]).toMatchObject({ email: 'a@x.com', fields: { obs: 'linha 1\nlinha 2' } });
  });

  it('stores custom fields per row, leaving out empty cells; two columns on one field: the last non-empty', async () => {
    const account = await createTestAccount(database.db);
    const csv =
      'email;cidade;uf;telefone;celular\n' +
      'a@x.com;Recife;PE;;81 9999\n' +
      'b@x.com; ;"S\\P ""x""";11 1111;\n' +
      'c@x.com;;;;\n';
    const { progress } = await importFile(account.id, csv, {
      mapping: {
        email: 'email',
        cidade: 'field:cidade',
        uf: 'field:uf',
        telefone: 'field:fone',
        celular: 'field:fone',
      },
    });
    expect(progress).toMatchObject({ status: 'done', inserted: 3 });
    const byEmail = new Map((await findContacts(database.db, account.id)).items.map((c) => [c.email, c.fields]));
    expect(byEmail.get('a@x.com')).toEqual({ cidade: 'Recife', uf: 'PE', fone: '81 9999' });
    expect(byEmail.get('b@x.com')).toEqual({ uf: 'S\\P "x"', fone: '11 1111' });
    expect(byEmail.get('c@x.com')).toEqual({});
  });

  it('checks typed columns: dates stored as AAAA-MM-DD, numbers as 1234.56; a bad cell refuses its row with the reason', async () => {
    const account = await createTestAccount(database.db);
    const csv =
      'email;nome;Aniversário;Total gasto;obs\n' +
      'ana@x.com;Ana;15/03/1985;1.234,56;31/02/2000\n' +
      'bia@x.com;Bia;31/02/2000;10;\n' +
      'caio@x.com;Caio;5/3/1990;1.000;\n' +
      'duda@x.com;Duda;1992-02-29;-3,50;\n' +
      'edu@x.com;Edu;março;2;\n' +
      'fabi@x.com;Fabi;;dez reais;\n' +
      'bia@x.com;Bia de novo;01/01/2001;;\n';
    const up = await upload(account.id, csv);
    // Columns written as dates are suggested as date columns; numbers are never guessed.
    expect(up.suggestedTypes).toEqual({ Aniversário: 'date' });
    await startImport(database.db, account.id, up.importId, {
      mapping: up.suggestedMapping,
      fieldTypes: { Aniversário: 'date', 'Total gasto': 'number', obs: 'text' },
      legalBasis: 'consent',
      consentSource: 'planilha da loja',
      updateExisting: false,
    });
    await runImport(database.db, up.importId, TEST_LINKS);
    const progress = await findImport(database.db, account.id, up.importId);
    expect(progress).toMatchObject({ status: 'done', inserted: 4, skippedInvalid: 3, rejectedCount: 3 });
    const byEmail = new Map((await findContacts(database.db, account.id)).items.map((c) => [c.email, c.fields]));
    // A text column keeps what was written, even a date that does not exist.
    expect(byEmail.get('ana@x.com')).toEqual({ aniversário: '1985-03-15', total_gasto: '1234.56', obs: '31/02/2000' });
    expect(byEmail.get('caio@x.com')).toEqual({ aniversário: '1990-03-05', total_gasto: '1000' });
    expect(byEmail.get('duda@x.com')).toEqual({ aniversário: '1992-02-29', total_gasto: '-3.5' });
    // The first Bia was refused for her date, so the later row of the same address is not a duplicate.
    expect(byEmail.get('bia@x.com')).toEqual({ aniversário: '2001-01-01' });
    expect(byEmail.has('edu@x.com')).toBe(false);
    const report = await readAll(await findRejectedFile(database.db, account.id, up.importId));
    expect(report).toContain('bia@x.com;Bia;31/02/2000;10;;Data que não existe (coluna Aniversário): 31/02/2000\r\n');
    expect(report).toContain('edu@x.com;Edu;março;2;;Data inválida (coluna Aniversário): março — use dd/mm/aaaa\r\n');
    expect(report).toContain(
      'fabi@x.com;Fabi;;dez reais;;Número inválido (coluna Total gasto): dez reais — use 1.234,56',
    );
  });

  it('refuses a type on a column that is not a custom field', async () => {
    const account = await createTestAccount(database.db);
    const up = await upload(account.id, 'email;nome\na@x.com;Ana\n');
    await expect(
      startImport(database.db, account.id, up.importId, {
        mapping: up.suggestedMapping,
        fieldTypes: { nome: 'date' },
        legalBasis: 'consent',
        consentSource: 'planilha',
        updateExisting: false,
      }),
    ).rejects.toThrow('A coluna "nome" tem um tipo, mas não vai para um campo personalizado');
  });

  it('detects tab delimiters', async () => {
    const account = await createTestAccount(database.db);
    const { up, progress } = await importFile(account.id, 'email\tnome\nt@x.com\tTereza\n');
    expect(up.delimiter).toBe('\t');
    expect(progress.inserted).toBe(1);
  });

  it('refuses an empty file, a binary file and a file with no e-mail column, writing nothing', async () => {
    const chunksBefore = await storedChunks();
    const account = await createTestAccount(database.db);
    await expect(upload(account.id, '')).rejects.toThrow('O arquivo está vazio');
    // A real PNG header (signature + IHDR chunk) followed by pixels: not a CSV, whatever its name.
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]),
      Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89]),
    ]);
    await expect(upload(account.id, png)).rejects.toThrow('não é um arquivo CSV/texto');
    const xlsx = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('[Content_Types].xml')]);
    await expect(upload(account.id, xlsx)).rejects.toThrow('planilha do Excel');
    await expect(upload(account.id, 'nome;cidade\nJoão;Recife\n')).rejects.toThrow(
      'Não encontramos uma coluna de e-mail',
    );
    const [row] = await queryRows<{ n: number }>(
      database.db,
      sql`select (select count(*) from contact_imports where account_id = ${account.id})::int +
                 (select count(*) from contacts where account_id = ${account.id})::int as n`,
    );
    expect(row?.n).toBe(0);
    // Nothing of the refused files is kept either (their chunks were stored while they were read).
    expect(await storedChunks()).toBe(chunksBefore);
  });

  it('skips invalid, duplicate and suppressed rows, counts them and reports them with pt-BR reasons', async () => {
    const account = await createTestAccount(database.db);
    await importFile(account.id, 'email\napagado@x.com\n');
    const [erased] = (await findContacts(database.db, account.id)).items;
    await eraseContact(database.db, account.id, erased?.id as string, deleteImportFilesMentioning);
    const { up, progress } = await importFile(
      account.id,
      'email;nome\nok@x.com;Ok\nnao-e-email;Ruim\nOK@x.com;Repetido\napagado@x.com;Voltou\n;Vazio\n',
    );
    expect(progress).toMatchObject({
      status: 'done',
      percent: 100,
      processedRows: 5,
      inserted: 1,
      skippedInvalid: 2,
      skippedDuplicate: 1,
      skippedSuppressed: 1,
      rejectedCount: 4,
    });
    const report = await readAll(await findRejectedFile(database.db, account.id, up.importId));
    expect(report.startsWith('\uFEFFemail;nome;Motivo da recusa\r\n')).toBe(true);
    expect(report).toContain('nao-e-email;Ruim;E-mail inválido: falta o @');
    expect(report).toContain('OK@x.com;Repetido;E-mail repetido no arquivo');
    expect(report).toContain('apagado@x.com;Voltou;Endereço na lista de supressão');
    expect(report).toContain(';Vazio;E-mail vazio');
    const emails = (await findContacts(database.db, account.id)).items.map((c) => c.email);
    expect(emails).toEqual(['ok@x.com']);
  });

  it('keeps existing contacts by default and updates them when asked; adds to the list', async () => {
    const account = await createTestAccount(database.db);
    const list = await createList(database.db, account.id, { name: 'Clientes' });
    await importFile(account.id, 'email,nome\nz@x.com,Zé\n');
    const keep = await importFile(account.id, 'email,nome\nz@x.com,José\nn@x.com,Novo\n', { listId: list.id });
    expect(keep.progress).toMatchObject({ inserted: 1, updated: 0, unchanged: 1 });
    expect((await findContacts(database.db, account.id, { search: 'z@' })).items[0]?.name).toBe('Zé');
    const upd = await importFile(account.id, 'email,nome\nz@x.com,José\n', { updateExisting: true, listId: list.id });
    expect(upd.progress).toMatchObject({ inserted: 0, updated: 1 });
    expect((await findContacts(database.db, account.id, { search: 'z@' })).items[0]?.name).toBe('José');
    const [counted] = await findLists(database.db, account.id);
    expect(counted).toMatchObject({ contactCount: 2, subscribedCount: 2 });
  });

  it('keeps counts right across small batches (list, duplicates, suppressed, existing)', async () => {
    const account = await createTestAccount(database.db);
    const list = await createList(database.db, account.id, { name: 'Lotes' });
    await importFile(account.id, 'email\nvelho@x.com\nsumido@x.com\n');
    const sumido = (await findContacts(database.db, account.id, { search: 'sumido' })).items[0];
    await eraseContact(database.db, account.id, sumido?.id as string, deleteImportFilesMentioning);
    const { progress } = await importFile(
      account.id,
      'email;nome\na@x.com;"Aspas ""duplas"" \\ barra"\nb@x.com;B\nvelho@x.com;V\nA@x.com;Rep\nsumido@x.com;S\nc@x.com;\n',
      { listId: list.id },
      2,
    );
    expect(progress).toMatchObject({
      status: 'done',
      processedRows: 6,
      inserted: 3,
      unchanged: 1,
      skippedDuplicate: 1,
      skippedSuppressed: 1,
      rejectedCount: 2,
    });
    const [counted] = await findLists(database.db, account.id);
    expect(counted).toMatchObject({ contactCount: 4 });
    // The account's contact count (kept by contacts' triggers) saw the erasure and the small batches.
    expect(await accountContacts(account.id)).toBe(4);
    const a = (await findContacts(database.db, account.id, { search: 'a@' })).items[0];
    expect(a?.name).toBe('Aspas "duplas" \\ barra');
  });

  it('finishes two imports of the same addresses running at once (a batch that loses the race is rewritten)', async () => {
    const account = await createTestAccount(database.db);
    const list = await createList(database.db, account.id, { name: 'Corrida' });
    const lines = ['email;nome'];
    for (let i = 0; i < 3000; i++) lines.push(`corrida${i}@exemplo.com.br;Pessoa ${i}`);
    const csv = `${lines.join('\n')}\n`;
    const ups = [await upload(account.id, csv), await upload(account.id, csv)];
    for (const up of ups) {
      await startImport(database.db, account.id, up.importId, {
        mapping: up.suggestedMapping,
        legalBasis: 'consent',
        consentSource: 'planilha',
        updateExisting: false,
        listId: list.id,
      });
    }
    await Promise.all(ups.map((up) => runImport(database.db, up.importId, TEST_LINKS, undefined, { batchSize: 500 })));
    const progress = await Promise.all(ups.map((up) => findImport(database.db, account.id, up.importId)));
    for (const p of progress) expect(p).toMatchObject({ status: 'done', percent: 100, processedRows: 3000 });
    expect(progress.map((p) => p.inserted + p.unchanged)).toEqual([3000, 3000]);
    expect((progress[0]?.inserted ?? 0) + (progress[1]?.inserted ?? 0)).toBe(3000);
    const [counted] = await queryRows<{ contacts: number; members: number }>(
      database.db,
      sql`select (select count(*) from contacts where account_id = ${account.id})::int as contacts,
                 (select count(*) from list_memberships where list_id = ${list.id})::int as members`,
    );
    expect(counted).toEqual({ contacts: 3000, members: 3000 });
    // A batch rewritten after losing the race counts its contacts once.
    expect(await accountContacts(account.id)).toBe(3000);
  });

  it('imports several batches with progress reaching 100%, then analyses the grown table', async () => {
    const account = await createTestAccount(database.db);
    const lines = ['email;nome'];
    for (let i = 0; i < 5500; i++) lines.push(`pessoa${i}@exemplo.com.br;Pessoa ${i}`);
    const { progress } = await importFile(account.id, `${lines.join('\n')}\n`, {}, 1000);
    // Statistics refreshed before "done" (pages at 1M contacts took seconds with the statistics of before).
    const [stats] = await queryRows<{ reltuples: number; rows: number }>(
      database.db,
      sql`select (select reltuples from pg_class where oid = 'contacts'::regclass)::float8 as reltuples,
                 (select count(*) from contacts)::int as rows`,
    );
    expect(Number(stats?.reltuples)).toBe(stats?.rows);
    expect(progress).toMatchObject({
      status: 'done',
      percent: 100,
      totalRows: 5500,
      processedRows: 5500,
      inserted: 5500,
    });
    let cursor: string | undefined;
    let seen = 0;
    do {
      const page = await findContacts(database.db, account.id, { cursor, limit: 200 });
      seen += page.items.length;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toBe(5500);
  });
});
