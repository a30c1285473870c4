import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForImport } from '../../../test/support/imports';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { countRecipients } from './count-recipients';
import { hashEmail } from './email-hash';

describe.each(DATABASE_KINDS)('account suppression list on %s', (kind) => {
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
  const post = (user: SignedInUser, url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers: json(user), payload: payload as Record<string, unknown> });

  it('requires a session', async () => {
    expect((await t.app.inject({ url: '/api/suppressions' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/suppressions', payload: { emails: ['x@y.com'] } })).statusCode,
    ).toBe(401);
  });

  it('adds typed addresses (normalised, IDN too), reports invalid lines, and counts by reason', async () => {
    const added = await post(a, '/api/suppressions', {
      emails: [' Bloqueado@Exemplo.com ', 'bloqueado@exemplo.com', 'nada', '', 'maria@ação.com.br'],
    });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toEqual({ added: 2, alreadySuppressed: 0, invalid: ['nada'], invalidCount: 1 });
    const again = (await post(a, '/api/suppressions', { emails: ['BLOQUEADO@exemplo.com'] })).json();
    expect(again).toMatchObject({ added: 0, alreadySuppressed: 1 });

    const lookup = (await post(a, '/api/suppressions/lookup', { email: 'MARIA@xn--ao-siap.com.br' })).json();
    expect(lookup).toMatchObject({ suppressed: true, reason: 'manual' });
    expect((await post(a, '/api/suppressions/lookup', { email: 'livre@exemplo.com' })).json()).toMatchObject({
      suppressed: false,
      reason: null,
    });
    const invalid = await post(a, '/api/suppressions/lookup', { email: 'nada' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.message).toContain('E-mail inválido');
    expect((await post(a, '/api/suppressions', { emails: [] })).statusCode).toBe(400);

    const summary = (await t.app.inject({ url: '/api/suppressions', headers: a.headers })).json();
    expect(summary).toEqual({
      total: 2,
      byReason: { erased: 0, unsubscribed: 0, bounced: 0, complained: 0, manual: 2 },
    });
  });

  it('keeps suppressed addresses out of the new-contact form and of imports', async () => {
    await post(a, '/api/suppressions', { emails: ['fora@exemplo.com'] });
    const created = await post(a, '/api/contacts', { email: 'Fora@Exemplo.com' });
    expect(created.statusCode).toBe(409);
    expect(created.json().error.message).toContain('lista de supressão');

    const up = (
      await t.app.inject({
        method: 'POST',
        url: '/api/imports',
        headers: { ...a.headers, 'content-type': 'text/csv' },
        payload: 'email\nfora@exemplo.com\ndentro@exemplo.com\n',
      })
    ).json();
    await post(a, `/api/imports/${up.importId}/start`, {
      mapping: { email: 'email' },
      legalBasis: 'consent',
      consentSource: 'planilha',
    });
    expect(await waitForImport(t, a, up.importId)).toMatchObject({ inserted: 1, skippedSuppressed: 1 });
  });

  it('refuses to change a contact’s e-mail to a suppressed address, but keeps editing a suppressed contact', async () => {
    await post(a, '/api/suppressions', { emails: ['proibido@exemplo.com'] });
    const contact = (await post(a, '/api/contacts', { email: 'troca@exemplo.com' })).json();
    const patch = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PATCH', url: `/api/contacts/${contact.id}`, headers: json(a), payload });
    const refused = await patch({ email: ' Proibido@Exemplo.com' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toContain('lista de supressão');
    expect((await t.app.inject({ url: `/api/contacts/${contact.id}`, headers: a.headers })).json().email).toBe(
      'troca@exemplo.com',
    );
    // The contact's own address suppressed later: the edit form sends it back unchanged, and that still saves.
    await post(a, '/api/suppressions', { emails: ['troca@exemplo.com'] });
    const renamed = await patch({ email: 'troca@exemplo.com', name: 'Troca' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().name).toBe('Troca');
  });

  it('takes out a manual entry, but never one the recipient caused (erasure)', async () => {
    await post(a, '/api/suppressions', { emails: ['engano@exemplo.com'] });
    const removed = await post(a, '/api/suppressions/remove', { email: 'ENGANO@exemplo.com' });
    expect(removed.statusCode).toBe(200);
    expect((await post(a, '/api/suppressions/lookup', { email: 'engano@exemplo.com' })).json().suppressed).toBe(false);
    expect((await post(a, '/api/contacts', { email: 'engano@exemplo.com' })).statusCode).toBe(201);
    const missing = await post(a, '/api/suppressions/remove', { email: 'engano@exemplo.com' });
    expect(missing.statusCode).toBe(404);

    const contact = (await post(a, '/api/contacts', { email: 'apagar@exemplo.com' })).json();
    await t.app.inject({ method: 'POST', url: `/api/contacts/${contact.id}/erase`, headers: a.headers });
    expect((await post(a, '/api/suppressions/lookup', { email: 'apagar@exemplo.com' })).json()).toMatchObject({
      suppressed: true,
      reason: 'erased',
    });
    const refused = await post(a, '/api/suppressions/remove', { email: 'apagar@exemplo.com' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toContain('não pode ser retirado manualmente');
    expect((await t.app.inject({ url: '/api/suppressions', headers: a.headers })).json().byReason.erased).toBe(1);
  });

  it('a bulk unsubscribe by the sender suppresses the addresses; no later import, re-add or edit of the sender lifts it', async () => {
    const c = await signUp(t, { verified: true });
    const list = (await post(c, '/api/lists', { name: 'Clientes' })).json();
    const id: Record<string, string> = {};
    for (const name of ['sai1', 'sai2', 'fica', 'manual', 'devolvido']) {
      const created = await post(c, '/api/contacts', { email: `${name}@exemplo.com`, listIds: [list.id] });
      expect(created.statusCode).toBe(201);
      id[name] = created.json().id;
    }
    // Suppressions of other reasons already there: they keep their reason.
    await post(c, '/api/suppressions', { emails: ['manual@exemplo.com'] });
    await t.database.db.execute(
      sql`insert into suppressions (account_id, email_hash, reason)
          values (${c.accountId}, ${hashEmail('devolvido@exemplo.com')}, 'bounced')`,
    );
    const audience = () => countRecipients(t.database.db, c.accountId, { includeListIds: [list.id] });
    expect(await audience()).toBe(3); // sai1, sai2, fica

    const bulk = (ids: string[]) => post(c, '/api/contacts/bulk', { action: 'unsubscribe', ids });
    const unsubscribed = await bulk([id.sai1, id.sai2, id.manual, id.devolvido] as string[]);
    expect(unsubscribed.json()).toEqual({ action: 'unsubscribe', affected: 4 });
    const summary = async () => (await t.app.inject({ url: '/api/suppressions', headers: c.headers })).json();
    // Each reason is kept beside the others (an unsubscribe covers marketing only; manual and bounced cover more).
    const expected = {
      total: 4,
      byReason: { erased: 0, unsubscribed: 4, bounced: 1, complained: 0, manual: 1 },
    };
    expect(await summary()).toEqual(expected);
    const reason = async (email: string) => (await post(c, '/api/suppressions/lookup', { email })).json().reason;
    expect(await reason('sai1@exemplo.com')).toBe('unsubscribed');
    expect(await reason('manual@exemplo.com')).toBe('manual');
    expect(await reason('devolvido@exemplo.com')).toBe('bounced');
    expect(await reason('fica@exemplo.com')).toBeNull();
    // Idempotent.
    expect((await bulk([id.sai1, id.sai2] as string[])).json().affected).toBe(0);
    expect(await summary()).toEqual(expected);
    expect(await audience()).toBe(1);

    // The sender cannot take it off, nor bring the contact back by editing it or adding it to a list again.
    expect((await post(c, '/api/suppressions/remove', { email: 'sai2@exemplo.com' })).statusCode).toBe(409);
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/contacts/${id.sai2}`,
      headers: json(c),
      payload: { status: 'subscribed' },
    });
    expect(patched.statusCode).toBe(409);
    expect(patched.json().error).toMatchObject({ code: 'consent_required', details: { status: 'unsubscribed' } });
    const addedBack = await post(c, '/api/contacts/bulk', { action: 'add_to_list', ids: [id.sai2], listId: list.id });
    expect(addedBack.json()).toMatchObject({ affected: 0, skipped: 1 });
    expect(await audience()).toBe(1);

    // Deleted, then typed in again or re-imported (CSV, updating existing contacts, into the list): skipped.
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/contacts/${id.sai1}`, headers: c.headers })).statusCode,
    ).toBe(204);
    const readded = await post(c, '/api/contacts', { email: 'sai1@exemplo.com', listIds: [list.id] });
    expect(readded.statusCode).toBe(409);
    expect(readded.json().error.message).toContain('lista de supressão');
    const up = (
      await t.app.inject({
        method: 'POST',
        url: '/api/imports',
        headers: { ...c.headers, 'content-type': 'text/csv' },
        payload: 'email\nSai1@Exemplo.com\nsai2@exemplo.com\nnova@exemplo.com\n',
      })
    ).json();
    const started = await post(c, `/api/imports/${up.importId}/start`, {
      mapping: { email: 'email' },
      listId: list.id,
      legalBasis: 'consent',
      consentSource: 'planilha antiga',
      updateExisting: true,
    });
    expect(started.statusCode).toBe(202);
    expect(await waitForImport(t, c, up.importId)).toMatchObject({ inserted: 1, skippedSuppressed: 2 });
    const found = (await t.app.inject({ url: '/api/contacts?search=sai', headers: c.headers })).json();
    expect(found.items.map((x: { email: string }) => x.email)).toEqual(['sai2@exemplo.com']);
    expect(await audience()).toBe(2); // fica + nova
    expect(await summary()).toEqual(expected);
    expect((await post(b, '/api/suppressions/lookup', { email: 'sai1@exemplo.com' })).json().suppressed).toBe(false);
  });

  it('a contact set to unsubscribed in the edit form leaves its lists and goes on the suppression list', async () => {
    const list = (await post(a, '/api/lists', { name: 'Edição' })).json();
    const contact = (await post(a, '/api/contacts', { email: 'edita@exemplo.com', listIds: [list.id] })).json();
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/contacts/${contact.id}`,
      headers: json(a),
      payload: { status: 'unsubscribed' },
    });
    expect(patched.statusCode).toBe(200);
    const rows = await t.database.db.execute(
      sql`select reason from suppressions where email_hash = ${hashEmail('edita@exemplo.com')}`,
    );
    expect((rows as unknown as { rows: { reason: string }[] }).rows).toEqual([{ reason: 'unsubscribed' }]);
    const memberships = await t.database.db.execute(
      sql`select status from list_memberships where contact_id = ${contact.id}`,
    );
    expect((memberships as unknown as { rows: { status: string }[] }).rows).toEqual([{ status: 'unsubscribed' }]);
  });

  it('is per account: another account neither sees nor changes it', async () => {
    await post(a, '/api/suppressions', { emails: ['isolado@exemplo.com'] });
    expect((await post(b, '/api/suppressions/lookup', { email: 'isolado@exemplo.com' })).json().suppressed).toBe(false);
    expect((await post(b, '/api/suppressions/remove', { email: 'isolado@exemplo.com' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/suppressions', headers: b.headers })).json().total).toBe(0);
    expect((await post(b, '/api/contacts', { email: 'isolado@exemplo.com' })).statusCode).toBe(201);
    expect((await post(a, '/api/suppressions/lookup', { email: 'isolado@exemplo.com' })).json().suppressed).toBe(true);
  });
});
