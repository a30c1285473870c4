import {
  MESSAGE_STREAMS,
  type MessageStream,
  SUPPRESSION_REASON_VALUES,
  transactionalMessageSchema,
} from '@carteiro/shared';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { signUp } from '../../../test/support/sign-in';
import { createDatabaseBeforeMigration, DATABASE_KINDS, insertAccountRow } from '../../../test/support/test-database';
import { type Db, queryRows } from '../../db/database';
import { startCampaignSend } from '../campaigns/start-campaign-send';
import { trustSenderAddress } from '../sender-identities/testing/trust-sender';
import { messages } from '../sending/messages.db';
import { runEngineUntil, useEngineHarness } from '../sending/testing/engine-harness';
import { createListWithContacts, createReadyCampaign, creditAccount } from '../sending/testing/send-fixtures';
import { sendTransactional } from '../transactional/send-transactional';
import { suppressions } from './contacts.db';
import { hashEmail } from './email-hash';
import {
  liftUnsubscribedSuppression,
  lookupSuppression,
  suppressEmail,
  suppressedForStreamSql,
  suppressionCovers,
  suppressionSummary,
} from './suppression';

/** The product's table, written out (not derived from the code under test). */
const EXPECTED: Record<string, Record<MessageStream, boolean>> = {
  unsubscribed: { marketing: true, transactional: false, system: false },
  bounced: { marketing: true, transactional: true, system: true },
  complained: { marketing: true, transactional: true, system: true },
  erased: { marketing: true, transactional: true, system: true },
  manual: { marketing: true, transactional: true, system: true },
};

describe('suppressionCovers', () => {
  it('an unsubscribe covers marketing only; bounces, complaints, erasure and manual entries cover every stream', () => {
    for (const reason of SUPPRESSION_REASON_VALUES) {
      for (const stream of MESSAGE_STREAMS) {
        expect(suppressionCovers(reason, stream), `${reason} × ${stream}`).toBe(EXPECTED[reason]?.[stream]);
      }
    }
  });
});

describe.each(DATABASE_KINDS)('suppressions by stream on %s', (kind) => {
  const h = useEngineHarness(kind);

  async function accountWithSender(): Promise<string> {
    const user = await signUp(h.t, { verified: true });
    await creditAccount(h.db, user.accountId, 100_000);
    await trustSenderAddress(h.db, user.accountId, 'pedidos@loja.com.br');
    return user.accountId;
  }

  async function covered(db: Db, accountId: string, email: string, stream: MessageStream | 'as-sql') {
    const streams = stream === 'as-sql' ? MESSAGE_STREAMS : [stream];
    const out: boolean[] = [];
    for (const s of streams) {
      const probe =
        stream === 'as-sql'
          ? suppressedForStreamSql(sql`${accountId}::uuid`, sql`${email}::text`, sql`${s}::text`)
          : suppressedForStreamSql(sql`${accountId}::uuid`, sql`${email}::text`, s);
      const [row] = await queryRows<{ hit: boolean }>(db, sql`select ${probe} as hit`);
      out.push(Boolean(row?.hit));
    }
    return out;
  }

  it('the SQL probe answers the table for every reason and stream, given as a word or as a SQL value', async () => {
    const accountId = await accountWithSender();
    for (const reason of SUPPRESSION_REASON_VALUES) {
      const email = `${reason}@destino.com.br`;
      await suppressEmail(h.db, accountId, email, reason);
      const expected = MESSAGE_STREAMS.map((s) => EXPECTED[reason]?.[s]);
      const asWords = [];
      for (const s of MESSAGE_STREAMS) asWords.push(...(await covered(h.db, accountId, email, s)));
      expect(asWords, reason).toEqual(expected);
      expect(await covered(h.db, accountId, email, 'as-sql'), reason).toEqual(expected);
    }
    expect(await covered(h.db, accountId, 'nobody@destino.com.br', 'as-sql')).toEqual([false, false, false]);
    // Another account's suppressions never count.
    const other = await accountWithSender();
    expect(await covered(h.db, other, 'bounced@destino.com.br', 'as-sql')).toEqual([false, false, false]);
  });

  it('unsubscribed and later bounced: both reasons kept, the bounce shown and still in force after the unsubscribe is lifted', async () => {
    const accountId = await accountWithSender();
    const { emails } = await createListWithContacts(h.db, accountId, ['ambos@destino.com.br']);
    const email = emails[0] as string;
    await suppressEmail(h.db, accountId, email, 'unsubscribed');
    await suppressEmail(h.db, accountId, email, 'bounced');
    await suppressEmail(h.db, accountId, email, 'bounced'); // idempotent
    expect(await lookupSuppression(h.db, accountId, email)).toMatchObject({
      suppressed: true,
      reason: 'bounced',
      reasons: ['bounced', 'unsubscribed'],
      streams: ['marketing', 'transactional', 'system'],
    });
    expect(await suppressionSummary(h.db, accountId)).toMatchObject({
      total: 1,
      byReason: { unsubscribed: 1, bounced: 1 },
    });
    // The person's new consent (they are on a list: createListWithContacts subscribed them) lifts the unsubscribe only.
    const [contact] = await queryRows<{ id: string }>(
      h.db,
      sql`select id from contacts where account_id = ${accountId} and email = ${email}`,
    );
    await liftUnsubscribedSuppression(h.db, accountId, contact?.id as string);
    const rows = await h.db
      .select()
      .from(suppressions)
      .where(eq(suppressions.emailHash, hashEmail(email)));
    expect(rows.map((r) => r.reason)).toEqual(['bounced']);
    expect(await covered(h.db, accountId, email, 'as-sql')).toEqual([true, true, true]);
  });

  it('an unsubscribed address still gets transactional API messages; marketing ones are suppressed at request time', async () => {
    const accountId = await accountWithSender();
    await suppressEmail(h.db, accountId, 'saiu@destino.com.br', 'unsubscribed');
    await suppressEmail(h.db, accountId, 'devolvido@destino.com.br', 'bounced');
    const input = (to: string, category: 'marketing' | 'transactional') =>
      transactionalMessageSchema.parse({
        to: { email: to },
        from: { email: 'pedidos@loja.com.br' },
        subject: 'Pedido 1234',
        html: '<p>Seu pedido saiu.</p><a href="{{ link_descadastro }}">Descadastrar</a>',
        category,
      });
    const result = await sendTransactional(
      h.db,
      accountId,
      [
        input('saiu@destino.com.br', 'transactional'),
        input('saiu@destino.com.br', 'marketing'),
        input('devolvido@destino.com.br', 'transactional'),
      ],
      { publicUrl: 'https://app.carteiro.test' },
    );
    expect(result.messages).toEqual([
      expect.objectContaining({ status: 'queued', stream: 'transactional', costMillis: 5 }),
      expect.objectContaining({
        status: 'suppressed',
        stream: 'marketing',
        suppressionReason: 'unsubscribed',
        costMillis: 0,
      }),
      expect.objectContaining({ status: 'suppressed', stream: 'transactional', suppressionReason: 'bounced' }),
    ]);
    expect(result.messages[0]).not.toHaveProperty('suppressionReason');
    expect(result.costMillis).toBe(5);
    const [row] = await h.db
      .select({ response: messages.response })
      .from(messages)
      .where(eq(messages.id, Number(result.messages[2]?.id)));
    expect(row?.response).toBe(
      'não enviado: endereço suprimido nesta conta — devolução permanente, endereço inexistente',
    );
    const before = h.sink.messages.length;
    const sender = h.newSender();
    await runEngineUntil(sender, () => h.sink.messages.length > before, 'a message at the relay');
    expect(h.sink.messages.slice(before).map((m) => m.to)).toEqual(['saiu@destino.com.br']);
  });

  it('the transactional claim re-checks each queued message against its own stream', async () => {
    const accountId = await accountWithSender();
    const input = (to: string, category: 'marketing' | 'transactional') =>
      transactionalMessageSchema.parse({
        to: { email: to },
        from: { email: 'pedidos@loja.com.br' },
        subject: 'Aviso',
        html: '<p>Olá.</p><a href="{{ link_descadastro }}">Descadastrar</a>',
        category,
      });
    const result = await sendTransactional(
      h.db,
      accountId,
      [
        input('tarde@destino.com.br', 'transactional'),
        input('tarde@destino.com.br', 'marketing'),
        input('reclamou@destino.com.br', 'transactional'),
      ],
      { publicUrl: 'https://app.carteiro.test' },
    );
    expect(result.messages.map((m) => m.status)).toEqual(['queued', 'queued', 'queued']);
    // Suppressed after the request, before the engine claims the messages.
    await suppressEmail(h.db, accountId, 'tarde@destino.com.br', 'unsubscribed');
    await suppressEmail(h.db, accountId, 'reclamou@destino.com.br', 'complained');
    const sender = h.newSender();
    const ids = result.messages.map((m) => Number(m.id));
    let rows: Array<{ id: number; status: string }> = [];
    await runEngineUntil(
      sender,
      async () => {
        rows = await h.db
          .select({ id: messages.id, status: messages.status })
          .from(messages)
          .where(sql`${messages.id} = any(${`{${ids.join(',')}}`}::bigint[])`);
        return rows.every((r) => r.status !== 'queued');
      },
      'no message queued',
    );
    const statusOf = (id: number) => rows.find((r) => Number(r.id) === id)?.status;
    expect(ids.map(statusOf)).toEqual(['sent', 'skipped', 'skipped']);
  });

  it('the campaign claim skips an address unsubscribed after the snapshot even while the contact still reads subscribed', async () => {
    const accountId = await accountWithSender();
    const { listId } = await createListWithContacts(h.db, accountId, ['fica@destino.com.br', 'sai@destino.com.br'], {
      cidade: 'Salvador',
    });
    const id = await createReadyCampaign(h.db, accountId, { includeListIds: [listId] });
    await startCampaignSend(h.db, accountId, id, null);
    await suppressEmail(h.db, accountId, 'sai@destino.com.br', 'unsubscribed');
    const sender = h.newSender();
    let rows: Array<{ email: string; status: string }> = [];
    await runEngineUntil(
      sender,
      async () => {
        rows = await h.db
          .select({ email: messages.email, status: messages.status })
          .from(messages)
          .where(eq(messages.campaignId, id));
        return rows.every((r) => r.status !== 'queued');
      },
      'no message of the campaign queued',
    );
    expect(Object.fromEntries(rows.map((r) => [r.email, r.status]))).toEqual({
      'fica@destino.com.br': 'sent',
      'sai@destino.com.br': 'skipped',
    });
  });
});

describe.each(DATABASE_KINDS)('migrating the one-reason suppressions on %s', (kind) => {
  it('restores the bounces and complaints an earlier unsubscribe hid, from contact statuses and message events', async () => {
    // The schema as it was before this change (migrations up to the previous one), with data in it, then migrated.
    const database = await createDatabaseBeforeMigration(kind, '_suppression_scopes');
    try {
      const db = database.db;
      const accountId = await insertAccountRow(db);
      const hash = (email: string) => sql`encode(sha256(convert_to(${email}::text, 'UTF8')), 'hex')`;
      await db.execute(sql`insert into contacts (account_id, email, status) values
          (${accountId}, 'saiu-e-devolveu@x.com.br', 'bounced'),
          (${accountId}, 'saiu-e-reclamou@x.com.br', 'complained'),
          (${accountId}, 'so-saiu@x.com.br', 'unsubscribed')`);
      await db.execute(sql`insert into suppressions (account_id, email_hash, reason) values
          (${accountId}, ${hash('saiu-e-devolveu@x.com.br')}, 'unsubscribed'),
          (${accountId}, ${hash('saiu-e-reclamou@x.com.br')}, 'unsubscribed'),
          (${accountId}, ${hash('so-saiu@x.com.br')}, 'unsubscribed'),
          (${accountId}, ${hash('apagado-devolvido@x.com.br')}, 'unsubscribed')`);
      // A contact deleted since its hard bounce: only its message and the event remember it.
      const [campaign] = await queryRows<{ id: string }>(
        db,
        sql`insert into campaigns (uuid, created_by, name, subject) values (gen_random_uuid(), ${accountId}, 'C', 'S')
            returning id`,
      );
      const [message] = await queryRows<{ id: number }>(
        db,
        sql`insert into messages (campaign_id, account_id, email, token, status)
            values (${campaign?.id}, ${accountId}, 'apagado-devolvido@x.com.br', 'tok-apagado-devolvido-0001', 'sent')
            returning id`,
      );
      await db.execute(sql`insert into message_events (message_id, campaign_id, account_id, kind, bounce_kind)
          values (${message?.id}, ${campaign?.id}, ${accountId}, 'bounce', 'hard')`);

      await database.migrate();
      const reasonsOf = async (email: string) =>
        (
          await queryRows<{ reason: string }>(
            db,
            sql`select reason from suppressions where account_id = ${accountId} and email_hash = ${hash(email)}
                order by reason`,
          )
        ).map((r) => r.reason);
      expect(await reasonsOf('saiu-e-devolveu@x.com.br')).toEqual(['bounced', 'unsubscribed']);
      expect(await reasonsOf('saiu-e-reclamou@x.com.br')).toEqual(['complained', 'unsubscribed']);
      expect(await reasonsOf('so-saiu@x.com.br')).toEqual(['unsubscribed']);
      expect(await reasonsOf('apagado-devolvido@x.com.br')).toEqual(['bounced', 'unsubscribed']);
    } finally {
      await database.close();
    }
  }, 120_000); // two full migrations of a fresh database: slow on a loaded box
});
