ALTER TABLE "campaigns" ADD COLUMN "skipped_by_reason" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "skip_reason" text;--> statement-breakpoint
-- Messages skipped before reasons were recorded: the two whose response says why keep that reason; the rest stay
-- without one (the old claim did not tell an unsubscribe from a suppression).
UPDATE "messages" SET "skip_reason" = CASE WHEN "response" = 'campanha cancelada' THEN 'campaign_cancelled' ELSE 'suppressed' END
 WHERE "status" = 'skipped' AND "response" IN ('campanha cancelada', 'não enviado: endereço suprimido ou descadastrado nesta conta');--> statement-breakpoint
UPDATE "campaigns" c SET "skipped_by_reason" = r.counts
  FROM (SELECT campaign_id, jsonb_object_agg(skip_reason, n) AS counts
          FROM (SELECT campaign_id, skip_reason, count(*)::int AS n FROM "messages"
                 WHERE "status" = 'skipped' AND "skip_reason" IS NOT NULL GROUP BY 1, 2) x
         GROUP BY campaign_id) r
 WHERE c.id = r.campaign_id;
