CREATE TABLE "pacs_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"name" text NOT NULL,
	"qido_url" text NOT NULL,
	"wado_url" text NOT NULL,
	"stow_url" text NOT NULL,
	"auth_kind" text NOT NULL,
	"credentials" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "source" text DEFAULT 'upload' NOT NULL;--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "source_name" text;--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "study_instance_uid" text;--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "pullback_instance" jsonb;--> statement-breakpoint
ALTER TABLE "pacs_connections" ADD CONSTRAINT "pacs_connections_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "pacs_connections_tenant_name_idx" ON "pacs_connections" USING btree ("tenant_id","name");