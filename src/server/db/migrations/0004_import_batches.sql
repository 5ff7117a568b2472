ALTER TABLE "imports" ADD COLUMN "bmode_record_id" uuid;--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "assumed" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "imports_bmode_record_idx" ON "imports" USING btree ("bmode_record_id") WHERE "imports"."status" <> 'failed';