CREATE TABLE "transactional_attachments" (
	"message_id" bigint NOT NULL,
	"position" integer NOT NULL,
	"account_id" uuid NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"content_id" text,
	"size" integer NOT NULL,
	"content" "bytea" NOT NULL,
	CONSTRAINT "transactional_attachments_message_id_position_pk" PRIMARY KEY("message_id","position")
);
--> statement-breakpoint
ALTER TABLE "transactional_messages" ADD COLUMN "recipient_kind" text DEFAULT 'to' NOT NULL;--> statement-breakpoint
ALTER TABLE "transactional_messages" ADD COLUMN "copy_of" bigint;--> statement-breakpoint
ALTER TABLE "transactional_messages" ADD COLUMN "header_to" jsonb;--> statement-breakpoint
ALTER TABLE "transactional_messages" ADD COLUMN "cc" jsonb;--> statement-breakpoint
ALTER TABLE "transactional_messages" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "transactional_messages" ADD COLUMN "metadata" jsonb;--> statement-breakpoint
ALTER TABLE "transactional_messages" ADD COLUMN "attachment_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "transactional_attachments" ADD CONSTRAINT "transactional_attachments_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactional_attachments" ADD CONSTRAINT "transactional_attachments_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactional_messages" ADD CONSTRAINT "transactional_messages_copy_of_messages_id_fk" FOREIGN KEY ("copy_of") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;