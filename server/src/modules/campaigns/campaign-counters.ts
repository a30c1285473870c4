import { type SQL, sql } from 'drizzle-orm';

/**
 * `counters` (a jsonb of reason → count) plus the skipped rows of `rows` (a relation with `status` and
 * `skip_reason`): the campaigns.skipped_by_reason value after those rows were written.
 */
export function addSkipReasonsSql(counters: SQL, rows: SQL): SQL {
  return sql`(select coalesce(jsonb_object_agg(k, n), '{}'::jsonb)
                from (select k, sum(n)::int as n
                        from (select key as k, value::int as n from jsonb_each_text(${counters})
                              union all
                              select skip_reason, count(*)::int from ${rows}
                               where status = 'skipped' and skip_reason is not null group by 1) parts
                       group by k) merged)`;
}

/**
 * The campaign's side of recording a batch's outcomes, as CTEs composed into the pipeline's one outcome statement
 * (sending/batch-outcomes.ts: its `written` rows and their `counts`): the campaign counters (sent, failed, skipped
 * by reason, refused — always equal to the message rows, so progress, reports and the bounce protection never
 * count rows) and the relay-error streak reset when the batch delivered something (written only when it is not 0
 * already). The campaign row is locked only for that statement.
 */
export function campaignOutcomeCtes(campaignId: string, anySent: boolean): SQL {
  return sql`counters as (
            update campaigns c
               set sent_count = c.sent_count + counts.sent, failed_count = c.failed_count + counts.failed,
                   skipped_count = c.skipped_count + counts.skipped,
                   skipped_by_reason = case when counts.skipped > 0
                                            then ${addSkipReasonsSql(sql`c.skipped_by_reason`, sql`written`)}
                                            else c.skipped_by_reason end,
                   rejected_count = c.rejected_count + counts.rejected,
                   policy_rejected_count = c.policy_rejected_count + counts.policy_rejected
              from counts
             where c.id = ${campaignId} and (counts.sent > 0 or counts.failed > 0 or counts.skipped > 0)
            returning 1),
          streak as (
            update campaign_sends set consecutive_errors = 0
             where campaign_id = ${campaignId} and ${anySent} and consecutive_errors <> 0
            returning 1)`;
}
