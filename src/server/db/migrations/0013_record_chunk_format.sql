-- Records that exist already have only gzip chunks: they keep 'gray8'. Records made from now on store frame packs.
ALTER TABLE "records" ADD COLUMN "chunk_format" text DEFAULT 'gray8' NOT NULL;--> statement-breakpoint
ALTER TABLE "records" ALTER COLUMN "chunk_format" SET DEFAULT 'frame-pack';
