import { AUTOMATION_EVENT_KEY_VALUE_MAX, AUTOMATION_TIME_ZONE, type AutomationEventInput } from '@carteiro/shared';
import { type SQL, sql } from 'drizzle-orm';
import { asDb, type Db, queryRows } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ineligibilityReasonSql, reasonLabelSql } from '../contacts/recipient-eligibility';
import { SUBSCRIBE_TOKEN_TTL_SECONDS } from '../subscriptions/consent-requests';

/** `now + the wait of the automation's step 1` (alias s1), as SQL. */
export function afterWait(now: Date, step: string): ReturnType<typeof sql> {
  const s = sql.raw(step);
  return sql`(${now.toISOString()}::timestamptz + make_interval(
      days => case when ${s}.wait_unit = 'days' then ${s}.wait_amount else 0 end,
      hours => case when ${s}.wait_unit = 'hours' then ${s}.wait_amount else 0 end))`;
}

/**
 * List trigger: enrolls, in one statement for every active list automation, the contacts whose membership is
 * subscribed and became so since the automation was first activated — created then (single opt-in, imports,
 * "adicionar à lista", the API) or confirmed then (double opt-in: the membership was pending until the link was
 * followed; the confirmation time is on the subscription evidence). One place for every path that makes a
 * member; the unique (automation, contact, occurrence) key makes it once per contact, whatever the number of
 * workers or ticks. Cost: one pass over the list's memberships per tick (no created_at index on them: it would
 * be one more index write per imported membership). Returns how many contacts entered.
 */
export async function enrollListJoins(db: Db, now: Date): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`insert into automation_enrollments (automation_id, account_id, contact_id, occurrence, next_position, next_run_at)
        select a.id, a.account_id, m.contact_id, '', 1, ${afterWait(now, 's1')}
          from automations a
          join automation_steps s1 on s1.automation_id = a.id and s1.position = 1
          join list_memberships m on m.list_id = a.list_id and m.status = 'subscribed'
          join contacts c on c.id = m.contact_id and c.account_id = a.account_id and c.status = 'subscribed'
         where a.status = 'active' and a.trigger_type = 'list_joined' and a.enroll_since is not null
           and (m.created_at >= a.enroll_since
                -- Pending before the activation, confirmed after it: only memberships young enough for their
                -- confirmation link to have still been valid are probed (one index probe each, not the list).
                or (m.created_at >= a.enroll_since - make_interval(secs => ${SUBSCRIBE_TOKEN_TTL_SECONDS + 86_400})
                    and exists (select 1 from subscription_consents sc
                                 where sc.contact_id = m.contact_id and sc.list_id = m.list_id
                                   and sc.confirmed_at >= a.enroll_since)))
           and not exists (select 1 from automation_enrollments e
                            where e.automation_id = a.id and e.contact_id = m.contact_id and e.occurrence = '')
        on conflict (automation_id, contact_id, occurrence) do nothing
        returning id`,
  );
  return rows.length;
}

/** The local calendar of `now` in America/Sao_Paulo: AAAA-MM-DD, the year, month, day and hour. */
export function localDay(now: Date, timeZone = AUTOMATION_TIME_ZONE) {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const year = Number(get('year'));
  const month = get('month');
  const day = get('day');
  return { date: `${year}-${month}-${day}`, year, monthDay: `${month}-${day}`, hour: Number(get('hour')) };
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** The MM-DD values that fall on this local day: 29 February birthdays are celebrated on 28 February in non-leap years. */
export function monthDaysOn(year: number, monthDay: string): string[] {
  return monthDay === '02-28' && !isLeapYear(year) ? ['02-28', '02-29'] : [monthDay];
}

/** MM-DD of a date written AAAA-MM-DD[…], DD/MM/AAAA or DD/MM in a custom field; null otherwise. */
function monthDayOf(x: ReturnType<typeof sql>) {
  return sql`(case when btrim(${x}) ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}' then substr(btrim(${x}), 6, 5)
                   when btrim(${x}) ~ '^[0-9]{2}/[0-9]{2}(/[0-9]{4})?$'
                     then substr(btrim(${x}), 4, 2) || '-' || substr(btrim(${x}), 1, 2)
              end)`;
}

/**
 * Date trigger (birthday and other date fields): once a local day (America/Sao_Paulo), from the chosen hour on,
 * enrolls the subscribed contacts whose field's day and month are today's — once per contact and year (the
 * occurrence is the year). A worker down at the hour catches up later the same day; a day the worker missed
 * entirely is not sent late. `date_run_on` is set in the same transaction, so the day's scan runs once.
 */
export async function enrollDateTriggers(db: Db, now: Date): Promise<number> {
  const today = localDay(now);
  const due = await queryRows<{ id: string; account_id: string; date_field: string }>(
    db,
    sql`select id, account_id, date_field from automations
         where status = 'active' and trigger_type = 'date_field' and send_hour <= ${today.hour}
           and (date_run_on is null or date_run_on < ${today.date})`,
  );
  const days = monthDaysOn(today.year, today.monthDay);
  let enrolled = 0;
  for (const automation of due) {
    enrolled += await db.transaction(async (tx) => {
      const t = asDb(tx);
      const claimed = await queryRows<{ id: string }>(
        t,
        sql`update automations set date_run_on = ${today.date}
             where id = ${automation.id} and status = 'active'
               and (date_run_on is null or date_run_on < ${today.date}) returning id`,
      );
      if (claimed.length === 0) return 0; // another worker took this day
      const field = sql`(c.fields ->> ${automation.date_field}::text)`;
      const rows = await queryRows<{ id: string }>(
        t,
        sql`insert into automation_enrollments (automation_id, account_id, contact_id, occurrence, next_position, next_run_at)
            select ${automation.id}::uuid, c.account_id, c.id, ${String(today.year)}, 1, ${afterWait(now, 's1')}
              from contacts c
              join automation_steps s1 on s1.automation_id = ${automation.id}::uuid and s1.position = 1
             where c.account_id = ${automation.account_id}::uuid and c.status = 'subscribed'
               and ${monthDayOf(field)} = any(${`{${days.join(',')}}`}::text[])
            on conflict (automation_id, contact_id, occurrence) do nothing
            returning id`,
      );
      return rows.length;
    });
  }
  return enrolled;
}

/**
 * API event (`POST /api/v1/events`): the contact enters every active automation of the account listening for
 * this event name, once per contact and automation — or, when the automation enters once per event, once per
 * distinct value of the event's key (`data.pedido`), so a second order enters again and a retried one does not.
 * The event's `data` goes with it (merge values of the messages). 404 when the account has no contact with this address. Returns the automations entered.
 */
export async function recordAutomationEvent(
  db: Db,
  accountId: string,
  input: AutomationEventInput,
  now: Date = new Date(),
): Promise<{ enrolled: number; automationIds: string[] }> {
  const [contact] = await queryRows<{ id: string; status: string }>(
    db,
    sql`select id, status from contacts where account_id = ${accountId} and email = ${input.email}`,
  );
  if (!contact) {
    throw new AppError(
      'not_found',
      'Contato não encontrado nesta conta: cadastre o contato (POST /contacts) antes de enviar eventos dele.',
    );
  }
  if (contact.status !== 'subscribed') return { enrolled: 0, automationIds: [] };
  await assertEventKeys(db, accountId, input);
  const data = input.data ? JSON.stringify(input.data) : null;
  const rows = await queryRows<{ automation_id: string }>(
    db,
    sql`insert into automation_enrollments (automation_id, account_id, contact_id, occurrence, next_position, next_run_at, data)
        select a.id, a.account_id, ${contact.id}::uuid,
               -- Re-entry per event: the event's key value is the occurrence (each order enters once).
               case when a.event_key_field is null then '' else 'evento:' || (${data}::jsonb ->> a.event_key_field) end,
               1, ${afterWait(now, 's1')}, ${data}::jsonb
          from automations a
          join automation_steps s1 on s1.automation_id = a.id and s1.position = 1
         where a.account_id = ${accountId} and a.event_name = ${input.name} and a.status = 'active'
           and a.trigger_type = 'api_event'
        on conflict (automation_id, contact_id, occurrence) do nothing
        returning automation_id`,
  );
  return { enrolled: rows.length, automationIds: rows.map((r) => r.automation_id) };
}

/**
 * 400 when an active automation listening for this event enters once per event and the event's `data` lacks the
 * key that tells events apart (or holds something that cannot be one): without it, a retried event would enter
 * twice and a new one could not enter at all.
 */
async function assertEventKeys(db: Db, accountId: string, input: AutomationEventInput): Promise<void> {
  const keyed = await queryRows<{ name: string; event_key_field: string }>(
    db,
    sql`select name, event_key_field from automations
         where account_id = ${accountId} and event_name = ${input.name} and status = 'active'
           and trigger_type = 'api_event' and event_key_field is not null`,
  );
  for (const automation of keyed) {
    const path = `data.${automation.event_key_field}`;
    const value = input.data?.[automation.event_key_field];
    const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
    const message = !text
      ? `A automação "${automation.name}" aceita o contato a cada evento diferente: envie ${path} (texto ou número) para identificar este evento.`
      : text.length > AUTOMATION_EVENT_KEY_VALUE_MAX
        ? `${path} longo demais (máximo ${AUTOMATION_EVENT_KEY_VALUE_MAX} caracteres).`
        : null;
    if (message) throw new AppError('validation_failed', `${path}: ${message}`, { fields: [{ path, message }] });
  }
}

/**
 * The eligibility rule (contacts/recipient-eligibility.ts) for an enrollment `e` joined to its contact `c`: the
 * reason code its contact may no longer receive the automation's messages, or null. A list trigger's list is its
 * audience (off the list = out); other triggers have no list.
 */
export function enrollmentIneligibility(triggerType: SQL, listId: SQL): SQL {
  return ineligibilityReasonSql({
    accountId: sql`e.account_id`,
    email: sql`c.email`,
    contact: 'c',
    stream: 'marketing',
    lists: {
      ids: sql`(case when ${triggerType} = 'list_joined' then array[${listId}]::uuid[] else '{}'::uuid[] end)`,
      only: true,
    },
  });
}

/**
 * Unsubscribes leave every automation: active enrollments whose contact may no longer receive them (deleted,
 * unsubscribed, suppressed, off a list trigger's list: the eligibility rule) are marked exited with the reason. The
 * step runner asks the same rule again when it sends, so nothing goes out in between.
 */
export async function exitUnsubscribed(db: Db, now: Date): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`with gone as (
          select e.id,
                 ${reasonLabelSql(enrollmentIneligibility(sql`a.trigger_type`, sql`a.list_id`))} as reason
            from automation_enrollments e
            join automations a on a.id = e.automation_id
            left join contacts c on c.id = e.contact_id and c.account_id = e.account_id
           where e.status = 'active')
        update automation_enrollments e
           set status = 'exited', exit_reason = gone.reason, finished_at = ${now.toISOString()}::timestamptz
          from gone
         where gone.id = e.id and gone.reason is not null and e.status = 'active'
        returning e.id`,
  );
  return rows.length;
}
