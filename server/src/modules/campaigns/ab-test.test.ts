import { type AbTestInput, abTestSize } from '@carteiro/shared';
import { eq, sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import type { TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import type { SendingEngine } from '../../worker/sending-engine';
import { ledgerEntries } from '../billing/billing.db';
import { runEngineUntil, useEngineHarness } from '../sending/testing/engine-harness';
import {
  campaignStatus,
  createListWithContacts,
  createReadyCampaign,
  creditAccount,
  TEST_TEMPLATE,
  testSenderSettings,
} from '../sending/testing/send-fixtures';
import type { SmtpSink } from '../sending/testing/smtp-sink';
import { decideAbTest, decideDueAbTests } from './ab-test';
import { campaignSends } from './campaign-sends.db';

const emailsOf = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}@destino.com.br`);
const SUBJECTS = ['Assunto A', 'Assunto B', 'Assunto C'];
const LATER = () => new Date(Date.now() + 73 * 3_600_000);

describe.each(DATABASE_KINDS)('A/B tests on %s', (kind) => {
  const engine = useEngineHarness(kind);
  let t: TestApp;
  let sink: SmtpSink;
  let db: Db;
  beforeAll(() => {
    ({ t, db, sink } = engine);
  });

  const newSender = (workerId?: string) =>
    engine.newSender({ settings: testSenderSettings({ batchSize: 7 }), workerId });

  /** Ticks the senders (all at once) until `done` holds. */
  const runUntil = (list: SendingEngine[], done: () => Promise<boolean>, what: string, ms = 15_000) =>
    runEngineUntil(list, done, what, { ms, pauseMs: 0 });

  const statusOf = async (id: string) => (await campaignStatus(db, id))?.status;

  async function abCampaign(n: number, prefix: string, abTest: AbTestInput, credit = 1_000_000) {
    const user = await signUp(t, { verified: true });
    await creditAccount(db, user.accountId, credit);
    const emails = emailsOf(prefix, n);
    const { listId } = await createListWithContacts(db, user.accountId, emails, { cidade: 'Natal' });
    const id = await createReadyCampaign(db, user.accountId, { includeListIds: [listId], subject: SUBJECTS[0] });
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/campaigns/${id}`,
      headers: user.headers,
      payload: { abTest },
    });
    expect(res.statusCode, res.body).toBe(200);
    return { user, id, emails };
  }

  const send = async (user: SignedInUser, id: string) => {
    const res = await t.app.inject({ method: 'POST', url: `/api/campaigns/${id}/send`, headers: user.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { recipients: number; reservedMillis: number };
  };

  const threeVariants = (overrides: Partial<AbTestInput> = {}): AbTestInput => ({
    variants: [{ subject: SUBJECTS[1] as string }, { subject: SUBJECTS[2] as string, fromName: 'Equipe C' }],
    testPercent: 20,
    criterion: 'opens',
    waitHours: 2,
    ...overrides,
  });

  async function variantsOf(id: string) {
    return queryRows<{ email: string; variant: number | null; status: string; id: number }>(
      db,
      sql`select email, variant, status, id from messages where campaign_id = ${id} order by id`,
    );
  }

  /** What the relay received for these recipients: address → subjects (one per delivery) and From names. */
  async function received(prefix: string) {
    const byRecipient = new Map<string, { subjects: string[]; from: string[] }>();
    for (const m of sink.messages.filter((x) => x.to.startsWith(prefix))) {
      const parsed = await simpleParser(m.raw);
      const entry = byRecipient.get(m.to) ?? { subjects: [], from: [] };
      entry.subjects.push(parsed.subject ?? '');
      entry.from.push(parsed.from?.value[0]?.name ?? '');
      byRecipient.set(m.to, entry);
    }
    return byRecipient;
  }

  async function event(messageIds: number[], kindOf: 'open' | 'click', machine: boolean) {
    if (messageIds.length === 0) return;
    await db.execute(
      sql`insert into message_events (message_id, campaign_id, account_id, contact_id, kind, machine)
          select m.id, m.campaign_id, m.account_id, m.contact_id, ${kindOf}, ${machine} from messages m
           where m.id in (${sql.join(
             messageIds.map((i) => sql`${i}`),
             sql`, `,
           )})`,
    );
  }

  it('refuses a malformed A/B test in pt-BR and a fifth variant', async () => {
    const user = await signUp(t, { verified: true });
    const { listId } = await createListWithContacts(db, user.accountId, emailsOf('val', 2), { cidade: 'Natal' });
    const id = await createReadyCampaign(db, user.accountId, { includeListIds: [listId] });
    const patch = (abTest: unknown) =>
      t.app.inject({ method: 'PATCH', url: `/api/campaigns/${id}`, headers: user.headers, payload: { abTest } });
    const five = await patch(
      threeVariants({ variants: [{ subject: 'B' }, { subject: 'C' }, { subject: 'D' }, { subject: 'E' }] }),
    );
    expect(five.statusCode).toBe(400);
    expect(five.json().error.message).toContain('No máximo 4 variantes');
    const share = await patch(threeVariants({ testPercent: 80 }));
    expect(share.statusCode).toBe(400);
    expect(share.json().error.message).toContain('no máximo 50%');
    const noSubject = await patch(threeVariants({ variants: [{ subject: ' ' }] }));
    expect(noSubject.statusCode).toBe(400);
    expect(noSubject.json().error.message).toContain('Informe o assunto de cada variante.');
    const badLiquid = await patch(threeVariants({ variants: [{ subject: 'Oi {{ contato.nome ' }] }));
    expect(badLiquid.statusCode).toBe(400);
    // Content of its own must carry the unsubscribe link, like the campaign's.
    const ok = await patch(threeVariants({ variants: [{ subject: 'B', template: '<p>Sem link</p>' }] }));
    expect(ok.statusCode).toBe(200);
    const sendRes = await t.app.inject({ method: 'POST', url: `/api/campaigns/${id}/send`, headers: user.headers });
    // The campaign's stored content is what is missing: 409 campaign_not_ready, as for the campaign's own link.
    expect(sendRes.statusCode).toBe(409);
    expect(sendRes.json().error.code).toBe('campaign_not_ready');
    expect(sendRes.json().error.message).toContain('descadastr');
    // Decided by clicks, clicks must be tracked.
    await patch(threeVariants({ criterion: 'clicks' }));
    await t.app.inject({
      method: 'PATCH',
      url: `/api/campaigns/${id}`,
      headers: user.headers,
      payload: { trackClicks: false },
    });
    const untracked = await t.app.inject({ method: 'POST', url: `/api/campaigns/${id}/send`, headers: user.headers });
    expect(untracked.statusCode).toBe(409);
    expect(untracked.json().error.code).toBe('campaign_not_ready');
    expect(untracked.json().error.message).toContain('ligue o rastreamento de cliques');
    // Another account can neither read nor change it.
    const other = await signUp(t, { verified: true });
    const foreign = await t.app.inject({
      method: 'PATCH',
      url: `/api/campaigns/${id}`,
      headers: other.headers,
      payload: { abTest: threeVariants() },
    });
    expect(foreign.statusCode).toBe(404);
    const foreignReport = await t.app.inject({
      method: 'GET',
      url: `/api/campaigns/${id}/report`,
      headers: other.headers,
    });
    expect(foreignReport.statusCode).toBe(404);
  });

  it('previews and test-sends each variant (subject and own content); a variant the campaign lacks is a 400', async () => {
    const own = TEST_TEMPLATE.replace('Promoção de verão', 'Conteúdo da variante C');
    const { user, id } = await abCampaign(
      2,
      'prev',
      threeVariants({ variants: [{ subject: 'Assunto B' }, { subject: 'Assunto C', template: own }] }),
    );
    const preview = (variant?: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/campaigns/${id}/preview`,
        headers: user.headers,
        payload: variant === undefined ? {} : { variant },
      });
    expect((await preview()).json().subject).toBe('Assunto A');
    expect((await preview(1)).json().subject).toBe('Assunto B');
    expect((await preview(1)).json().html).toContain('Promoção de verão');
    expect((await preview(2)).json().html).toContain('Conteúdo da variante C');
    const missing = await preview(3);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toBe('Esta campanha não tem a variante D.');
    const sent = await t.app.inject({
      method: 'POST',
      url: `/api/campaigns/${id}/test-send`,
      headers: user.headers,
      payload: { emails: ['revisora@example.com'], variant: 2 },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const mail = (await t.sentMail()).find((m) => m.to.includes('revisora@example.com'));
    expect(mail?.subject).toBe('[TESTE] Assunto C');
    expect(mail?.text).toContain('Conteúdo da variante C');
  });

  it('splits the test share evenly in the snapshot, holds the rest, sends only the test and waits', async () => {
    const n = 100;
    const { user, id } = await abCampaign(n, 'split', threeVariants());
    const started = await send(user, id);
    expect(started.recipients).toBe(n); // the whole audience is reserved up front
    const rows = await variantsOf(id);
    const test = rows.filter((r) => r.variant !== null);
    expect(test).toHaveLength(abTestSize(n, 20, 3));
    expect(test).toHaveLength(20);
    const sizes = [0, 1, 2].map((v) => test.filter((r) => r.variant === v).length);
    expect(sizes).toEqual([7, 7, 6]);
    // The test share is the first ids: the held rest comes after it, so the cursor stops at the boundary.
    const boundary = Math.max(...test.map((r) => r.id));
    expect(rows.filter((r) => r.variant === null).every((r) => r.id > boundary)).toBe(true);
    const [cs] = await db.select().from(campaignSends).where(eq(campaignSends.campaignId, id));
    expect(cs?.lastMessageId).toBe(boundary);
    expect(cs?.abTestLastMessageId).toBe(boundary);
    expect(cs?.abHeldLastMessageId).toBe(Math.max(...rows.map((r) => r.id)));

    const sender = newSender();
    await runUntil([sender], async () => (await received('split')).size >= 20, 'the test share');
    for (let i = 0; i < 5; i++) await sender.tick(); // nothing more goes out while the test waits
    const got = await received('split');
    expect(got.size).toBe(20);
    const variantByEmail = new Map(rows.map((r) => [r.email, r.variant]));
    for (const [email, { subjects, from }] of got) {
      const variant = variantByEmail.get(email) as number;
      expect(subjects).toEqual([SUBJECTS[variant]]);
      expect(from).toEqual([variant === 2 ? 'Equipe C' : 'Loja Ação']);
    }
    expect(await statusOf(id)).toBe('sending');
    // Not due yet: the tick's decision does nothing.
    expect((await decideDueAbTests(db)).filter((d) => d.campaignId === id)).toEqual([]);
    const progress = await t.app.inject({ method: 'GET', url: `/api/campaigns/${id}/progress`, headers: user.headers });
    expect(progress.json()).toMatchObject({ status: 'sending', sent: 20, remaining: 80, estimatedEnd: null });
    expect(progress.json().abTestDecideAt).toBe(cs?.abDecideAt?.toISOString());
    const report = await t.app.inject({ method: 'GET', url: `/api/campaigns/${id}/report`, headers: user.headers });
    const ab = report.json().abTest;
    expect(ab).toMatchObject({ criterion: 'opens', testPercent: 20, winner: null, held: 80 });
    expect(ab.reason).toContain('Teste em andamento');
    expect(ab.variants.map((v: { recipients: number }) => v.recipients)).toEqual([7, 7, 6]);
  });

  it('picks the winner by unique human opens (machine opens do not count), once, and sends it to the rest', async () => {
    const n = 60;
    const { user, id, emails } = await abCampaign(n, 'win', threeVariants({ testPercent: 30 }));
    await send(user, id);
    const sender = newSender();
    await runUntil([sender], async () => (await received('win')).size >= 18, 'the test share');
    const rows = await variantsOf(id);
    const idsOf = (v: number) => rows.filter((r) => r.variant === v).map((r) => r.id);
    // A: every message opened by a machine (Apple MPP) only; B: 3 of 6 human opens (one opened twice);
    // C: 2 of 6 human opens and some clicks.
    await event(idsOf(0), 'open', true);
    await event(idsOf(1).slice(0, 3), 'open', false);
    await event(idsOf(1).slice(0, 1), 'open', false);
    await event(idsOf(2).slice(0, 2), 'open', false);
    await event(idsOf(2).slice(0, 4), 'click', false);

    // Two workers decide at the same moment: exactly one decision.
    const later = LATER();
    const [a, b] = await Promise.all([decideAbTest(db, id, later), decideAbTest(db, id, later)]);
    const decided = [a, b].filter(Boolean);
    expect(decided).toHaveLength(1);
    expect(decided[0]).toMatchObject({ winner: 1, released: n - 18 });
    expect(decided[0]?.reason).toBe(
      'Variante B venceu: 50,0% de aberturas contra 0,0% (A) e 33,3% (C) (aberturas automáticas não contam).',
    );
    expect(await decideAbTest(db, id, later)).toBeNull();
    const after = await variantsOf(id);
    expect(after.filter((r) => r.variant === 1)).toHaveLength(6 + n - 18);
    expect(after.filter((r) => r.variant === null)).toHaveLength(0);

    await runUntil([sender], async () => (await statusOf(id)) === 'sent', 'the campaign to finish');
    const got = await received('win');
    expect([...got.keys()].sort()).toEqual([...emails].sort());
    const variantByEmail = new Map(after.map((r) => [r.email, r.variant]));
    for (const [email, { subjects }] of got) expect(subjects).toEqual([SUBJECTS[variantByEmail.get(email) as number]]);
    // The ledger charged each message once: one send entry for all of them.
    const entries = (await db.select().from(ledgerEntries).where(eq(ledgerEntries.campaignId, id))).filter(
      (e) => e.kind === 'send',
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]?.emailCount).toBe(n);

    const report = await t.app.inject({ method: 'GET', url: `/api/campaigns/${id}/report`, headers: user.headers });
    const ab = report.json().abTest;
    expect(ab).toMatchObject({ winner: 1, held: 0 });
    expect(ab.reason).toContain('Variante B venceu');
    expect(ab.variants[0]).toMatchObject({ letter: 'A', delivered: 6, uniqueOpens: 0, openRate: 0 });
    expect(ab.variants[1]).toMatchObject({ letter: 'B', delivered: 6, uniqueOpens: 3, openRate: 0.5 });
    expect(ab.variants[2]).toMatchObject({ letter: 'C', uniqueClicks: 4, fromName: 'Equipe C' });
    // The per-recipient report and its CSV say which variant each recipient got.
    const csv = await t.app.inject({ method: 'GET', url: `/api/campaigns/${id}/report.csv`, headers: user.headers });
    const lines = csv.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]?.endsWith(';Reclamação;Motivo de não envio;Variante')).toBe(true);
    const letterByEmail = new Map(lines.slice(1).map((l) => [l.split(';')[0], l.split(';').at(-1)]));
    for (const r of after) expect(letterByEmail.get(r.email)).toBe(['A', 'B', 'C'][r.variant as number]);
    const page = await t.app.inject({
      method: 'GET',
      url: `/api/campaigns/${id}/recipients?limit=100`,
      headers: user.headers,
    });
    const items = page.json().items as Array<{ email: string; variant: string }>;
    expect(items).toHaveLength(n);
    for (const item of items) expect(item.variant).toBe(letterByEmail.get(item.email));
  });

  it('by clicks, and a tie goes to the lowest variant', async () => {
    const { user, id } = await abCampaign(20, 'clk', {
      variants: [{ subject: SUBJECTS[1] as string }],
      testPercent: 40,
      criterion: 'clicks',
      waitHours: 1,
    });
    await send(user, id);
    const sender = newSender();
    await runUntil([sender], async () => (await received('clk')).size >= 8, 'the test share');
    const rows = await variantsOf(id);
    const idsOf = (v: number) => rows.filter((r) => r.variant === v).map((r) => r.id);
    await event(idsOf(0).slice(0, 1), 'click', false);
    await event(idsOf(1).slice(0, 1), 'click', false);
    await event(idsOf(1), 'open', false); // opens do not matter for a clicks test
    const result = await decideAbTest(db, id, LATER());
    expect(result).toMatchObject({ winner: 0 });
    expect(result?.reason).toBe('Empate em 25,0% de cliques: vence a variante A, a primeira das empatadas.');
  });

  it('a pause holds the decision until the campaign is resumed', async () => {
    const { user, id } = await abCampaign(10, 'pau', threeVariants());
    await send(user, id);
    const pause = await t.app.inject({ method: 'POST', url: `/api/campaigns/${id}/pause`, headers: user.headers });
    expect(pause.statusCode, pause.body).toBe(200);
    expect(await decideAbTest(db, id, LATER())).toBeNull();
    const resume = await t.app.inject({ method: 'POST', url: `/api/campaigns/${id}/resume`, headers: user.headers });
    expect(resume.statusCode, resume.body).toBe(200);
    expect(await decideAbTest(db, id, LATER())).toMatchObject({ campaignId: id, winner: 0, released: 7 });
  });

  it('a cancel during the wait skips the held rest and charges the test only', async () => {
    const n = 30;
    const { user, id } = await abCampaign(n, 'canc', threeVariants());
    await send(user, id);
    const sender = newSender();
    await runUntil([sender], async () => (await received('canc')).size >= 6, 'the test share');
    const pause = await t.app.inject({ method: 'POST', url: `/api/campaigns/${id}/pause`, headers: user.headers });
    expect(pause.statusCode, pause.body).toBe(200);
    // (Other tests' campaigns in this database may be decided here; this one is paused, so not.)
    expect((await decideDueAbTests(db, LATER())).filter((d) => d.campaignId === id)).toEqual([]);
    const cancel = await t.app.inject({ method: 'POST', url: `/api/campaigns/${id}/cancel`, headers: user.headers });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(await decideAbTest(db, id, LATER())).toBeNull();
    await sender.tick();
    expect(await statusOf(id)).toBe('cancelled');
    const rows = await variantsOf(id);
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(6);
    expect(rows.filter((r) => r.status === 'skipped')).toHaveLength(n - 6);
    const [cs] = await db.select().from(campaignSends).where(eq(campaignSends.campaignId, id));
    expect(cs?.settledAt).not.toBeNull();
    const entries = (await db.select().from(ledgerEntries).where(eq(ledgerEntries.campaignId, id))).filter(
      (e) => e.kind === 'send',
    );
    expect(entries[0]?.emailCount).toBe(6);
    expect((await received('canc')).size).toBe(6);
  });

  it('a variant with content of its own: its recipients get that content, and see it in the browser view', async () => {
    const own = TEST_TEMPLATE.replace('Promoção de verão', 'Conteúdo exclusivo da variante B');
    const { user, id } = await abCampaign(8, 'own', {
      variants: [{ subject: SUBJECTS[1] as string, template: own }],
      testPercent: 50,
      criterion: 'clicks',
      waitHours: 1,
    });
    await send(user, id);
    const sender = newSender();
    await runUntil([sender], async () => (await received('own')).size >= 4, 'the test share');
    const rows = await queryRows<{ email: string; variant: number | null; token: string }>(
      db,
      sql`select email, variant, token from messages where campaign_id = ${id} and variant is not null`,
    );
    for (const m of sink.messages.filter((x) => x.to.startsWith('own'))) {
      const row = rows.find((r) => r.email === m.to);
      const html = String((await simpleParser(m.raw)).html);
      expect(html.includes('Conteúdo exclusivo da variante B')).toBe(row?.variant === 1);
      expect(html.includes('Promoção de verão')).toBe(row?.variant === 0);
    }
    for (const row of rows) {
      const view = await t.app.inject({ method: 'GET', url: `/api/public/campaigns/${id}/html?t=${row.token}` });
      expect(view.json()).toMatchObject({ subject: SUBJECTS[row.variant as number], personalised: true });
      expect(view.json().html.includes('Conteúdo exclusivo da variante B')).toBe(row.variant === 1);
    }
  });

  it('three workers share an A/B campaign: every recipient gets exactly one message, of its one variant', async () => {
    const n = 150;
    const { user, id, emails } = await abCampaign(n, 'tri', threeVariants({ testPercent: 50 }));
    await send(user, id);
    const workers = [newSender('w1'), newSender('w2'), newSender('w3')];
    await runUntil(workers, async () => (await received('tri')).size >= 75, 'the test share');
    // The wait is over for every worker at once: each tick tries to decide; one does.
    await db.execute(sql`update campaign_sends set ab_decide_at = now() where campaign_id = ${id}`);
    await runUntil(workers, async () => (await statusOf(id)) === 'sent', 'the campaign to finish');
    const rows = await variantsOf(id);
    expect(rows.every((r) => r.variant !== null && r.status === 'sent')).toBe(true);
    const got = await received('tri');
    expect([...got.keys()].sort()).toEqual([...emails].sort());
    const variantByEmail = new Map(rows.map((r) => [r.email, r.variant]));
    for (const [email, { subjects }] of got) expect(subjects).toEqual([SUBJECTS[variantByEmail.get(email) as number]]);
    const [claimed] = await queryRows<{ n: number }>(
      db,
      sql`select count(distinct claimed_by)::int as n from messages where campaign_id = ${id}`,
    );
    expect(claimed?.n).toBeGreaterThanOrEqual(2);
    expect(TEST_TEMPLATE).toContain('link_descadastro');
  });
});
