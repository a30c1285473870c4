import { transactionalMessageSchema } from '@carteiro/shared';
import { getTableColumns, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { signUp } from '../../../test/support/sign-in';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import { findMessage } from '../public-api/message-lookup';
import { trustSenderAddress } from '../sender-identities/testing/trust-sender';
import { useEngineHarness } from '../sending/testing/engine-harness';
import { creditAccount } from '../sending/testing/send-fixtures';
import { createTemplate } from '../templates/templates';
import {
  sendTransactional,
  transactionalCommitSql,
  transactionalCommitStatement,
  transactionalPrepareSql,
  transactionalPrepareStatement,
} from './send-transactional';
import { transactionalAttachments, transactionalMessages } from './transactional.db';

/** The commit's values with every slot set to something distinct (the statement's text does not depend on them). */
const values = {
  accountId: '0b7a3a52-2d5e-4d43-9a57-5d1c0f3f4b11',
  streamId: '7c0f8e21-93a1-4f0e-8d4b-2b1a9f6e0c22',
  price: 5,
  cost: 15,
  negativeCost: -15,
  sendable: 3,
  description: 'Envio transacional: 3 e-mails × R$ 0,005',
  sendAt: '2026-12-01T12:00:00.000Z',
  token: '{"a","b"}',
  email: '{"x@y.com.br","z@y.com.br"}',
  status: '{"queued","skipped"}',
  response: '{NULL,"suprimido"}',
  skipReason: '{NULL,"suppressed"}',
  fromEmail: '{"p@loja.com.br","p@loja.com.br"}',
  fromName: '{"Loja",NULL}',
  replyTo: '{"r@loja.com.br",NULL}',
  toName: '{"Ana",NULL}',
  category: '{"transactional","transactional"}',
  trackOpens: '{"true","false"}',
  trackClicks: '{"false","true"}',
  subject: '{"S1","S2"}',
  html: '{"<p>1</p>","<p>2</p>"}',
  text: '{"1","2"}',
  templateId: '{NULL,NULL}',
  tags: '{"[\\"t\\"]",NULL}',
  kind: '{"to","cc"}',
  copyOfToken: '{NULL,"a"}',
  headerTo: '{NULL,"{}"}',
  cc: '{NULL,NULL}',
  headers: '{NULL,NULL}',
  metadata: '{NULL,NULL}',
  attachmentCount: '{"1","0"}',
  fileToken: '{"a"}',
  filePosition: '{"0"}',
  fileName: '{"nota.pdf"}',
  fileContentType: '{"application/pdf"}',
  fileContentId: '{NULL}',
  fileSize: '{"3"}',
  fileContent: '{"YWJj"}',
  fileId: '{NULL}',
};

/** The column list of the statement's `insert into <table> (…)`. */
function insertedColumns(text: string, table: string): string[] {
  const match = new RegExp(`insert into ${table} \\(([^)]*)\\)`).exec(text);
  if (!match?.[1]) throw new Error(`no insert into ${table} in the commit statement`);
  return match[1].split(',').map((c) => c.trim());
}

describe('the transactional statements, built once per process', () => {
  it('the read statement is exactly the one drizzle builds from the same values', () => {
    const read = {
      accountId: values.accountId,
      senderEmails: '{"p@loja.com.br","q@marca.com.br"}',
      senderDomains: '{"loja.com.br","marca.com.br"}',
      hashes: '{"ab12","cd34"}',
    };
    const built = new PgDialect().sqlToQuery(transactionalPrepareSql(read));
    expect(transactionalPrepareStatement.text).toBe(built.sql);
    expect(transactionalPrepareStatement.params(read)).toEqual(built.params);
  });

  it.each([
    ['now', false],
    ['scheduled', true],
  ] as const)('is exactly the statement drizzle builds from the same values (%s)', (variant, scheduled) => {
    const prebuilt = transactionalCommitStatement[variant];
    const built = new PgDialect().sqlToQuery(transactionalCommitSql(values, scheduled));
    expect(prebuilt.text).toBe(built.sql);
    expect(prebuilt.params(values)).toEqual(built.params);
    // Another set of values changes the parameters only.
    const other = { ...values, accountId: 'f0e1d2c3-b4a5-4697-8899-aabbccddeeff', price: 7, negativeCost: -21 };
    expect(prebuilt.params(other)).toEqual(new PgDialect().sqlToQuery(transactionalCommitSql(other, scheduled)).params);
  });

  /** Columns that stay null at acceptance because a later step of the message's life writes them. */
  const WRITTEN_LATER: Record<string, string> = {
    cancelled_at: 'POST /messages/{id}/cancel',
    sandbox_notified_at: "the sandbox's scheduled-send notifier",
  };

  it('writes every column of transactional_messages and transactional_attachments that has no default', () => {
    // A new column must be written by the commit or listed above with the step that writes it: the prebuilt text
    // would otherwise drop it silently.
    for (const [table, columns] of [
      ['transactional_messages', getTableColumns(transactionalMessages)],
      ['transactional_attachments', getTableColumns(transactionalAttachments)],
    ] as const) {
      const written = insertedColumns(transactionalCommitStatement.now.text, table);
      const missing = Object.values(columns)
        .filter((column) => !column.hasDefault && !written.includes(column.name) && !(column.name in WRITTEN_LATER))
        .map((column) => column.name);
      expect(missing, `${table}: columns the commit leaves out`).toEqual([]);
      expect(insertedColumns(transactionalCommitStatement.scheduled.text, table)).toEqual(written);
    }
  });
});

describe.each(DATABASE_KINDS)('the transactional statements on %s', (kind) => {
  const h = useEngineHarness(kind);

  it('judges each of several senders in a batch by the sending rule, in order (one read statement)', async () => {
    const user = await signUp(h.t, { verified: true });
    await creditAccount(h.db, user.accountId, 1_000);
    await trustSenderAddress(h.db, user.accountId, 'pedidos@loja.com.br');
    await trustSenderAddress(h.db, user.accountId, 'sac@marca.com.br');
    const from = (email: string, to: string) =>
      transactionalMessageSchema.parse({ to: { email: to }, from: { email }, subject: 'Oi', html: '<p>Oi</p>' });
    const options = { publicUrl: 'https://app.carteiro.test' };
    const verified = [from('pedidos@loja.com.br', 'a@destino.com.br'), from(' SAC@Marca.com.br', 'b@destino.com.br')];
    await expect(
      sendTransactional(
        h.db,
        user.accountId,
        [...verified, from('outro@naoverificado.com.br', 'c@destino.com.br')],
        options,
      ),
    ).rejects.toMatchObject({
      code: 'sender_not_verified',
      message: expect.stringContaining('outro@naoverificado.com.br'),
    });
    const sent = await sendTransactional(h.db, user.accountId, verified, options);
    expect(sent.messages.map((m) => m.status)).toEqual(['queued', 'queued']);
  });

  it('stores a large content compressed with lz4 where the server has it (pglz elsewhere), read back the same', async () => {
    const user = await signUp(h.t, { verified: true });
    await creditAccount(h.db, user.accountId, 1_000);
    await trustSenderAddress(h.db, user.accountId, 'pedidos@loja.com.br');
    // Over the TOAST threshold (~2 KB): PostgreSQL compresses it when the row is stored.
    const html = `<p>Olá, {{ contato.nome }}!</p>${'<p>Frete grátis para todo o Brasil, troca fácil em até 30 dias.</p>'.repeat(60)}`;
    const input = transactionalMessageSchema.parse({
      to: { email: 'ana@destino.com.br', name: 'Ana' },
      from: { email: 'pedidos@loja.com.br' },
      subject: 'Pedido',
      html,
    });
    const sent = await sendTransactional(h.db, user.accountId, [input], { publicUrl: 'https://app.carteiro.test' });
    const id = sent.messages[0]?.id as string;
    const [lz4] = await queryRows<{ available: boolean }>(
      h.db,
      sql`select exists (select 1 from pg_settings where name = 'default_toast_compression' and 'lz4' = any (enumvals)) as available`,
    );
    const [stored] = await queryRows<{ html: string; html_method: string | null; text_method: string | null }>(
      h.db,
      sql`select html, pg_column_compression(html) as html_method, pg_column_compression(text) as text_method
            from transactional_messages where message_id = ${id}`,
    );
    expect(stored?.html).toBe(html.replace('{{ contato.nome }}', 'Ana'));
    const method = lz4?.available ? 'lz4' : 'pglz';
    expect({ html: stored?.html_method, text: stored?.text_method }).toEqual({ html: method, text: method });
  });

  it('round-trips through the commit: every stored column and the lookup', async () => {
    const user = await signUp(h.t, { verified: true });
    await creditAccount(h.db, user.accountId, 1_000);
    await trustSenderAddress(h.db, user.accountId, 'pedidos@loja.com.br');
    const template = await createTemplate(h.db, user.accountId, {
      name: 'Pedido',
      subject: 'Pedido {{ dados.pedido }}',
      html: '<p>Pedido {{ dados.pedido }}.</p>',
      variables: ['pedido'],
    });
    const input = transactionalMessageSchema.parse({
      to: { email: 'ana@destino.com.br', name: 'Ana' },
      from: { email: 'pedidos@loja.com.br', name: 'Loja Ação' },
      replyTo: 'atendimento@loja.com.br',
      templateId: template.id,
      data: { pedido: '1234' },
      text: 'Pedido {{ dados.pedido }} em texto.',
      category: 'transactional',
      trackOpens: false,
      trackClicks: true,
      cc: [{ email: 'financeiro@destino.com.br', name: 'Financeiro' }],
      bcc: [{ email: 'arquivo@destino.com.br' }],
      headers: { 'X-Pedido': '1234' },
      tags: ['pedido', 'confirmado'],
      metadata: { pedido: '1234' },
      attachments: [
        { filename: 'nota.txt', content: Buffer.from('nota 1234').toString('base64') },
        {
          filename: 'logo.png',
          contentType: 'image/png',
          contentId: 'logo',
          content: Buffer.from('png').toString('base64'),
        },
      ],
    });
    const sendAt = new Date(Date.now() + 3_600_000);
    const [now, later] = await Promise.all([
      sendTransactional(h.db, user.accountId, [input], { publicUrl: 'https://app.carteiro.test' }),
      sendTransactional(h.db, user.accountId, [input], { publicUrl: 'https://app.carteiro.test', sendAt }),
    ]);
    expect(now.messages[0]?.copies?.map((c) => c.kind)).toEqual(['cc', 'bcc']);
    expect(later.messages[0]?.status).toBe('scheduled');

    for (const [result, expectedSendAt] of [
      [now, null],
      [later, sendAt.toISOString()],
    ] as const) {
      const head = result.messages[0];
      if (!head) throw new Error('no message in the answer');
      const ids = [head.id, ...(head.copies ?? []).map((c) => c.id)];
      const rows = await queryRows<Record<string, unknown>>(
        h.db,
        sql`select t.*, to_char(t.send_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as send_at_iso,
                   m.email, m.status, m.token
              from transactional_messages t join messages m on m.id = t.message_id
             where t.message_id = any(${`{${ids.join(',')}}`}::bigint[]) order by t.message_id`,
      );
      expect(rows.map((r) => [r.recipient_kind, r.email, r.status])).toEqual([
        ['to', 'ana@destino.com.br', 'queued'],
        ['cc', 'financeiro@destino.com.br', 'queued'],
        ['bcc', 'arquivo@destino.com.br', 'queued'],
      ]);
      // Each row its own token: 160 random bits as 40 hex characters.
      const tokens = rows.map((r) => r.token as string);
      expect(new Set(tokens).size).toBe(3);
      for (const token of tokens) expect(token).toMatch(/^[0-9a-f]{40}$/);
      const [to, cc, bcc] = rows as [Record<string, unknown>, Record<string, unknown>, Record<string, unknown>];
      const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
      expect({
        account: to.account_id,
        from: [to.from_email, to.from_name],
        replyTo: to.reply_to,
        toName: to.to_name,
        category: to.category,
        tracking: [to.track_opens, to.track_clicks],
        subject: to.subject,
        html: to.html,
        text: to.text,
        template: to.template_id,
        tags: to.tags,
        cost: Number(to.cost_millis),
        cc: parse(to.cc),
        headers: parse(to.headers),
        metadata: parse(to.metadata),
        attachments: Number(to.attachment_count),
        sendAt: to.send_at_iso,
        copyOf: to.copy_of,
        headerTo: to.header_to,
      }).toEqual({
        account: user.accountId,
        from: ['pedidos@loja.com.br', 'Loja Ação'],
        replyTo: 'atendimento@loja.com.br',
        toName: 'Ana',
        category: 'transactional',
        tracking: [false, true],
        subject: 'Pedido 1234',
        html: expect.stringContaining('Pedido 1234.'),
        text: 'Pedido 1234 em texto.',
        template: template.id,
        tags: ['pedido', 'confirmado'],
        cost: 5,
        cc: [{ email: 'financeiro@destino.com.br', name: 'Financeiro' }],
        headers: [['X-Pedido', '1234']],
        metadata: { pedido: '1234' },
        attachments: 2,
        sendAt: expectedSendAt,
        copyOf: null,
        headerTo: null,
      });
      for (const copy of [cc, bcc]) {
        expect(Number(copy.copy_of)).toBe(Number(head.id));
        expect(parse(copy.header_to)).toEqual({ email: 'ana@destino.com.br', name: 'Ana' });
        expect(copy.to_name).toBe(copy === cc ? 'Financeiro' : null);
        expect(copy.send_at_iso).toBe(expectedSendAt);
      }
      const files = await queryRows<{
        position: number;
        filename: string;
        content_type: string;
        content_id: string | null;
        size: number;
        content: Buffer | Uint8Array;
      }>(
        h.db,
        sql`select position, filename, content_type, content_id, size, content from transactional_attachments
             where message_id = ${head.id}::bigint order by position`,
      );
      expect(
        files.map((f) => [
          f.position,
          f.filename,
          f.content_type,
          f.content_id,
          Number(f.size),
          Buffer.from(f.content).toString(),
        ]),
      ).toEqual([
        [0, 'nota.txt', 'text/plain', null, 9, 'nota 1234'],
        [1, 'logo.png', 'image/png', 'logo', 3, 'png'],
      ]);

      const looked = await findMessage(h.db, user.accountId, 'live', head.id);
      expect(looked).toMatchObject({
        id: head.id,
        status: expectedSendAt ? 'scheduled' : 'queued',
        stream: 'transactional',
        recipientKind: 'to',
        to: 'ana@destino.com.br',
        from: 'pedidos@loja.com.br',
        subject: 'Pedido 1234',
        tags: ['pedido', 'confirmado'],
        metadata: { pedido: '1234' },
        costMillis: 5,
        attachments: 2,
        sendAt: expectedSendAt,
      });
    }
  });
});
