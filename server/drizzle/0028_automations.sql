CREATE TABLE "automation_enrollments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"automation_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"occurrence" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"next_position" integer DEFAULT 1 NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"data" jsonb,
	"exit_reason" text,
	"enrolled_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "automation_step_runs" (
	"enrollment_id" uuid NOT NULL,
	"step_id" uuid NOT NULL,
	"automation_id" uuid NOT NULL,
	"message_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "automation_step_runs_enrollment_id_step_id_pk" PRIMARY KEY("enrollment_id","step_id")
);
--> statement-breakpoint
CREATE TABLE "automation_steps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"automation_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"wait_amount" integer NOT NULL,
	"wait_unit" text NOT NULL,
	"template_id" uuid NOT NULL,
	"subject" text
);
--> statement-breakpoint
CREATE TABLE "automations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"trigger_type" text NOT NULL,
	"list_id" uuid,
	"date_field" text,
	"send_hour" integer,
	"event_name" text,
	"from_email" text NOT NULL,
	"from_name" text,
	"paused_reason" text,
	"enroll_since" timestamp with time zone,
	"date_run_on" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "automation_enrollments" ADD CONSTRAINT "automation_enrollments_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_step_runs" ADD CONSTRAINT "automation_step_runs_enrollment_id_automation_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."automation_enrollments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_step_runs" ADD CONSTRAINT "automation_step_runs_step_id_automation_steps_id_fk" FOREIGN KEY ("step_id") REFERENCES "public"."automation_steps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_steps" ADD CONSTRAINT "automation_steps_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automations" ADD CONSTRAINT "automations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "automation_enrollments_once_uq" ON "automation_enrollments" USING btree ("automation_id","contact_id","occurrence");--> statement-breakpoint
CREATE INDEX "automation_enrollments_due_idx" ON "automation_enrollments" USING btree ("next_run_at") WHERE "automation_enrollments"."status" = 'active';--> statement-breakpoint
CREATE INDEX "automation_enrollments_contact_idx" ON "automation_enrollments" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "automation_step_runs_step_idx" ON "automation_step_runs" USING btree ("step_id");--> statement-breakpoint
CREATE UNIQUE INDEX "automation_steps_position_uq" ON "automation_steps" USING btree ("automation_id","position");--> statement-breakpoint
CREATE INDEX "automations_account_created_idx" ON "automations" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "automations_event_idx" ON "automations" USING btree ("account_id","event_name") WHERE "automations"."event_name" is not null;