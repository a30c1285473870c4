CREATE TABLE "message_batches" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"campaign_id" uuid NOT NULL,
	"first_message_id" bigint NOT NULL,
	"last_message_id" bigint NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_by" text,
	"claimed_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "messages_claim_idx";--> statement-breakpoint
DROP INDEX "messages_queued_idx";--> statement-breakpoint
DROP INDEX "messages_in_flight_idx";--> statement-breakpoint
ALTER TABLE "campaign_sends" ADD COLUMN "next_message_id" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_sends" ADD COLUMN "last_message_id" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "message_batches" ADD CONSTRAINT "message_batches_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "message_batches_queued_idx" ON "message_batches" USING btree ("campaign_id","due_at","id") WHERE status = 'queued';--> statement-breakpoint
CREATE INDEX "message_batches_in_flight_idx" ON "message_batches" USING btree ("claimed_at") WHERE status = 'sending';--> statement-breakpoint
CREATE INDEX "messages_campaign_id_idx" ON "messages" USING btree ("campaign_id","id");--> statement-breakpoint
-- Messages a worker held under the old per-message lease go back to the queue (their worker re-sends at most
-- what it had in flight, as after a crash); the lease now lives on message_batches.
UPDATE "messages" SET "status" = 'queued' WHERE "status" = 'sending';--> statement-breakpoint
ALTER TABLE "messages" DROP COLUMN "claimed_at";--> statement-breakpoint
-- Sends in progress: batches are carved from the first message still queued (ids of sent ones are passed over).
UPDATE "campaign_sends" cs SET
  "last_message_id" = coalesce((SELECT max(m.id) FROM "messages" m WHERE m.campaign_id = cs.campaign_id), 0),
  "next_message_id" = coalesce(
    (SELECT min(m.id) FROM "messages" m WHERE m.campaign_id = cs.campaign_id AND m.status = 'queued'),
    (SELECT max(m.id) + 1 FROM "messages" m WHERE m.campaign_id = cs.campaign_id),
    1);--> statement-breakpoint
-- Room on each page for the outcome's new row version, so that UPDATE stays heap-only (see messages.db.ts).
ALTER TABLE "messages" SET (fillfactor = 50);