import type { ImportStartInput } from '@carteiro/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/database';
import { suppressedForStreamSql } from './suppression';

/** One batch of contacts as one text[] literal per column (pgTextArray), custom fields one array per key. */
export interface ContactBatch {
  ids: string;
  emails: string;
  names: string;
  fieldKeys: readonly string[];
  fieldValues: readonly string[];
}

export interface ContactBatchOptions {
  legalBasis: ImportStartInput['legalBasis'];
  consentSource: string;
  consentAt: string;
  /** Existing contacts get the batch's name (when given) and its custom fields merged over theirs. */
  updateExisting: boolean;
  /** Write with ON CONFLICT: the plain insert met a contact someone else created meanwhile. */
  conflictSafe: boolean;
  /** Also answer the ids of the batch's contacts, written or already there, that are not suppressed. */
  withMembers: boolean;
}

export interface ContactBatchResult {
  inserted: number;
  touched: number;
  /** The suppressed addresses, one per line, left out of the batch. */
  suppressed: string | null;
  /** Comma-separated ids (withMembers). */
  members?: string | null;
}

/**
 * One set-based statement per batch (never one row per round-trip): the batch is expanded with unnest (the same
 * SQL on PGlite and PostgreSQL); the database hashes the addresses and leaves suppressed ones out, upserts the
 * contacts, and answers the counts, the suppressed addresses and — for a target list — the batch's contact ids.
 * The contacts that already existed (not returned by the upsert when they are kept unchanged) are looked up by
 * the unique index only for the addresses the upsert did not return, so a batch of new contacts costs no lookup.
 * A plain insert (neither updateExisting nor conflictSafe) fails on the unique index when a contact was created
 * meanwhile: the caller writes the batch again with conflictSafe.
 */
export async function upsertContactBatch(
  tx: Db,
  accountId: string,
  batch: ContactBatch,
  options: ContactBatchOptions,
): Promise<ContactBatchResult | undefined> {
  const fieldArrays = batch.fieldValues.map((values) => sql`, ${values}::text[]`);
  const fieldNames = batch.fieldKeys.map((_k, i) => sql.raw(`, f${i}`));
  // Custom fields travel as one text[] per key (no JSON to write here and parse there) and become the jsonb
  // object in the database; empty cells are nulls, left out of the object.
  const fieldsJson =
    batch.fieldKeys.length === 0
      ? sql`'{}'::jsonb`
      : sql`jsonb_strip_nulls(jsonb_build_object(${sql.join(
          batch.fieldKeys.map((key, i) => sql`${key}::text, i.${sql.raw(`f${i}`)}`),
          sql`, `,
        )}))`;
  // Keeping existing contacts (the default), the new ones are a plain insert of the addresses the unique index
  // does not hold yet: ON CONFLICT would make every row a speculative insertion (a second heap write and WAL
  // record to confirm it), ~20% of the database's CPU per row.
  const plain = !options.updateExisting && !options.conflictSafe;
  const insertContacts = options.updateExisting
    ? sql`on conflict (account_id, email) do update set name = coalesce(excluded.name, contacts.name),
          fields = contacts.fields || excluded.fields, updated_at = now()
          returning id, email, (xmax = 0) as inserted`
    : plain
      ? sql`returning id, email, true as inserted`
      : sql`on conflict (account_id, email) do nothing returning id, email, true as inserted`;
  // The probes of the unique index are LATERAL … LIMIT 1 subqueries, which can only run as one index probe per
  // input row. Written as a join or NOT EXISTS, the plan depended on the statistics: on a growing table whose
  // statistics predate the import (autovacuum off or not yet run), the planner hashed the whole account for
  // every batch (a bitmap scan of every contact, spilling to disk), making a 1M-row import quadratic.
  const existing = (email: SQL) =>
    sql`lateral (select c.id from contacts c where c.account_id = ${accountId} and c.email = ${email} limit 1)`;
  const newOnlyJoin = plain ? sql`left join ${existing(sql`i.email`)} e on true` : sql``;
  const onlyNew = plain ? sql`and e.id is null` : sql``;
  // The batch's contacts for the target list: those the statement wrote, and the existing ones it left as they
  // were (looked up by the unique index for the addresses the insert did not return).
  const members = options.withMembers
    ? sql`, (select string_agg(m.id::text, ',') from (
          select up.id from up
          union all
          select c.id from input i cross join ${existing(sql`i.email`)} c
           where not exists (select 1 from up where up.email = i.email)
             and not exists (select 1 from sup where sup.email = i.email)) m) as members`
    : sql``;
  const [result] = await queryRows<ContactBatchResult>(
    tx,
    sql`with input as (
      select *
      from unnest(${batch.ids}::uuid[], ${batch.emails}::text[], ${batch.names}::text[]${sql.join(fieldArrays)})
        as t(id, email, name${sql.join(fieldNames)})
    ),
    sup as (
      select i.email from input i
      where ${suppressedForStreamSql(sql`${accountId}::uuid`, sql`i.email`, 'marketing')}
    ),
    up as (
      insert into contacts (id, account_id, email, name, fields, status, legal_basis, consent_source, consent_at)
      select i.id, ${accountId}::uuid, i.email, i.name, ${fieldsJson}, 'subscribed',
             ${options.legalBasis}, ${options.consentSource}, ${options.consentAt}::timestamptz
      from input i ${newOnlyJoin}
      where not exists (select 1 from sup where sup.email = i.email) ${onlyNew}
      ${insertContacts}
    )
    select (select count(*) from up where inserted)::int as inserted,
           (select count(*) from up)::int as touched,
           (select string_agg(email, chr(10)) from sup) as suppressed${members}`,
  );
  return result;
}
