/** The tables of a tenant's patients, their records and the records' saved annotations. */
import { sql } from 'drizzle-orm';
import { foldedForSearch } from './search-fold-sql.ts';
import type { PackCodec } from '../../domain/images.ts';
import { tenants } from './schema-accounts.ts';
import { date, index, integer, jsonb, pgTable, primaryKey, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** One DICOM instance, as a report's image reference names it. */
export type DicomInstanceRef = { sopClassUid: string; sopInstanceUid: string; seriesInstanceUid: string };

export const patients = pgTable(
  'patients',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    patientId: text('patient_id').notNull(),
    name: text('name').notNull(),
    birthDate: date('birth_date', { mode: 'string' }),
    sex: text('sex', { enum: ['F', 'M', 'O', 'U'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * How many records the patient has and the newest one's acquisition time, kept by triggers on
     * `records` (migration 0007), so the patient list sorts and pages on them without grouping
     * every record of the tenant. Never written by the application.
     */
    recordCount: integer('record_count').notNull().default(0),
    latestRecordDate: timestamp('latest_record_date', { withTimezone: true }),
    /**
     * The list's search is case-insensitive (ILIKE, which in UTF-8 is lower() of both sides then
     * LIKE); lower-casing each row on each search cost more than the rest of the query together.
     */
    patientIdLower: text('patient_id_lower')
      .notNull()
      .generatedAlwaysAs(sql`lower(patient_id)`),
    /** The name as a search reads it: without accents and lower-cased (see src/domain/search-text.ts). */
    nameSearch: text('name_search')
      .notNull()
      .generatedAlwaysAs(sql.raw(foldedForSearch('name'))),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.patientId] }),
    // The list's total without a search: an index-only scan of the narrowest index there can be.
    index('patients_tenant_idx').on(t.tenantId),
    // One index per sort of the patient list and direction, in the list's exact order (the column
    // with nulls last, then patient id ascending), so a page is an index scan that stops at LIMIT.
    // Sorting by patient id uses the primary key.
    ...(['name', 'birthDate', 'sex', 'recordCount', 'latestRecordDate'] as const).flatMap((key) => {
      const column = t[key];
      return [
        index(`patients_${column.name}_asc_idx`).on(t.tenantId, column.asc().nullsLast(), t.patientId),
        index(`patients_${column.name}_desc_idx`).on(t.tenantId, column.desc().nullsLast(), t.patientId),
      ];
    }),
  ],
);

export const records = pgTable(
  'records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    patientId: text('patient_id').notNull(),
    acquiredAt: timestamp('acquired_at', { withTimezone: true }).notNull(),
    modality: text('modality').notNull().default('IVUS'),
    bmodeFrameCount: integer('bmode_frame_count').notNull().default(0),
    angioFrameCount: integer('angio_frame_count').notNull().default(0),
    frameWidth: integer('frame_width').notNull().default(512),
    frameHeight: integer('frame_height').notNull().default(512),
    angioWidth: integer('angio_width').notNull().default(512),
    angioHeight: integer('angio_height').notNull().default(512),
    frameRateHz: real('frame_rate_hz').notNull().default(30),
    pullbackSpeedMmPerS: real('pullback_speed_mm_per_s').notNull().default(0.5),
    pixelSpacingMm: real('pixel_spacing_mm').notNull().default(0.01),
    /** Where the frames come from: generated demo data (from demoSeed) or an import. */
    imagingSource: text('imaging_source', { enum: ['demo', 'import'] }).notNull().default('demo'),
    demoSeed: integer('demo_seed'),
    /**
     * Names one immutable set of frame bytes; part of every frame URL and ETag, so browsers
     * and caches may keep frames forever and a regenerated set never collides with an old one.
     */
    imagingVersion: text('imaging_version').notNull().default('v1'),
    /**
     * What the pullback is (issue 26): an IVUS pullback, analysed; or other ultrasound (echo, obstetric,
     * vascular), imported on the uploader's word and only viewed: no borders, measurements or report.
     */
    imagingKind: text('imaging_kind', { enum: ['ivus', 'other-ultrasound'] }).notNull().default('ivus'),
    /**
     * How the frame route sends the record's chunks (issue 27): 'frame-pack', the frames as the
     * console encoded them (or a lossless JPEG-LS of the gray) for the page to decode; 'gray8',
     * gzip of the decoded gray, for records imported or generated before frame packs were stored.
     * Every record has the gzip chunks, which the server's own readers use.
     */
    chunkFormat: text('chunk_format', { enum: ['gray8', 'frame-pack'] }).notNull().default('frame-pack'),
    /**
     * The encoding of an imported series' frame packs (server/dicom/page-decodable.ts packCodecOf),
     * announced in the image lists so the page loads the codec before the first pack arrives. Null
     * for demo records (always JPEG-LS) and records imported before it was noted.
     */
    bmodePackCodec: jsonb('bmode_pack_codec').$type<PackCodec>(),
    angioPackCodec: jsonb('angio_pack_codec').$type<PackCodec>(),
    /** What the run is, as its files name it (Series Description, the pullback's first) or the demo seed does: "LAD pre-PCI". */
    seriesDescription: text('series_description'),
    annotationStatus: text('annotation_status', { enum: ['new', 'saved'] }),
    annotationSavedBy: text('annotation_saved_by'),
    annotationSavedAt: timestamp('annotation_saved_at', { withTimezone: true }),
    /** Acquisition facts (ACQUISITION_FACTS) the imported files did not give: the record holds a stand-in for each. */
    assumed: text('assumed').array().notNull().default(sql`'{}'::text[]`),
    /** The DICOM study an imported record belongs to: "Send to PACS" stores its report in it. Null for demo records. */
    studyInstanceUid: text('study_instance_uid'),
    /** The pullback instance whose frames are the record's slices (frame k = slice k): the report's image references. */
    pullbackInstance: jsonb('pullback_instance').$type<DicomInstanceRef>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('records_tenant_patient_idx').on(t.tenantId, t.patientId, t.acquiredAt)],
);

/**
 * Every saved annotation manifest of a record, one row per version, never updated or deleted.
 * The unique (record, version) pair makes two saves based on the same version race to one winner:
 * the loser gets a conflict instead of overwriting.
 */
export const annotationVersions = pgTable(
  'annotation_versions',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    recordId: uuid('record_id')
      .notNull()
      .references(() => records.id),
    version: integer('version').notNull(),
    manifest: jsonb('manifest').notNull(),
    /** Annotation status the client said it saved over ('new' or 'saved'). */
    baseStatus: text('base_status').notNull(),
    savedBy: text('saved_by').notNull(),
    savedByEmail: text('saved_by_email').notNull(),
    savedAt: timestamp('saved_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.recordId, t.version] })],
);
