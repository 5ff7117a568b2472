ALTER TABLE "records" ADD COLUMN "frame_width" integer DEFAULT 512 NOT NULL;--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "frame_height" integer DEFAULT 512 NOT NULL;--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "angio_width" integer DEFAULT 512 NOT NULL;--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "angio_height" integer DEFAULT 512 NOT NULL;--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "frame_rate_hz" real DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "pullback_speed_mm_per_s" real DEFAULT 0.5 NOT NULL;--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "pixel_spacing_mm" real DEFAULT 0.01 NOT NULL;--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "imaging_source" text DEFAULT 'demo' NOT NULL;--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "demo_seed" integer;--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "imaging_version" text DEFAULT 'v1' NOT NULL;