import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import type { SignedInUser } from '../../../test/support/sign-in';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import type { SendingEngine } from '../../worker/sending-engine';
import { sweepExpiredMessageFiles } from '../message-files/message-files';
import { messageFiles } from '../message-files/message-files.db';
import { messages } from '../sending/messages.db';
import { dkimResults, drainMessages, lojaSigner } from '../sending/testing/dkim-check';
import { useEngineHarness } from '../sending/testing/engine-harness';
import { messageApi, messageTo } from './testing/message-api';

const QUOTA_MB = 10;
const QUOTA_BYTES = QUOTA_MB * 1024 * 1024;
const catalogue = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(40_000), Buffer.from('\n%%EOF\n')]);

const message = (to: string, extra: Record<string, unknown> = {}) =>
  messageTo(to, { subject: 'Seu catálogo', html: '<p>Segue o catálogo.</p>', ...extra });

/**
 * Files uploaded once (`POST /api/v1/files`) and attached by `fileId` (ADR 0033): account-scoped, deduplicated by
 * their bytes, referred to (not copied) by every message, read by the engine through the one MIME builder.
 */
describe.each(DATABASE_KINDS)('uploaded files attached by fileId on %s', (kind) => {
  const h = useEngineHarness(kind, { API_RATE_LIMIT: '1000', API_FILES_QUOTA_MB: String(QUOTA_MB) });

  const api = messageApi(h);
  const keyWithCredit = (creditMillis: number, mode: 'live' | 'test' = 'live') =>
    api.keyWithCredit(creditMillis, { mode });
  const keyOf = (user: SignedInUser, mode: 'live' | 'test') => api.keyOf(user, { mode });
  const { call } = api;
  const upload = (secret: string, file: object) => call(secret, 'POST', '/api/v1/files', file);

  const drain = (sender: SendingEngine, ids: number[]) => drainMessages(h.db, sender, ids);

  it('uploads once, sends to many: the bytes intact at the relay with DKIM pass, stored once, charged per e-mail', async () => {
    const { user, secret } = await keyWithCredit(1_000);
    const up = await upload(secret, { filename: 'Catálogo 2026.pdf', content: catalogue.toString('base64') });
    expect(up.statusCode, up.body).toBe(201);
    const file = up.json();
    expect(file).toMatchObject({
      filename: 'Catálogo 2026.pdf',
      contentType: 'application/pdf',
      size: catalogue.length,
    });
    expect(new Date(file.expiresAt).getTime() - new Date(file.createdAt).getTime()).toBe(30 * 86_400_000);
    // The same bytes again: the same file, under this upload's name.
    const again = await upload(secret, { filename: 'catalogo.pdf', content: catalogue.toString('base64') });
    expect(again.json()).toMatchObject({ id: file.id, filename: 'catalogo.pdf', sha256: file.sha256 });
    expect((await call(secret, 'GET', `/api/v1/files/${file.id}`)).json()).toMatchObject({
      id: file.id,
      size: file.size,
    });

    const sent = await call(secret, 'POST', '/api/v1/messages/batch', {
      messages: [
        message('ana@destino.com.br', {
          cc: [{ email: 'financeiro@destino.com.br' }],
          attachments: [
            { fileId: file.id },
            { filename: 'pedido.txt', content: Buffer.from('Pedido 9').toString('base64') },
          ],
        }),
        message('bia@destino.com.br', { attachments: [{ fileId: file.id, filename: 'Catálogo da Bia.pdf' }] }),
      ],
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({ costMillis: 15, balanceMillis: 985 });
    // Referred to, not copied: the message's own row has no bytes, only the file's id.
    const stored = await queryRows<{ file_id: string | null; has_content: boolean }>(
      h.db,
      sql`select file_id, content is not null as has_content from transactional_attachments
           where account_id = ${user.accountId} order by message_id, position`,
    );
    expect(stored).toEqual([
      { file_id: file.id, has_content: false },
      { file_id: null, has_content: true },
      { file_id: file.id, has_content: false },
    ]);
    expect(await h.db.select({ id: messageFiles.id }).from(messageFiles)).toHaveLength(1);

    const first = sent.json().messages[0];
    const ids = [first.id, first.copies[0].id, sent.json().messages[1].id].map(Number);
    const before = h.sink.messages.length;
    await drain(h.newSender({ signers: [lojaSigner] }), ids);
    const got = h.sink.messages.slice(before);
    expect(got.map((m) => m.to).sort()).toEqual([
      'ana@destino.com.br',
      'bia@destino.com.br',
      'financeiro@destino.com.br',
    ]);
    for (const sunk of got) {
      const mail = await simpleParser(sunk.raw);
      expect(await dkimResults(sunk.raw)).toEqual(['pass']);
      const pdf = mail.attachments.find((a) => a.contentType === 'application/pdf');
      expect(pdf?.content.equals(catalogue)).toBe(true);
      expect(pdf?.filename).toBe(sunk.to === 'bia@destino.com.br' ? 'Catálogo da Bia.pdf' : 'catalogo.pdf');
      if (sunk.to !== 'bia@destino.com.br') {
        expect(mail.attachments.map((a) => a.filename)).toEqual(['catalogo.pdf', 'pedido.txt']);
      }
    }
    const lookup = await call(secret, 'GET', `/api/v1/messages/${first.id}`);
    expect(lookup.json()).toMatchObject({ status: 'delivered', attachments: 2 });
  });

  it('refuses an unknown, expired or other account’s fileId with a pt-BR 404 naming the attachment; nothing charged', async () => {
    const { user, secret } = await keyWithCredit(1_000);
    const other = await keyWithCredit(1_000);
    const theirs = (await upload(other.secret, { filename: 'deles.pdf', content: 'JVBERi0xLjQK' })).json();
    const mine = (await upload(secret, { filename: 'meu.pdf', content: 'JVBERi0xLjUK' })).json();
    // Theirs is not mine, and neither is anyone's id I make up.
    expect((await call(secret, 'GET', `/api/v1/files/${theirs.id}`)).statusCode).toBe(404);
    expect((await call(secret, 'DELETE', `/api/v1/files/${theirs.id}`)).statusCode).toBe(404);
    for (const fileId of [theirs.id, crypto.randomUUID()]) {
      const single = await call(
        secret,
        'POST',
        '/api/v1/messages',
        message('ana@destino.com.br', { attachments: [{ fileId: mine.id }, { fileId }] }),
      );
      expect(single.statusCode).toBe(404);
      expect(single.json().error.message).toMatch(/^Anexo 2: arquivo não encontrado/);
      expect(single.json().error.details.fields[0].path).toBe('attachments.1.fileId');
      const batch = await call(secret, 'POST', '/api/v1/messages/batch', {
        messages: [message('a@destino.com.br'), message('b@destino.com.br', { attachments: [{ fileId }] })],
      });
      expect(batch.statusCode).toBe(404);
      expect(batch.json().error.message).toMatch(/^Mensagem 2: Anexo 1: arquivo não encontrado/);
      expect(batch.json().error.details.fields[0].path).toBe('messages.1.attachments.0.fileId');
    }
    // Past its retention it is gone for new messages, even before the sweep erases it.
    await h.db
      .update(messageFiles)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(messageFiles.id, mine.id));
    const expired = await call(
      secret,
      'POST',
      '/api/v1/messages',
      message('ana@destino.com.br', { attachments: [{ fileId: mine.id }] }),
    );
    expect(expired.statusCode).toBe(404);
    expect(expired.json().error.message).toContain('expirado');

    const cases: [object, string][] = [
      [{ fileId: mine.id, content: 'AAAA', filename: 'a.pdf' }, 'não os dois'],
      [{ filename: 'a.pdf' }, 'não os dois'],
      [{ content: 'AAAA' }, 'Informe o nome do arquivo'],
      [{ fileId: 'nao-e-um-id' }, 'fileId inválido'],
      [{ fileId: mine.id, filename: 'virus.exe' }, 'Tipo de arquivo não permitido'],
    ];
    for (const [attachment, expected] of cases) {
      const res = await call(
        secret,
        'POST',
        '/api/v1/messages',
        message('ana@destino.com.br', { attachments: [attachment] }),
      );
      expect(res.statusCode, JSON.stringify(attachment)).toBe(400);
      expect(res.json().error.message, JSON.stringify(attachment)).toContain(expected);
    }
    // The upload keeps the attachment rules: blocked types, bad base64, more than 10 MB.
    const uploads: [object, number, string][] = [
      [{ filename: 'virus.exe', content: 'AAAA' }, 400, 'Tipo de arquivo não permitido'],
      [{ filename: 'a.pdf', content: 'não é base64!' }, 400, 'base64'],
      [{ filename: 'a.pdf', content: 'AAAA', fileId: mine.id }, 400, 'fileId'],
      [{ filename: 'a.pdf', content: randomBytes(10 * 1024 * 1024 + 1).toString('base64') }, 400, '10 MB'],
    ];
    for (const [file, status, expected] of uploads) {
      const res = await upload(secret, file);
      expect(res.statusCode).toBe(status);
      expect(res.json().error.message).toContain(expected);
    }
    const rows = await h.db.select().from(messages).where(eq(messages.accountId, user.accountId));
    expect(rows).toHaveLength(0);
    expect(await api.balanceOf(user.accountId)).toBe(1_000);
  });

  it('counts uploaded files in the 10 MB of a message', async () => {
    const { secret } = await keyWithCredit(1_000);
    const a = (await upload(secret, { filename: 'a.pdf', content: randomBytes(300).toString('base64') })).json();
    const b = (await upload(secret, { filename: 'b.pdf', content: randomBytes(200).toString('base64') })).json();
    const send = (attachments: object[]) =>
      call(secret, 'POST', '/api/v1/messages', message('ana@destino.com.br', { attachments }));
    // Two uploads of 6 MB and 5 MB (their recorded sizes: the rule reads them, not the bytes).
    await h.db
      .update(messageFiles)
      .set({ size: 6 * 1024 * 1024 })
      .where(eq(messageFiles.id, a.id));
    await h.db
      .update(messageFiles)
      .set({ size: 5 * 1024 * 1024 })
      .where(eq(messageFiles.id, b.id));
    const res = await send([{ fileId: a.id }, { fileId: b.id }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain('10 MB');
    expect(res.json().error.details.fields[0].path).toBe('attachments');
    expect((await send([{ fileId: a.id }])).statusCode).toBe(201);
  });

  it('keeps an account within its storage quota: live and test keys together, the same bytes free, erased or expired files not counted', async () => {
    const { user, secret } = await keyWithCredit(1_000);
    const testSecret = await keyOf(user, 'test');
    const small = (n: number) => ({ filename: `nf-${n}.xml`, content: randomBytes(100_000).toString('base64') });
    const big = (await upload(secret, small(0))).json();
    // Its recorded size stands for 9.85 MB of uploads (the quota reads the sizes, not the bytes).
    await h.db
      .update(messageFiles)
      .set({ size: QUOTA_BYTES - 150_000 })
      .where(eq(messageFiles.id, big.id));
    const first = small(1);
    const fits = await upload(testSecret, first);
    expect(fits.statusCode, fits.body).toBe(201);
    const full = await upload(secret, small(2));
    expect(full.statusCode).toBe(409);
    expect(full.json().error).toMatchObject({
      code: 'file_quota_exceeded',
      details: { quotaBytes: QUOTA_BYTES, usedBytes: QUOTA_BYTES - 50_000, fileBytes: 100_000 },
    });
    expect(full.json().error.message).toContain('10 MB');
    // The test key's upload counts too: the files are the account's.
    expect((await upload(testSecret, small(3))).json().error.code).toBe('file_quota_exceeded');
    // The same bytes again add nothing: an integration re-uploading its catalogue every day keeps working.
    const again = await upload(secret, { ...first, filename: 'de-novo.xml' });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().id).toBe(fits.json().id);
    // Erasing frees the space at once; an expired file no longer counts.
    expect((await call(secret, 'DELETE', `/api/v1/files/${fits.json().id}`)).statusCode).toBe(204);
    expect((await upload(secret, small(4))).statusCode).toBe(201);
    expect((await upload(secret, small(5))).statusCode).toBe(409);
    await h.db
      .update(messageFiles)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(messageFiles.id, big.id));
    expect((await upload(secret, small(6))).statusCode).toBe(201);
    // Another account's files are not this one's.
    const other = await keyWithCredit(1_000);
    expect((await upload(other.secret, small(7))).statusCode).toBe(201);
  });

  it('holds the quota under concurrent uploads: room for two, five at once, exactly two stored', async () => {
    const { user, secret } = await keyWithCredit(1_000);
    const seed = (await upload(secret, { filename: 'base.pdf', content: randomBytes(1000).toString('base64') })).json();
    await h.db
      .update(messageFiles)
      .set({ size: QUOTA_BYTES - 250_000 })
      .where(eq(messageFiles.id, seed.id));
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        upload(secret, { filename: `nf-${i}.xml`, content: randomBytes(100_000).toString('base64') }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 409, 409, 409]);
    const [used] = await queryRows<{ n: number }>(
      h.db,
      sql`select sum(size)::int as n from message_files where account_id = ${user.accountId}`,
    );
    expect(used?.n).toBe(QUOTA_BYTES - 50_000);
  });

  it('a file erased before its message goes: the message fails and is refunded, never sent without it', async () => {
    const { user, secret } = await keyWithCredit(1_000);
    const file = (await upload(secret, { filename: 'boleto.pdf', content: catalogue.toString('base64') })).json();
    const sent = await call(
      secret,
      'POST',
      '/api/v1/messages',
      message('apagado@destino.com.br', { attachments: [{ fileId: file.id }] }),
    );
    expect(sent.statusCode).toBe(201);
    expect((await call(secret, 'DELETE', `/api/v1/files/${file.id}`)).statusCode).toBe(204);
    expect((await call(secret, 'GET', `/api/v1/files/${file.id}`)).statusCode).toBe(404);
    await drain(h.newSender({ signers: [lojaSigner] }), [Number(sent.json().messages[0].id)]);
    expect(h.sink.messages.filter((m) => m.to === 'apagado@destino.com.br')).toEqual([]);
    const [row] = await h.db
      .select()
      .from(messages)
      .where(eq(messages.id, Number(sent.json().messages[0].id)));
    expect(row?.status).toBe('failed');
    expect(await api.balanceOf(user.accountId)).toBe(1_000);
  });

  it('sweeps expired files, but keeps one a queued message still needs', async () => {
    const { user, secret } = await keyWithCredit(1_000);
    const kept = (
      await upload(secret, { filename: 'nf.xml', content: Buffer.from('<nfe/>').toString('base64') })
    ).json();
    const gone = (
      await upload(secret, { filename: 'velho.xml', content: Buffer.from('<velho/>').toString('base64') })
    ).json();
    const sent = await call(
      secret,
      'POST',
      '/api/v1/messages',
      message('ana@destino.com.br', { attachments: [{ fileId: kept.id }] }),
    );
    expect(sent.statusCode).toBe(201);
    const later = new Date(Date.now() + 31 * 86_400_000);
    const left = () =>
      h.db.select({ id: messageFiles.id }).from(messageFiles).where(eq(messageFiles.accountId, user.accountId));
    await sweepExpiredMessageFiles(h.db, new Date());
    expect((await left()).length).toBe(2);
    expect(await sweepExpiredMessageFiles(h.db, later)).toBeGreaterThanOrEqual(1);
    expect((await left()).map((r) => r.id)).toEqual([kept.id]);
    expect(gone.id).not.toBe(kept.id);
    // Once the message went, the file goes at the next sweep.
    await drain(h.newSender({ signers: [lojaSigner] }), [Number(sent.json().messages[0].id)]);
    await sweepExpiredMessageFiles(h.db, later);
    expect(await left()).toEqual([]);
  });

  it('test keys upload and attach files the same way, and nothing is delivered nor charged', async () => {
    const { user, secret } = await keyWithCredit(1_000, 'test');
    expect(secret).toMatch(/^ct_test_/);
    const file = (await upload(secret, { filename: 'catalogo.pdf', content: catalogue.toString('base64') })).json();
    const sent = await call(
      secret,
      'POST',
      '/api/v1/messages',
      message('teste@destino.com.br', { attachments: [{ fileId: file.id }] }),
    );
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({ costMillis: 0, balanceMillis: 1_000, messages: [{ status: 'queued' }] });
    const unknown = await call(
      secret,
      'POST',
      '/api/v1/messages',
      message('teste@destino.com.br', { attachments: [{ fileId: crypto.randomUUID() }] }),
    );
    expect(unknown.statusCode).toBe(404);
    const engine = h.newSender();
    for (let i = 0; i < 3; i++) await engine.tick();
    expect(h.sink.messages.filter((m) => m.to === 'teste@destino.com.br' && m.raw.includes('catalogo.pdf'))).toEqual(
      [],
    );
    expect(await api.balanceOf(user.accountId)).toBe(1_000);
  });
});
