import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForImport } from '../../../test/support/imports';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import { CHUNK_BYTES } from './import-file-store';

/** A CSV of `n` contacts (about 60 bytes a line), with a few invalid rows and repeated addresses. */
function csvOf(n: number, tag: string): string {
  const lines = ['email;nome;cidade'];
  for (let i = 0; i < n; i++) {
    if (i % 1000 === 999) lines.push(`sem-arroba-${i};Inválido;Recife`);
    else if (i % 500 === 499) lines.push(`pessoa-${i - 1}-${tag}@destino.com.br;Repetida;Recife`);
    else lines.push(`pessoa-${i}-${tag}@destino.com.br;Pessoa ${i};São Paulo`);
  }
  return `${lines.join('\n')}\n`;
}

describe.each(DATABASE_KINDS)('import files live in the database, on %s', (kind) => {
  let t: TestApp;
  let owner: SignedInUser;
  beforeAll(async () => {
    t = await createTestApp(kind);
    owner = await signUp(t, { verified: true });
  });
  afterAll(async () => {
    await t.close();
  });

  const upload = async (content: string | Buffer, name = 'contatos.csv') => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: { ...owner.headers, 'content-type': 'text/csv', 'x-file-name': encodeURIComponent(name) },
      payload: content,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { importId: string; suggestedMapping: Record<string, string> };
  };
  const start = async (up: { importId: string; suggestedMapping: Record<string, string> }) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/imports/${up.importId}/start`,
      headers: owner.headers,
      payload: {
        mapping: up.suggestedMapping,
        legalBasis: 'consent',
        consentSource: 'planilha',
        updateExisting: false,
      },
    });
    expect(res.statusCode, res.body).toBe(202);
    return waitForImport(t, owner, up.importId);
  };
  const chunks = (importId: string, fileKind: 'upload' | 'rejected') =>
    queryRows<{ seq: number; bytes: number; ends_with_newline: boolean }>(
      t.database.db,
      sql`select seq, length(data)::int as bytes, get_byte(data, length(data) - 1) = 10 as ends_with_newline
            from contact_import_files where import_id = ${importId} and kind = ${fileKind} order by seq`,
    );

  it('keeps the upload in line-aligned chunks (nothing on the disk), imports it, then deletes it', async () => {
    const content = csvOf(40_000, 'grande');
    expect(Buffer.byteLength(content)).toBeGreaterThan(2 * CHUNK_BYTES);
    const up = await upload(content);
    const stored = await chunks(up.importId, 'upload');
    expect(stored.length).toBeGreaterThanOrEqual(3);
    expect(stored.every((chunk) => chunk.ends_with_newline && chunk.bytes <= CHUNK_BYTES)).toBe(true);
    expect(stored.reduce((sum, chunk) => sum + chunk.bytes, 0)).toBe(Buffer.byteLength(content));
    expect(fs.existsSync(path.join(t.config.DATA_DIR, 'imports'))).toBe(false);

    const done = await start(up);
    // 40 invalid rows (i % 1000 = 999) and 40 repeated addresses (i % 1000 = 499).
    expect(done).toMatchObject({ status: 'done', processedRows: 40_000, skippedInvalid: 40, skippedDuplicate: 40 });
    expect(done.inserted).toBe(40_000 - 40 - 40);
    expect(await chunks(up.importId, 'upload')).toEqual([]);
    const report = await t.app.inject({ url: `/api/imports/${up.importId}/rejected.csv`, headers: owner.headers });
    expect(report.statusCode).toBe(200);
    expect(report.body.split('\r\n').filter(Boolean)).toHaveLength(1 + 80);
    expect(report.body).toContain('sem-arroba-999;Inválido;Recife;E-mail inválido');
  });

  it('fails with a pt-BR reason when the file is gone or incomplete — and the next import works', async () => {
    const gone = await upload(csvOf(10, 'sumiu'));
    await t.database.db.execute(sql`delete from contact_import_files where import_id = ${gone.importId}`);
    expect(await start(gone)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^O arquivo desta importação não está mais disponível/),
    });
    const cut = await upload(csvOf(40_000, 'cortado'));
    await t.database.db.execute(
      sql`delete from contact_import_files where import_id = ${cut.importId}
            and seq = (select max(seq) from contact_import_files where import_id = ${cut.importId})`,
    );
    expect(await start(cut)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^O arquivo desta importação está incompleto/),
    });
    expect(await chunks(cut.importId, 'upload')).toEqual([]);
    expect((await start(await upload(csvOf(10, 'depois')))).status).toBe('done');
  });

  it('a malformed x-file-name is a pt-BR 400, not a 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: { ...owner.headers, 'content-type': 'text/csv', 'x-file-name': '%E0%A4%A' },
      payload: 'email\na@b.com\n',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/^O nome do arquivo \(cabeçalho x-file-name\) está mal codificado/);
  });

  it('erasing a person deletes the stored files that mention them (upload waiting, rejected-rows report)', async () => {
    // A finished import whose report holds the address (a repeated row), and an upload nobody started yet.
    const email = 'titular.lgpd@destino.com.br';
    const finished = await start(
      await upload(`email;nome\n${email};Titular\nTITULAR.LGPD@destino.com.br;De novo\noutra@destino.com.br;Outra\n`),
    );
    expect(finished).toMatchObject({ status: 'done', skippedDuplicate: 1 });
    const waiting = await upload(`email;nome\nnovo@destino.com.br;Novo\nTitular.Lgpd@Destino.com.br;Titular\n`);
    const unrelated = await upload('email;nome\nninguem@destino.com.br;Ninguém\n');
    const contact = (
      await t.app.inject({ url: `/api/contacts?search=${encodeURIComponent(email)}`, headers: owner.headers })
    ).json().items[0];
    const erased = await t.app.inject({
      method: 'POST',
      url: `/api/contacts/${contact.id}/erase`,
      headers: owner.headers,
      payload: {},
    });
    expect(erased.statusCode, erased.body).toBeLessThan(300);
    expect(await chunks(finished.id, 'rejected')).toEqual([]);
    expect(await chunks(waiting.importId, 'upload')).toEqual([]);
    expect((await chunks(unrelated.importId, 'upload')).length).toBe(1);
  });
});
