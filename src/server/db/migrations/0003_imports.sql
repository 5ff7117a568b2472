CREATE TABLE "import_series" (
	"tenant_id" text NOT NULL,
	"series_instance_uid" text NOT NULL,
	"import_id" uuid NOT NULL,
	CONSTRAINT "import_series_tenant_id_series_instance_uid_pk" PRIMARY KEY("tenant_id","series_instance_uid")
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"status" text DEFAULT 'processing' NOT NULL,
	"file_names" text[] NOT NULL,
	"frames_done" integer DEFAULT 0 NOT NULL,
	"frames_total" integer NOT NULL,
	"error_code" text,
	"error_message" text,
	"warnings" text[] DEFAULT '{}'::text[] NOT NULL,
	"patient_id" text,
	"record_id" uuid,
	"study_instance_uid" text NOT NULL,
	"target_record_id" uuid NOT NULL,
	"creates_record" boolean NOT NULL,
	"angio_record_id" uuid,
	"storage_prefixes" text[] DEFAULT '{}'::text[] NOT NULL,
	"temp_dir" text NOT NULL,
	"created_by" text,
	"created_by_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "import_series" ADD CONSTRAINT "import_series_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_series_import_idx" ON "import_series" USING btree ("import_id");--> statement-breakpoint
CREATE INDEX "imports_tenant_created_idx" ON "imports" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "imports_status_idx" ON "imports" USING btree ("status");--> statement-breakpoint
CREATE INDEX "imports_tenant_study_idx" ON "imports" USING btree ("tenant_id","study_instance_uid");--> statement-breakpoint
CREATE UNIQUE INDEX "imports_angio_record_idx" ON "imports" USING btree ("angio_record_id") WHERE "imports"."status" <> 'failed';