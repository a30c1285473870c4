CREATE TABLE "message_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "transactional_attachments" ALTER COLUMN "content" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "transactional_attachments" ADD COLUMN "file_id" uuid;--> statement-breakpoint
ALTER TABLE "message_files" ADD CONSTRAINT "message_files_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "message_files_account_sha_idx" ON "message_files" USING btree ("account_id","sha256");--> statement-breakpoint
CREATE INDEX "message_files_expires_idx" ON "message_files" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "transactional_attachments" ADD CONSTRAINT "transactional_attachments_file_id_message_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."message_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transactional_attachments_file_idx" ON "transactional_attachments" USING btree ("file_id") WHERE file_id is not null;