CREATE TABLE "contact_import_batches" (
	"import_id" uuid NOT NULL,
	"batch_no" integer NOT NULL,
	"inserted" integer NOT NULL,
	"updated" integer NOT NULL,
	"unchanged" integer NOT NULL,
	"suppressed" text NOT NULL,
	CONSTRAINT "contact_import_batches_import_id_batch_no_pk" PRIMARY KEY("import_id","batch_no")
);
--> statement-breakpoint
CREATE TABLE "contact_import_files" (
	"import_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "contact_import_files_import_id_kind_seq_pk" PRIMARY KEY("import_id","kind","seq")
);
--> statement-breakpoint
ALTER TABLE "contact_import_batches" ADD CONSTRAINT "contact_import_batches_import_id_contact_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."contact_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_import_files" ADD CONSTRAINT "contact_import_files_import_id_contact_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."contact_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_imports" DROP COLUMN "file_path";--> statement-breakpoint
ALTER TABLE "contact_imports" DROP COLUMN "rejected_path";