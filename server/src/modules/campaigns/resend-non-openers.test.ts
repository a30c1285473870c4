import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { type Db, queryRows } from '../../db/database';
import {
  createListWithContacts,
  createReadyCampaign,
  creditAccount,
  suppressEmail,
} from '../sending/testing/send-fixtures';

describe.each(DATABASE_KINDS)('"Reenviar para quem não abriu" on %s', (kind) => {
  let t: TestApp;
  let db: Db;
  let user: SignedInUser;
  const json = { 'content-type': 'application/json' };

  beforeAll(async () => {
    t = await createTestApp(kind);
    db = t.database.db;
    user = await signUp(t, { verified: true });
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates a draft whose audience is exactly the delivered recipients without a human open, with its own cost preview, and sends to them', async () => {
    const people = ['abriu', 'maquina', 'nada', 'clicou', 'falhou', 'saiu', 'bloqueado', 'naorecebeu'].map(
      (p) => `${p}@loja.com.br`,
    );
    const { listId } = await createListWithContacts(db, user.accountId, people, { cidade: 'Recife' });
    const original = await createReadyCampaign(db, user.accountId, { includeListIds: [listId], name: 'Black Friday' });

    // Not sent yet: no follow-up.
    const early = await t.app.inject({
      method: 'POST',
      url: `/api/campaigns/${original}/resend-non-openers`,
      headers: { ...user.headers, ...json },
      payload: {},
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toContain('depois que a campanha foi enviada');

    // The original as the engine leaves it after sending: one message per recipient, then events.
    await db.execute(
      sql`update campaigns set status = 'sent', started_at = now(), finished_at = now() where id = ${original}`,
    );
    const messageOf: Record<string, number> = {};
    for (const email of people.filter((e) => !e.startsWith('naorecebeu'))) {
      const status = email.startsWith('falhou') ? 'failed' : 'sent';
      const [m] = await queryRows<{ id: number }>(
        db,
        sql`insert into messages (campaign_id, account_id, contact_id, email, status, token, sent_at)
            select ${original}, ${user.accountId}, c.id, c.email, ${status}, ${randomBytes(20).toString('hex')}, now()
              from contacts c where c.account_id = ${user.accountId} and c.email = ${email} returning id`,
      );
      messageOf[email.split('@')[0] as string] = Number((m as { id: number }).id);
    }
    const event = (who: string, kind: string, machine: boolean) =>
      db.execute(
        sql`insert into message_events (message_id, campaign_id, account_id, contact_id, kind, machine)
            select m.id, m.campaign_id, m.account_id, m.contact_id, ${kind}, ${machine} from messages m
             where m.id = ${messageOf[who]}`,
      );
    await event('abriu', 'open', false);
    await event('maquina', 'open', true); // Apple MPP / scanner: not an open
    await event('clicou', 'click', false); // clicked, but no open recorded
    await db.execute(
      sql`update contacts set status = 'unsubscribed' where account_id = ${user.accountId} and email = 'saiu@loja.com.br'`,
    );
    await suppressEmail(db, user.accountId, 'bloqueado@loja.com.br');

    const res = await t.app.inject({
      method: 'POST',
      url: `/api/campaigns/${original}/resend-non-openers`,
      headers: { ...user.headers, ...json },
      payload: { subject: 'Última chance: {{ contato.nome | default: "cliente" }}' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const followUp = res.json();
    expect(followUp).toMatchObject({
      status: 'draft',
      name: 'Reenvio para quem não abriu: Black Friday',
      subject: 'Última chance: {{ contato.nome | default: "cliente" }}',
      resendOfCampaignId: original,
      includeListIds: [],
      includeSegmentIds: [],
    });

    const summary = (
      await t.app.inject({ url: `/api/campaigns/${followUp.id}/summary`, headers: user.headers })
    ).json();
    expect(summary).toMatchObject({ recipients: 3, costMillis: 15 });

    // Schedulable like any draft.
    const when = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await t.app.inject({
      method: 'POST',
      url: `/api/campaigns/${followUp.id}/schedule`,
      headers: { ...user.headers, ...json },
      payload: { scheduledAt: when },
    });
    expect(scheduled.statusCode, scheduled.body).toBe(200);

    await creditAccount(db, user.accountId, 10_000);
    const sent = await t.app.inject({
      method: 'POST',
      url: `/api/campaigns/${followUp.id}/send`,
      headers: user.headers,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const snapshot = await queryRows<{ email: string }>(
      db,
      sql`select email from messages where campaign_id = ${followUp.id} order by email`,
    );
    expect(snapshot.map((r) => r.email)).toEqual(['clicou@loja.com.br', 'maquina@loja.com.br', 'nada@loja.com.br']);
  });

  it('is 404 for another account’s campaign', async () => {
    const other = await signUp(t, { verified: true });
    const { listId } = await createListWithContacts(db, other.accountId, ['x@y.com.br']);
    const theirs = await createReadyCampaign(db, other.accountId, { includeListIds: [listId] });
    await db.execute(sql`update campaigns set status = 'sent' where id = ${theirs}`);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/campaigns/${theirs}/resend-non-openers`,
      headers: { ...user.headers, ...json },
      payload: {},
    });
    expect(res.statusCode).toBe(404);
  });
});
