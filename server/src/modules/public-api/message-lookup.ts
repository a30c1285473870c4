import type { ApiKeyMode, MessageDetail, MessageListQuery, MessageSummary } from '@carteiro/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import { notFound } from '../../http/not-found';

/**
 * The lookup of transactional messages (public API `GET /messages/{id}` and `GET /messages`): a read over the
 * sending engine's rows (`messages` of the account's transactional stream, `transactional_messages`) and the
 * tracking module's `message_events`. Writes nothing. Every query is scoped by the account and by its stream, so a
 * campaign message or another account's message is never found (404).
 */

const ISO = (column: SQL) => sql`to_char(${column} at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The lookup status of the row `m` (see MESSAGE_LOOKUP_STATUSES), in SQL so the list can filter by it. */
const STATUS_SQL = sql`case
  when m.skip_reason = 'sandbox' then case when t.cancelled_at is not null then 'cancelled'
                                          when t.send_at > now() then 'scheduled' else 'delivered' end
  when m.status = 'skipped' then case m.skip_reason when 'suppressed' then 'suppressed'
                                                    when 'message_cancelled' then 'cancelled' else 'failed' end
  when m.status = 'queued' then case when m.attempts > 0 then 'deferred'
                                     when t.send_at > now() then 'scheduled' else 'queued' end
  when m.status = 'failed' then case when m.smtp_code >= 500 then 'bounced' else 'failed' end
  when exists (select 1 from message_events b where b.message_id = m.id and b.kind = 'bounce'
                and b.bounce_kind = 'hard') then 'bounced'
  else 'delivered' end`;

interface Row {
  id: number | string;
  status: MessageSummary['status'];
  stream: MessageSummary['stream'] | null;
  recipient_kind: MessageSummary['recipientKind'] | null;
  copy_of: number | string | null;
  email: string;
  from_email: string | null;
  subject: string | null;
  tags: string[] | null;
  metadata: Record<string, string> | string | null;
  cost_millis: number | string | null;
  attachments: number | string | null;
  attempts: number | string;
  created_at: string;
  sent_at: string | null;
  send_at: string | null;
  cancelled_at: string | null;
  next_attempt_at: string | null;
  response: string | null;
  skip_reason: string | null;
  raw_status: string;
}

function select(where: SQL, limit: number): SQL {
  return sql`select m.id, ${STATUS_SQL} as status, t.category as stream, t.recipient_kind, t.copy_of, m.email,
                    t.from_email, t.subject, t.tags, t.metadata, t.cost_millis, m.attempts, m.response,
                    m.skip_reason, m.status as raw_status,
                    (select f.attachment_count from transactional_messages f
                      where f.message_id = coalesce(t.copy_of, t.message_id)) as attachments,
                    ${ISO(sql`m.created_at`)} as created_at, ${ISO(sql`m.sent_at`)} as sent_at,
                    ${ISO(sql`t.send_at`)} as send_at,
                    ${ISO(sql`t.cancelled_at`)} as cancelled_at,
                    case when m.status = 'queued' and m.attempts > 0 then ${ISO(sql`m.next_attempt_at`)} end
                      as next_attempt_at
               from messages m
               left join transactional_messages t on t.message_id = m.id
              where ${where}
              order by m.id desc
              limit ${limit}`;
}

/**
 * The account's transactional stream (one per account; none until its first send), as a key of `mode` sees it: a
 * test key sees only the messages test keys sent (skip reason `sandbox`), a live key never sees them (ADR 0035).
 * A stream's messages have no contact: stated, it lets a list by recipient read messages_stream_recipient_idx, a
 * live key's list (by date or not) messages_stream_walk_idx and a test key's messages_sandbox_idx, instead of walking
 * every message of the account's past.
 */
const streamOf = (accountId: string, mode: ApiKeyMode) =>
  sql`${streamIds(accountId, mode)} and m.account_id = ${accountId}::uuid`;

/** The stream's messages as its indexes hold them (the campaign is the account's, so are its messages). */
const streamIds = (accountId: string, mode: ApiKeyMode) =>
  sql`m.campaign_id = (select c.id from campaigns c where c.created_by = ${accountId}::uuid
                                                      and c.kind = 'transactional')
      and m.contact_id is null
      and ${mode === 'test' ? sql`m.skip_reason = 'sandbox'` : sql`m.skip_reason is distinct from 'sandbox'`}`;

function summary(row: Row): MessageSummary {
  const status = row.status;
  return {
    id: String(row.id),
    status,
    stream: row.stream ?? 'transactional',
    recipientKind: row.recipient_kind ?? 'to',
    copyOf: row.copy_of === null ? null : String(row.copy_of),
    to: row.email,
    from: row.from_email ?? '',
    subject: row.subject ?? '',
    tags: row.tags ?? [],
    metadata: (typeof row.metadata === 'string' ? JSON.parse(row.metadata) : row.metadata) ?? {},
    // A message that ended failed or skipped was refunded (ADR 0018), or never charged (suppressed at request).
    costMillis: row.raw_status === 'failed' || row.raw_status === 'skipped' ? 0 : Number(row.cost_millis ?? 0),
    attachments: Number(row.attachments ?? 0),
    attempts: Number(row.attempts),
    sandbox: row.skip_reason === 'sandbox',
    createdAt: row.created_at,
    sentAt: row.sent_at,
    sendAt: row.send_at,
    nextAttemptAt: row.next_attempt_at,
  };
}

/** One message of the account, with its timeline; 404 when it is not one of the account's API messages. */
export async function findMessage(db: Db, accountId: string, mode: ApiKeyMode, id: string): Promise<MessageDetail> {
  const [row] = await queryRows<Row>(db, select(sql`${streamOf(accountId, mode)} and m.id = ${id}::bigint`, 1));
  if (!row) throw notFound('message');
  const message = summary(row);
  const events: MessageDetail['events'] = [{ type: 'queued', at: message.createdAt, detail: null }];
  // A scheduled send: accepted now, due at sendAt (then delivered or cancelled before it).
  if (message.sendAt) events.push({ type: 'scheduled', at: message.createdAt, detail: message.sendAt });
  if (message.status === 'scheduled') {
    // Nothing else has happened yet.
  } else if (message.status === 'cancelled') {
    events.push({ type: 'cancelled', at: row.cancelled_at, detail: row.response });
  } else if (message.sandbox) {
    // Nothing went out: "delivered" is what a live key would read, when it would have gone (accepted, or sendAt).
    events.push({ type: 'delivered', at: message.sendAt ?? message.createdAt, detail: row.response });
  } else if (message.status === 'suppressed') {
    // Suppressed at the request (never charged): at acceptance. Charged, it was skipped later, when the engine
    // claimed it (a scheduled or deferred message whose address was suppressed meanwhile): the engine does not
    // record the moment of a skip.
    const atRequest = Number(row.cost_millis ?? 0) === 0;
    events.push({ type: 'suppressed', at: atRequest ? message.createdAt : null, detail: row.response });
  } else if (row.sent_at) {
    events.push({ type: 'delivered', at: row.sent_at, detail: row.response });
  } else if (message.status === 'bounced' || message.status === 'failed') {
    events.push({ type: message.status, at: null, detail: row.response ?? row.skip_reason });
  }
  const after = await queryRows<{
    kind: 'open' | 'click' | 'unsubscribe' | 'bounce' | 'complaint';
    at: string;
    machine: boolean;
    bounce_kind: string | null;
    detail: string | null;
    url: string | null;
  }>(
    db,
    sql`select e.kind, ${ISO(sql`e.created_at`)} as at, e.machine, e.bounce_kind, e.detail, l.url
          from message_events e left join campaign_links l on l.id = e.link_id
         where e.message_id = ${id}::bigint and e.account_id = ${accountId}::uuid
         order by e.created_at, e.id
         limit 500`,
  );
  for (const e of after) {
    if (e.kind === 'open') events.push({ type: 'opened', at: e.at, detail: null, machine: e.machine });
    else if (e.kind === 'click')
      events.push({ type: 'clicked', at: e.at, detail: null, url: e.url ?? '', machine: e.machine });
    else if (e.kind === 'bounce')
      events.push({ type: 'bounced', at: e.at, detail: [e.bounce_kind, e.detail].filter(Boolean).join(': ') || null });
    else if (e.kind === 'complaint') events.push({ type: 'complained', at: e.at, detail: e.detail });
    else events.push({ type: 'unsubscribed', at: e.at, detail: e.detail });
  }
  return { ...message, events };
}

/** A page of the account's messages, newest first (keyset on the id: ids grow with time), filtered. */
export async function findMessagePage(
  db: Db,
  accountId: string,
  mode: ApiKeyMode,
  query: MessageListQuery,
): Promise<{ items: MessageSummary[]; nextCursor: string | null }> {
  const limit = query.limit ?? 50;
  // The conditions on the stream's own columns (id and date), and those that read the message's row or its
  // transactional_messages row.
  const walk: SQL[] = [];
  if (query.cursor) walk.push(sql`m.id < ${query.cursor}::bigint`);
  if (query.since) walk.push(sql`m.created_at >= ${new Date(query.since).toISOString()}::timestamptz`);
  if (query.until) walk.push(sql`m.created_at < ${new Date(query.until).toISOString()}::timestamptz`);
  const row: SQL[] = [];
  if (query.recipient) row.push(sql`m.email = ${query.recipient}`);
  if (query.status?.length) row.push(sql`(${STATUS_SQL}) = any(${`{${query.status.join(',')}}`}::text[])`);
  if (query.tag) row.push(sql`${query.tag} = any(t.tags)`);
  if (query.stream) row.push(sql`t.category = ${query.stream}`);
  const conditions = [streamOf(accountId, mode), ...walk, ...row];
  if (row.length === 0) {
    // The page's ids first, from the stream's own columns only: for a live key an index-only walk of
    // messages_stream_walk_idx, which the planner takes over walking messages_pkey through the campaigns' messages,
    // however the stream's ids mix with theirs.
    conditions.push(
      sql`m.id in (select m.id from messages m where ${sql.join([streamIds(accountId, mode), ...walk], sql` and `)}
                    order by m.id desc limit ${limit + 1})`,
    );
  }
  const rows = await queryRows<Row>(db, select(sql.join(conditions, sql` and `), limit + 1));
  const page = rows.slice(0, limit).map(summary);
  return { items: page, nextCursor: rows.length > limit ? (page[page.length - 1]?.id ?? null) : null };
}

/**
 * The message as rendered for its recipient (subject, HTML and text stored when it was accepted): what a test key's
 * message would have looked like, or what a live one carried. 404 as findMessage.
 */
export async function findMessageContent(
  db: Db,
  accountId: string,
  mode: ApiKeyMode,
  id: string,
): Promise<{ id: string; subject: string; html: string; text: string }> {
  const [row] = await queryRows<{ id: number | string; subject: string; html: string; text: string }>(
    db,
    sql`select m.id, t.subject, t.html, t.text
          from messages m join transactional_messages t on t.message_id = m.id
         where ${streamOf(accountId, mode)} and m.id = ${id}::bigint`,
  );
  if (!row) throw notFound('message');
  return { id: String(row.id), subject: row.subject, html: row.html, text: row.text };
}
