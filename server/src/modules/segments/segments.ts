import { randomUUID } from 'node:crypto';
import type {
  SegmentCreateInput,
  SegmentGroup,
  SegmentPreviewContact,
  SegmentUpdateInput,
  SegmentView,
} from '@carteiro/shared';
import { DEFAULT_TIME_ZONE } from '@carteiro/shared';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { asDb, type Db, hasSqlState, queryRows } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { notFound } from '../../http/not-found';
import { findAccount } from '../accounts/accounts.service';
import { accountContactCountSql, CONTACT_COUNT_FOLD_AT, foldContactCounts } from '../contacts/contact-counts';
import { findCustomFieldNamesAmong } from '../contacts/custom-field-names';
import { findListSummaries } from '../lists/list-directory';
import {
  type CompiledSegment,
  compileOnePass,
  compileSegment,
  compileSegmentPredicate,
  type SegmentContext,
} from './compile-segment';
import { foldEngagement } from './segment-engagement';
import { type SegmentRow, segmentFieldSlots, segments } from './segments.db';

/** work_mem of one segment read with contact sets: a hash of ~1M contact ids (≈ 50 MB) fits in one batch. */
const SEGMENT_WORK_MEM = '64MB';
export const PREVIEW_LIMIT = 20;

// What segments read of campaigns is handed in, never imported: campaigns sits above segments (a campaign's
// audience compiles segments). campaigns passes its own functions when it compiles an audience, `buildApp` passes
// them to the routes (ADR 0016).
/** The ids of the account's `limit` most recent sent campaigns, newest start first ("últimas N campanhas"). */
export type RecentSentCampaigns = (db: Db, accountId: string, limit: number) => Promise<string[]>;
/** The name of a draft or scheduled campaign of the account that targets the segment, or null. */
export type CampaignUsingSegment = (db: Db, accountId: string, segmentId: string) => Promise<string | null>;

function toView(row: SegmentRow): SegmentView {
  return {
    id: row.id,
    name: row.name,
    conditions: row.conditions,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function collect(tree: SegmentGroup, keys: Set<string>, listIds: Set<string>, lastN: { max: number }): void {
  for (const c of tree.conditions) {
    if (c.type === 'group') collect(c, keys, listIds, lastN);
    else if (c.type === 'engagement') lastN.max = Math.max(lastN.max, c.campaigns ?? 5);
    else if (c.type === 'field' && typeof c.field === 'object') keys.add(c.field.custom);
    else if (c.type === 'list') listIds.add(c.listId);
  }
}

/**
 * The context trees are compiled in: of the custom field keys and lists they name, those the account has (one
 * indexed query for the lists, one `fields ? key` probe per key — not a scan of every contact's keys), the
 * account's time zone, its last sent campaigns (their events and deliveries folded into segment_engagement first,
 * once each), the clock.
 */
export async function segmentContextFor(
  db: Db,
  accountId: string,
  trees: SegmentGroup[],
  recentSentCampaigns: RecentSentCampaigns,
  now: Date,
): Promise<SegmentContext> {
  const keys = new Set<string>();
  const wantedLists = new Set<string>();
  const lastN = { max: 0 };
  for (const tree of trees) collect(tree, keys, wantedLists, lastN);
  const known = await findCustomFieldNamesAmong(db, accountId, [...keys]);
  const slots = await findFieldSlots(db, accountId, [...known]);
  const ownLists = await findListSummaries(db, [...wantedLists], accountId);
  const account = await findAccount(db, accountId);
  const recent = lastN.max === 0 ? [] : await recentSentCampaigns(db, accountId, lastN.max);
  // Opened/clicked/não abriu over the last N: the events and deliveries of those campaigns must be in
  // segment_engagement.
  await foldEngagement(db, accountId, recent);
  return {
    recentCampaignIds: recent,
    accountId,
    customFields: new Map([...known].map((key) => [key, slots.get(key) ?? null])),
    listIds: new Set(ownLists.map((l) => l.id)),
    timeZone: account?.timeZone ?? DEFAULT_TIME_ZONE,
    now,
  };
}

/** The slots of those of `keys` that have columns of their own on the account's segment rows (ADR 0045). */
async function findFieldSlots(db: Db, accountId: string, keys: string[]): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .select({ key: segmentFieldSlots.key, slot: segmentFieldSlots.slot })
    .from(segmentFieldSlots)
    .where(and(eq(segmentFieldSlots.accountId, accountId), inArray(segmentFieldSlots.key, keys)));
  return new Map(rows.map((r) => [r.key, r.slot]));
}

/** The compiled query shape of a tree, checked against the account (unknown field or list → 400). */
async function compileFor(
  db: Db,
  accountId: string,
  tree: SegmentGroup,
  recentSentCampaigns: RecentSentCampaigns,
  now: Date,
  options?: { count?: boolean },
): Promise<CompiledSegment> {
  return compileSegment(tree, await segmentContextFor(db, accountId, [tree], recentSentCampaigns, now), options);
}

export async function findSegments(db: Db, accountId: string): Promise<SegmentView[]> {
  const rows = await db.select().from(segments).where(eq(segments.accountId, accountId)).orderBy(asc(segments.name));
  return rows.map(toView);
}

async function findSegmentRow(db: Db, accountId: string, id: string): Promise<SegmentRow> {
  const [row] = await db
    .select()
    .from(segments)
    .where(and(eq(segments.accountId, accountId), eq(segments.id, id)));
  if (!row) throw notFound('segment');
  return row;
}

export async function findSegment(db: Db, accountId: string, id: string): Promise<SegmentView> {
  return toView(await findSegmentRow(db, accountId, id));
}

export async function createSegment(
  db: Db,
  accountId: string,
  input: SegmentCreateInput,
  recentSentCampaigns: RecentSentCampaigns,
): Promise<SegmentView> {
  await compileFor(db, accountId, input.conditions, recentSentCampaigns, new Date());
  const [row] = await db
    .insert(segments)
    .values({ accountId, name: input.name, conditions: input.conditions })
    .returning();
  if (!row) throw new Error('segment insert returned nothing');
  return toView(row);
}

export async function updateSegment(
  db: Db,
  accountId: string,
  id: string,
  input: SegmentUpdateInput,
  recentSentCampaigns: RecentSentCampaigns,
): Promise<SegmentView> {
  await findSegmentRow(db, accountId, id);
  if (input.conditions) await compileFor(db, accountId, input.conditions, recentSentCampaigns, new Date());
  const [row] = await db
    .update(segments)
    .set({ ...input, updatedAt: new Date() })
    .where(and(eq(segments.accountId, accountId), eq(segments.id, id)))
    .returning();
  if (!row) throw notFound('segment');
  return toView(row);
}

/** Deletes a segment; 409 while a draft or scheduled campaign still targets it. */
export async function deleteSegment(
  db: Db,
  accountId: string,
  id: string,
  campaignUsingSegment: CampaignUsingSegment,
): Promise<void> {
  await findSegmentRow(db, accountId, id);
  const usedBy = await campaignUsingSegment(db, accountId, id);
  if (usedBy !== null) {
    throw new AppError('conflict', `A campanha "${usedBy}" usa este segmento. Tire-o da campanha antes de excluir.`);
  }
  await db.delete(segments).where(and(eq(segments.accountId, accountId), eq(segments.id, id)));
}

/**
 * How long one of the editor's counts or previews may run. A person waits a few seconds for a count; past this the
 * statement is stopped and the editor says why, instead of holding a PostgreSQL core for nobody (a worst-nesting
 * count at 10M contacts runs for a minute on two cores: docs/benchmarks.md). The campaign's own snapshot is not
 * bounded: it is not a read of this function.
 */
export const SEGMENT_READ_TIMEOUT_MS = 30_000;
/** The application_name prefix that tags a running segment read, so a cancel lands on it and on nothing else. */
export const SEGMENT_READ_TAG = 'carteiro:segment-read:';
/** SQLSTATE query_canceled: a statement timeout or a pg_cancel_backend. */
const QUERY_CANCELED = '57014';

export interface SegmentReadOptions {
  /**
   * Aborts when nobody waits for the answer any more (the editor's request closed): the statement is cancelled; a
   * cancel that fails is logged on `log` (the read then runs to its end).
   */
  abandon?: { signal: AbortSignal; log: Pick<Logger, 'warn'> };
  /** statement_timeout of the read; past it a pt-BR 503. None when absent. */
  timeoutMs?: number;
  /** Leave nested loops on even though the tree names sets (the preview's first try, previewSegment). */
  nestedLoops?: boolean;
}

/** What the editor's count and preview pass to readSegment: its bound, and the request's abandon signal. */
export type EditorReadOptions = Pick<SegmentReadOptions, 'abandon' | 'timeoutMs'>;

/**
 * Runs a read over a compiled segment in its own transaction with JIT off — a count over 1M contacts crosses
 * jit_above_cost and spent ~0.4 s compiling expressions it then ran once — and, when the tree names contact sets,
 * nested loops off — the planner cannot estimate conditions on custom fields (jsonb expressions get a fixed 0.5 %
 * selectivity), believes few contacts pass, and would probe or rescan each set once per contact instead of
 * hashing it once — and SEGMENT_WORK_MEM for its hashes: a set of a million contact ids hashed in the default
 * 4 MB spills in batches, and a DISTINCT whose group count the planner underestimates spilled for minutes
 * (ADR 0016, docs/benchmarks.md "Segments").
 */
export async function readSegment<T>(
  db: Db,
  segment: CompiledSegment,
  query: SQL,
  { abandon, timeoutMs, nestedLoops = false }: SegmentReadOptions = {},
): Promise<T[]> {
  const signal = abandon?.signal;
  signal?.throwIfAborted();
  const tag = `${SEGMENT_READ_TAG}${randomUUID()}`;
  // The read's settings, all transaction-local, set in the one statement that also tags the read and names its
  // backend (one round trip before the read, however many settings).
  const settings: Array<[string, string]> = [
    ['jit', 'off'],
    ['application_name', tag],
  ];
  if (segment.hasSets) {
    if (!nestedLoops) settings.push(['enable_nestloop', 'off']);
    settings.push(['work_mem', SEGMENT_WORK_MEM]);
  }
  if (timeoutMs !== undefined) settings.push(['statement_timeout', String(Math.max(1, Math.trunc(timeoutMs)))]);
  const setAll = sql.join(
    settings.map(([name, value]) => sql`set_config(${name}, ${value}, true)`),
    sql`, `,
  );
  return db.transaction(async (tx) => {
    const [session] = await queryRows<{ pid: number }>(asDb(tx), sql`select pg_backend_pid() as pid, ${setAll}`);
    const cancel = () => cancelSegmentRead(db, session?.pid ?? 0, tag, abandon?.log);
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      signal?.throwIfAborted();
      return await queryRows<T>(asDb(tx), query);
    } catch (error) {
      if (!signal?.aborted && hasSqlState(error, QUERY_CANCELED)) {
        throw new AppError('service_unavailable', ERROR_TEXT.segments.readTimedOut);
      }
      throw error;
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  });
}

/**
 * Cancels the segment read tagged `tag` if backend `pid` still runs it. It goes over another pooled connection and
 * nobody awaits it: the read's own connection stays held until its statement ends, so a read that waited here for
 * a free connection could, with the pool full of abandoned reads, wait forever. The tag is the read's
 * transaction-local application_name, gone when its transaction ends, so the cancel cannot stop the statement of
 * the connection's next borrower. On PGlite (one connection, statements run to their end before anything else)
 * it runs after the read and finds nothing.
 */
function cancelSegmentRead(db: Db, pid: number, tag: string, log: Pick<Logger, 'warn'> | undefined): void {
  queryRows(
    db,
    sql`select pg_cancel_backend(pid) from pg_stat_activity where pid = ${pid} and application_name = ${tag}`,
  ).catch((error: unknown) => {
    log?.warn({ err: error, tag }, 'segment read could not be cancelled: it runs to its end');
  });
}

/** How many of the account's contacts match the tree (any status: the editor's live count). */
export async function countSegment(
  db: Db,
  accountId: string,
  tree: SegmentGroup,
  recentSentCampaigns: RecentSentCampaigns,
  now = new Date(),
  editor: EditorReadOptions = {},
): Promise<number> {
  const segment = await compileFor(db, accountId, tree, recentSentCampaigns, now, { count: true });
  const [row] = await readSegment<{ n: number | string; count_rows?: number | string }>(
    db,
    segment,
    segmentCountQuery(accountId, segment),
    editor,
  );
  if (Number(row?.count_rows ?? 0) > CONTACT_COUNT_FOLD_AT) await foldContactCounts(db, accountId);
  return Number(row?.n ?? 0);
}

/** The count of the account's contacts a compiled segment selects, as one query (run it with readSegment). */
export function segmentCountQuery(accountId: string, segment: CompiledSegment): SQL {
  const counted = segment.countSet;
  if (!counted) {
    return sql`select count(*)::int as n from ${segment.contacts} ${segment.joins}
                where c.account_id = ${accountId} and ${segment.where}`;
  }
  const inside = sql`(select count(*) from (${counted.set}) s)`;
  if (!counted.outside) return sql`select ${inside}::int as n`;
  // The account's contacts (their count's delta rows, contact-counts.ts) less the set; `count_rows` tells
  // countSegment when to fold the delta rows.
  return sql`select (t.contacts - ${inside})::int as n, t.count_rows from ${accountContactCountSql(accountId)} t`;
}

/**
 * How long the preview's first try may walk the newest contacts (below) before the hashed plan answers instead.
 */
export const PREVIEW_WALK_BUDGET_MS = 100;

/**
 * The first matches, newest first (the editor's preview). A tree with sets is first tried in the order
 * contacts_account_created_idx holds (both columns are NOT NULL, so NULLS LAST changes nothing but lets the index
 * give it) with nested loops on: the newest contacts are walked and each set probed by key until 20 match —
 * 1–50 ms where the hashed plan hashes every set whole and sorts every match (109–3,061 ms at 1M,
 * docs/benchmarks.md session 15). A sparse or empty segment makes that walk cover the account, so it gets
 * PREVIEW_WALK_BUDGET_MS. Then (and for a tree without sets: walked one contact at a time, an empty one read the
 * whole index and every row) the count's one pass answers (compileOnePass: the segment rows, or the contacts when
 * the tree reads only their own columns), keeping the 20 newest matches, then those contacts' rows are read —
 * joining every match to its contact and sorting them all took 1–34 s at 10M contacts where the count took 1–4 s
 * (docs/benchmarks.md, session 29).
 */
export async function previewSegment(
  db: Db,
  accountId: string,
  tree: SegmentGroup,
  recentSentCampaigns: RecentSentCampaigns,
  now = new Date(),
  editor: EditorReadOptions = {},
  walkBudgetMs = PREVIEW_WALK_BUDGET_MS,
): Promise<SegmentPreviewContact[]> {
  const ctx = await segmentContextFor(db, accountId, [tree], recentSentCampaigns, now);
  const segment = compileSegment(tree, ctx);
  if (segment.hasSets && walkBudgetMs < (editor.timeoutMs ?? Number.POSITIVE_INFINITY)) {
    try {
      return await readSegment<SegmentPreviewContact>(
        db,
        segment,
        sql`select c.id, c.email, c.name, c.status from ${segment.contacts} ${segment.joins}
             where c.account_id = ${accountId} and ${segment.where}
             order by c.created_at desc nulls last, c.id desc nulls last limit ${PREVIEW_LIMIT}`,
        { abandon: editor.abandon, timeoutMs: walkBudgetMs, nestedLoops: true },
      );
    } catch (error) {
      // Past the budget readSegment answers 503 (its only one); the request itself was not abandoned.
      if (!(error instanceof AppError && error.code === 'service_unavailable') || editor.abandon?.signal.aborted) {
        throw error;
      }
    }
  }
  const pass = compileOnePass(tree, ctx);
  return readSegment<SegmentPreviewContact>(
    db,
    pass,
    sql`select p.id, p.email, p.name, p.status from contacts p
         where p.account_id = ${accountId}
           and p.id in (select c.id from ${pass.contacts} ${pass.joins} where c.account_id = ${accountId} and ${pass.where}
                         order by c.created_at desc, c.id desc limit ${PREVIEW_LIMIT})
         order by p.created_at desc, p.id desc`,
    editor,
  );
}

/** 400 unless every id is a segment of the account (campaign audience). */
export async function assertOwnSegments(db: Db, accountId: string, ids: string[]): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const found = await db
    .select({ id: segments.id })
    .from(segments)
    .where(and(eq(segments.accountId, accountId), inArray(segments.id, unique)));
  if (found.length !== unique.length) throw new AppError('validation_failed', ERROR_TEXT.segments.unknownChosen);
}

/**
 * The account's segments `ids` as boolean conditions over contacts alias `c` (a campaign's audience, combined
 * there with lists and follow-ups). A segment deleted meanwhile is simply absent (deletion is refused while a
 * draft or scheduled campaign uses it).
 */
export async function segmentConditions(
  db: Db,
  accountId: string,
  ids: string[],
  recentSentCampaigns: RecentSentCampaigns,
  now = new Date(),
): Promise<SQL[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(segments)
    .where(and(eq(segments.accountId, accountId), inArray(segments.id, ids)));
  const ctx = await segmentContextFor(
    db,
    accountId,
    rows.map((r) => r.conditions),
    recentSentCampaigns,
    now,
  );
  return rows.map((r) => compileSegmentPredicate(r.conditions, ctx));
}
