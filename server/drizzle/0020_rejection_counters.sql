ALTER TABLE "campaigns" ADD COLUMN "rejected_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "policy_rejected_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Campaigns sent before these counters existed: their refusals, counted once here.
UPDATE "campaigns" c SET "rejected_count" = r.hard, "policy_rejected_count" = r.policy
  FROM (SELECT campaign_id,
               count(*) FILTER (WHERE smtp_code >= 500 AND NOT policy)::int AS hard,
               count(*) FILTER (WHERE policy)::int AS policy
          FROM "messages" WHERE status = 'failed' GROUP BY campaign_id) r
 WHERE c.id = r.campaign_id;
