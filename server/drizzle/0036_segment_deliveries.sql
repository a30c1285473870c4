CREATE TABLE "segment_deliveries" (
	"account_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"last_delivered_campaign_at" timestamp with time zone NOT NULL,
	CONSTRAINT "segment_deliveries_account_id_contact_id_pk" PRIMARY KEY("account_id","contact_id")
);
--> statement-breakpoint
CREATE TABLE "segment_folded_campaigns" (
	"campaign_id" uuid PRIMARY KEY NOT NULL,
	"folded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "segment_deliveries" ADD CONSTRAINT "segment_deliveries_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segment_folded_campaigns" ADD CONSTRAINT "segment_folded_campaigns_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;