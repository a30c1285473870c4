CREATE TABLE "sender_addresses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"email" text NOT NULL,
	"token_hash" text,
	"token_expires_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sender_domains" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"domain" text NOT NULL,
	"selector" text NOT NULL,
	"dkim_rsa_private_enc" text NOT NULL,
	"dkim_rsa_record" text NOT NULL,
	"dkim_ed25519_private_enc" text NOT NULL,
	"dkim_ed25519_record" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"ed25519_verified" text DEFAULT 'no' NOT NULL,
	"return_path_verified" text DEFAULT 'no' NOT NULL,
	"last_check" jsonb,
	"last_checked_at" timestamp with time zone,
	"verified_at" timestamp with time zone,
	"broken_at" timestamp with time zone,
	"suspended_at" timestamp with time zone,
	"suspended_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sender_addresses_account_email_uq" ON "sender_addresses" USING btree ("account_id","email");--> statement-breakpoint
CREATE UNIQUE INDEX "sender_addresses_token_hash_uq" ON "sender_addresses" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "sender_domains_account_domain_uq" ON "sender_domains" USING btree ("account_id","domain");--> statement-breakpoint
CREATE INDEX "sender_domains_domain_idx" ON "sender_domains" USING btree ("domain");