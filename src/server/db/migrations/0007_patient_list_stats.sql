-- The patient list shows and sorts by each patient's record count and newest acquisition. Grouping
-- every record of the tenant on each request made a 10,000-patient list take a second under load;
-- the two figures now live on the patient row, kept by triggers on "records" so that every writer
-- (seeding, imports, deletes, any later code) keeps them right without knowing about them.
--
-- No record may be written between the backfill and the triggers: replicas may be running.
LOCK TABLE "records" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
DROP INDEX "patients_tenant_name_idx";--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "record_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "latest_record_date" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "patient_id_lower" text GENERATED ALWAYS AS (lower(patient_id)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "name_lower" text GENERATED ALWAYS AS (lower(name)) STORED NOT NULL;--> statement-breakpoint
UPDATE "patients" AS p
SET "record_count" = s.n, "latest_record_date" = s.latest
FROM (SELECT "tenant_id", "patient_id", count(*)::int AS n, max("acquired_at") AS latest FROM "records" GROUP BY 1, 2) AS s
WHERE p."tenant_id" = s."tenant_id" AND p."patient_id" = s."patient_id";--> statement-breakpoint
CREATE INDEX "patients_tenant_idx" ON "patients" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "patients_name_asc_idx" ON "patients" USING btree ("tenant_id","name","patient_id");--> statement-breakpoint
CREATE INDEX "patients_name_desc_idx" ON "patients" USING btree ("tenant_id","name" DESC NULLS LAST,"patient_id");--> statement-breakpoint
CREATE INDEX "patients_birth_date_asc_idx" ON "patients" USING btree ("tenant_id","birth_date","patient_id");--> statement-breakpoint
CREATE INDEX "patients_birth_date_desc_idx" ON "patients" USING btree ("tenant_id","birth_date" DESC NULLS LAST,"patient_id");--> statement-breakpoint
CREATE INDEX "patients_sex_asc_idx" ON "patients" USING btree ("tenant_id","sex","patient_id");--> statement-breakpoint
CREATE INDEX "patients_sex_desc_idx" ON "patients" USING btree ("tenant_id","sex" DESC NULLS LAST,"patient_id");--> statement-breakpoint
CREATE INDEX "patients_record_count_asc_idx" ON "patients" USING btree ("tenant_id","record_count","patient_id");--> statement-breakpoint
CREATE INDEX "patients_record_count_desc_idx" ON "patients" USING btree ("tenant_id","record_count" DESC NULLS LAST,"patient_id");--> statement-breakpoint
CREATE INDEX "patients_latest_record_date_asc_idx" ON "patients" USING btree ("tenant_id","latest_record_date","patient_id");--> statement-breakpoint
CREATE INDEX "patients_latest_record_date_desc_idx" ON "patients" USING btree ("tenant_id","latest_record_date" DESC NULLS LAST,"patient_id");--> statement-breakpoint
-- Recounts the given patients from their records. The rows are locked first, in key order (two
-- writers never wait on each other crosswise), and only then counted: under READ COMMITTED each
-- statement of a function takes a fresh snapshot, so the count sees the records of any writer that
-- held one of these locks, and a writer that comes later waits and recounts after us. Counting
-- rather than adding and subtracting keeps the figures right whatever happened before.
CREATE FUNCTION "patients_recount_records"(tenant_ids text[], patient_ids text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1
  FROM "patients" AS p
  JOIN unnest(tenant_ids, patient_ids) AS k(tenant_id, patient_id) ON p."tenant_id" = k.tenant_id AND p."patient_id" = k.patient_id
  ORDER BY p."tenant_id", p."patient_id"
  FOR UPDATE OF p;
  UPDATE "patients" AS p
  SET "record_count" = s.n, "latest_record_date" = s.latest
  FROM (SELECT DISTINCT tenant_id, patient_id FROM unnest(tenant_ids, patient_ids) AS u(tenant_id, patient_id)) AS k
  CROSS JOIN LATERAL (
    SELECT count(*)::int AS n, max(r."acquired_at") AS latest
    FROM "records" AS r
    WHERE r."tenant_id" = k.tenant_id AND r."patient_id" = k.patient_id
  ) AS s
  WHERE p."tenant_id" = k.tenant_id AND p."patient_id" = k.patient_id
    AND (p."record_count", p."latest_record_date") IS DISTINCT FROM (s.n, s.latest);
END
$$;--> statement-breakpoint
-- Inserts and deletes come in bulk (seeding inserts a thousand records a statement): once per
-- statement, over the patients the statement touched. Both triggers name their transition table
-- "changed" (the new rows of an insert, the old rows of a delete), so one function serves both.
CREATE FUNCTION "records_recount_changed"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  tenant_ids text[];
  patient_ids text[];
BEGIN
  SELECT array_agg(tenant_id), array_agg(patient_id) INTO tenant_ids, patient_ids
  FROM (SELECT DISTINCT "tenant_id" AS tenant_id, "patient_id" AS patient_id FROM changed) AS d;
  IF tenant_ids IS NOT NULL THEN PERFORM "patients_recount_records"(tenant_ids, patient_ids); END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- A record moved to another patient or re-dated: both patients, old and new.
CREATE FUNCTION "records_recount_updated"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "patients_recount_records"(ARRAY[OLD."tenant_id", NEW."tenant_id"], ARRAY[OLD."patient_id", NEW."patient_id"]);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "records_recount_truncated"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "patients" SET "record_count" = 0, "latest_record_date" = NULL
  WHERE "record_count" <> 0 OR "latest_record_date" IS NOT NULL;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- A patient row written after its records (no code does so today; no foreign key forbids it)
-- starts with their figures rather than zero.
CREATE FUNCTION "patients_count_existing_records"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  SELECT count(*)::int, max(r."acquired_at") INTO NEW."record_count", NEW."latest_record_date"
  FROM "records" AS r
  WHERE r."tenant_id" = NEW."tenant_id" AND r."patient_id" = NEW."patient_id";
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "records_recount_inserted" AFTER INSERT ON "records"
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "records_recount_changed"();--> statement-breakpoint
CREATE TRIGGER "records_recount_deleted" AFTER DELETE ON "records"
REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "records_recount_changed"();--> statement-breakpoint
-- Per row, and only when a counted column changes: saving an annotation updates its record too.
CREATE TRIGGER "records_recount_updated" AFTER UPDATE OF "tenant_id", "patient_id", "acquired_at" ON "records"
FOR EACH ROW WHEN (OLD."tenant_id" IS DISTINCT FROM NEW."tenant_id" OR OLD."patient_id" IS DISTINCT FROM NEW."patient_id" OR OLD."acquired_at" IS DISTINCT FROM NEW."acquired_at")
EXECUTE FUNCTION "records_recount_updated"();--> statement-breakpoint
CREATE TRIGGER "records_recount_truncated" AFTER TRUNCATE ON "records"
FOR EACH STATEMENT EXECUTE FUNCTION "records_recount_truncated"();--> statement-breakpoint
CREATE TRIGGER "patients_count_existing_records" BEFORE INSERT ON "patients"
FOR EACH ROW EXECUTE FUNCTION "patients_count_existing_records"();
