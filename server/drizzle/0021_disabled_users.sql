CREATE TABLE "disabled_users" (
	"user_id" text PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"disabled_by_user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "disabled_users" ADD CONSTRAINT "disabled_users_user_id_auth_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."auth_users"("id") ON DELETE cascade ON UPDATE no action;