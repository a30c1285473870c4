import type { SegmentCondition, SegmentGroup } from '@carteiro/shared';
import { type SQL, sql } from 'drizzle-orm';
import { AppError } from '../../../http/app-error';
import type { SegmentContext } from '../compile-segment';

/*
 * The segment compiler as it was before the contact sets became hash joins (kept for the equivalence test
 * only, segment-equivalence.test.ts): one boolean per condition, list and engagement conditions as correlated
 * sub-queries over message_events. The rewrite must select exactly the same contacts.
 */

/**
 * Compiles a validated condition tree (shared segmentTreeSchema) into one SQL boolean expression over the
 * contact alias `c` (contacts). Every value is a bound parameter; the only identifiers in the SQL are the fixed
 * ones written here (a custom field is `c.fields ->> $key`, its key a parameter). Text comparisons ignore case.
 * Dates and numbers in custom fields are text: a value that does not look like one simply does not match (no
 * cast can fail — the casts are guarded by a regular expression).
 */
export function compilePreviousSegment(tree: SegmentGroup, ctx: SegmentContext): SQL {
  return compileGroup(tree, ctx);
}

function compileGroup(group: SegmentGroup, ctx: SegmentContext): SQL {
  const parts = group.conditions.map((c) => (c.type === 'group' ? compileGroup(c, ctx) : compileCondition(c, ctx)));
  if (parts.length === 0) return sql`true`;
  return sql`(${sql.join(parts, group.match === 'all' ? sql` and ` : sql` or `)})`;
}

function fieldExpression(field: Extract<SegmentCondition, { type: 'field' }>['field'], ctx: SegmentContext): SQL {
  if (field === 'email') return sql`c.email`;
  if (field === 'name') return sql`coalesce(c.name, '')`;
  if (!ctx.customFields.has(field.custom)) {
    throw new AppError(
      'validation_failed',
      `Campo desconhecido: "${field.custom}". Escolha um campo dos seus contatos.`,
      {
        fields: [{ path: 'conditions', message: 'Campo desconhecido.' }],
      },
    );
  }
  return sql`coalesce(c.fields ->> ${field.custom}::text, '')`;
}

/** A custom field's text as AAAA-MM-DD when it is written AAAA-MM-DD[...] or DD/MM/AAAA; null otherwise. */
function isoDate(x: SQL): SQL {
  return sql`(case when btrim(${x}) ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}' then substr(btrim(${x}), 1, 10)
                   when btrim(${x}) ~ '^[0-9]{2}/[0-9]{2}/[0-9]{4}$'
                     then substr(btrim(${x}), 7, 4) || '-' || substr(btrim(${x}), 4, 2) || '-' || substr(btrim(${x}), 1, 2)
              end)`;
}

/** A field's text as a number (comma or dot decimals); null when it is not one. */
function numeric(x: SQL): SQL {
  return sql`(case when replace(btrim(${x}), ',', '.') ~ '^-?[0-9]{1,15}([.][0-9]{1,12})?$'
                   then replace(btrim(${x}), ',', '.')::numeric end)`;
}

/** The month (01–12) of `now` in the time zone. */
function monthIn(now: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone, month: '2-digit' }).format(now);
}

/** The account's N most recent sent campaigns, as a uuid[] parameter. */
function lastCampaigns(ctx: SegmentContext, n: number): SQL {
  return sql`${`{${ctx.recentCampaignIds.slice(0, n).join(',')}}`}::uuid[]`;
}

/** Contacts with a human (non-machine) event of this kind in the last N campaigns. */
function humanEvent(ctx: SegmentContext, kind: 'open' | 'click', lastN: number): SQL {
  // The campaign ids are the account's own (read scoped by account), so no account_id filter: it is not in
  // the index and would turn the index-only scan into heap fetches.
  return sql`select e.contact_id from message_events e
             where e.campaign_id = any(${lastCampaigns(ctx, lastN)}) and e.kind = ${kind}
               and not e.machine and e.contact_id is not null`;
}

function compileCondition(c: SegmentCondition, ctx: SegmentContext): SQL {
  switch (c.type) {
    case 'field': {
      const x = fieldExpression(c.field, ctx);
      const v = (c.value ?? '').trim();
      switch (c.operator) {
        case 'equals':
          return sql`lower(${x}) = lower(${v}::text)`;
        case 'not_equals':
          return sql`lower(${x}) <> lower(${v}::text)`;
        case 'contains':
          return sql`strpos(lower(${x}), lower(${v}::text)) > 0`;
        case 'not_contains':
          return sql`strpos(lower(${x}), lower(${v}::text)) = 0`;
        case 'starts_with':
          return sql`starts_with(lower(${x}), lower(${v}::text))`;
        case 'is_empty':
          return sql`btrim(${x}) = ''`;
        case 'is_not_empty':
          return sql`btrim(${x}) <> ''`;
        case 'number_eq':
        case 'number_gt':
        case 'number_gte':
        case 'number_lt':
        case 'number_lte': {
          const op = { number_eq: '=', number_gt: '>', number_gte: '>=', number_lt: '<', number_lte: '<=' }[c.operator];
          return sql`${numeric(x)} ${sql.raw(op)} ${v.replace(',', '.')}::numeric`;
        }
        case 'date_on':
          return sql`${isoDate(x)} = ${v}::text`;
        case 'date_before':
          return sql`${isoDate(x)} < ${v}::text`;
        case 'date_after':
          return sql`${isoDate(x)} > ${v}::text`;
        case 'birthday_this_month':
          // The month of the date written in the field against this month where the account is: 29 February
          // birthdays belong to February in every year, leap or not.
          return sql`substr(${isoDate(x)}, 6, 2) = ${monthIn(ctx.now, ctx.timeZone)}::text`;
      }
      break;
    }
    case 'list': {
      if (!ctx.listIds.has(c.listId)) throw new AppError('validation_failed', 'Uma das listas escolhidas não existe.');
      const member = sql`exists (select 1 from list_memberships lm where lm.contact_id = c.id
                         and lm.list_id = ${c.listId}::uuid and lm.status = 'subscribed')`;
      return c.operator === 'in' ? member : sql`not ${member}`;
    }
    case 'status':
      return c.operator === 'is' ? sql`c.status = ${c.value}::text` : sql`c.status <> ${c.value}::text`;
    case 'subscribed_at': {
      if (c.operator === 'in_last_days') {
        const since = new Date(ctx.now.getTime() - Number(c.value) * 86_400_000);
        return sql`c.created_at >= ${since.toISOString()}::timestamptz`;
      }
      const day = sql`(c.created_at at time zone ${ctx.timeZone}::text)::date`;
      return c.operator === 'before' ? sql`${day} < ${c.value}::date` : sql`${day} > ${c.value}::date`;
    }
    case 'engagement': {
      const n = c.campaigns ?? 5;
      switch (c.operator) {
        case 'opened_any':
          return sql`c.id in (${humanEvent(ctx, 'open', n)})`;
        case 'clicked_any':
          return sql`c.id in (${humanEvent(ctx, 'click', n)})`;
        case 'opened_none':
          // Received at least one of the last N campaigns and opened none of them. NOT EXISTS, not NOT IN: the
          // planner turns it into an anti-join (or index probes inside an OU); NOT IN over a million openers
          // would not fit a hashed subplan and be re-scanned per contact.
          return sql`(c.id in (select m.contact_id from messages m where m.account_id = ${ctx.accountId}
                                 and m.status = 'sent' and m.campaign_id = any(${lastCampaigns(ctx, n)}))
                      and not exists (select 1 from message_events e
                                       where e.campaign_id = any(${lastCampaigns(ctx, n)}) and e.kind = 'open'
                                         and not e.machine and e.contact_id = c.id))`;
        case 'never_opened':
          return sql`not exists (select 1 from message_events e where e.contact_id = c.id
                                   and e.account_id = ${ctx.accountId} and e.kind = 'open' and not e.machine)`;
      }
    }
  }
  throw new AppError('validation_failed', 'Condição inválida.');
}
