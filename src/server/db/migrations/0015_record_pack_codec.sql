ALTER TABLE "records" ADD COLUMN "bmode_pack_codec" jsonb;--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "angio_pack_codec" jsonb;