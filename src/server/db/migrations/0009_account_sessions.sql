ALTER TABLE "oidc_payloads" ADD COLUMN "session_ids" text[];--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "credential_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "oidc_payloads_session_ids_idx" ON "oidc_payloads" USING gin ("session_ids");