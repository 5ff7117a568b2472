-- The calling AE titles (and optionally source networks) each tenant's DICOM receiver accepts (issue 24):
-- an association from any other caller is rejected before any data. Empty at first: an administrator
-- registers the consoles and PACS that push to the tenant.
CREATE TABLE "dicom_callers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"ae_title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"networks" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dicom_callers" ADD CONSTRAINT "dicom_callers_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dicom_callers_tenant_ae_title_idx" ON "dicom_callers" USING btree ("tenant_id","ae_title");