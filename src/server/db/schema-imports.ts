/** The tables of what brings imaging in: DICOM imports, PACS connections and DICOM callers. */
import { sql } from 'drizzle-orm';
import { tenants } from './schema-accounts.ts';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** 'rolling_back': failed, its stored imaging and files being removed (shown as 'processing' until that is over). */
export const IMPORT_STATUSES = ['processing', 'rolling_back', 'done', 'failed'] as const;
export const IMPORT_SOURCES = ['upload', 'pacs', 'dimse'] as const;

/**
 * DICOM imports (issue 8): one row per record an upload makes or fills (an upload of a whole study may register several). While 'processing',
 * frames are decoded in the background by the replica holding the uploaded files, which keeps
 * `heartbeatAt` fresh; the record, its patient and its audit row only appear in the one
 * transaction that marks the import 'done'. `storagePrefixes` names every stored key the import
 * may have written, so a failure or a start-up roll-back removes exactly those.
 */
export const imports = pgTable(
  'imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    status: text('status', { enum: IMPORT_STATUSES }).notNull().default('processing'),
    fileNames: text('file_names').array().notNull(),
    framesDone: integer('frames_done').notNull().default(0),
    framesTotal: integer('frames_total').notNull(),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    warnings: text('warnings').array().notNull().default(sql`'{}'::text[]`),
    /** Set when 'done': the patient and record the frames landed in. */
    patientId: text('patient_id'),
    recordId: uuid('record_id'),
    studyInstanceUid: text('study_instance_uid').notNull(),
    /** The record the import writes imaging for: a new one (createsRecord) or an existing one it adds an angiography run to. */
    targetRecordId: uuid('target_record_id').notNull(),
    createsRecord: boolean('creates_record').notNull(),
    /** Set when the import brings an angiography run: at most one live import per record may (see the index). */
    angioRecordId: uuid('angio_record_id'),
    /** Set when the import brings an IVUS pullback, to a new record or to an angiography-only one: at most one live import per record may. */
    bmodeRecordId: uuid('bmode_record_id'),
    storagePrefixes: text('storage_prefixes').array().notNull().default(sql`'{}'::text[]`),
    /** The uploaded files on the replica that received them (inside DATA_DIR). */
    tempDir: text('temp_dir').notNull(),
    createdBy: text('created_by'),
    createdByEmail: text('created_by_email'),
    /** Where the files came from: an upload, a pull from a PACS connection, or a DICOM push (C-STORE). */
    source: text('source', { enum: IMPORT_SOURCES }).notNull().default('upload'),
    /** The PACS connection's name, or the AE title that pushed the files. */
    sourceName: text('source_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('imports_tenant_created_idx').on(t.tenantId, t.createdAt),
    index('imports_status_idx').on(t.status),
    index('imports_tenant_study_idx').on(t.tenantId, t.studyInstanceUid),
    uniqueIndex('imports_angio_record_idx').on(t.angioRecordId).where(sql`${t.status} <> 'failed'`),
    uniqueIndex('imports_bmode_record_idx').on(t.bmodeRecordId).where(sql`${t.status} <> 'failed'`),
  ],
);

/**
 * The DICOM series an import brought in: one series is imported once per tenant. Rows of a failed
 * import are deleted with its roll-back, so the same files may be sent again.
 */
export const importSeries = pgTable(
  'import_series',
  {
    tenantId: text('tenant_id').notNull(),
    seriesInstanceUid: text('series_instance_uid').notNull(),
    importId: uuid('import_id')
      .notNull()
      .references(() => imports.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.seriesInstanceUid] }), index('import_series_import_idx').on(t.importId)],
);

export const PACS_AUTH_KINDS = ['none', 'basic', 'bearer'] as const;

/**
 * A tenant's DICOMweb endpoints (issue 17), added by its administrators. `credentials` is the
 * AES-256-GCM envelope (crypto/envelope.ts, sealed with the key-encryption key, the tenant and the
 * connection id as associated data) of `{ username, password }` or `{ token }`: never plain, and
 * never sent back to a browser.
 */
export const pacsConnections = pgTable(
  'pacs_connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    name: text('name').notNull(),
    qidoUrl: text('qido_url').notNull(),
    wadoUrl: text('wado_url').notNull(),
    stowUrl: text('stow_url').notNull(),
    authKind: text('auth_kind', { enum: PACS_AUTH_KINDS }).notNull(),
    credentials: jsonb('credentials'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('pacs_connections_tenant_name_idx').on(t.tenantId, t.name)],
);

/**
 * The calling AE titles a tenant's DICOM receiver accepts (issue 24), registered by its
 * administrators; `networks` (addresses or CIDR networks) limits where each may call from, empty
 * meaning anywhere. The AE title is stored trimmed and compared exactly (AE titles are case-sensitive).
 */
export const dicomCallers = pgTable(
  'dicom_callers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    aeTitle: text('ae_title').notNull(),
    description: text('description').notNull().default(''),
    networks: text('networks').array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('dicom_callers_tenant_ae_title_idx').on(t.tenantId, t.aeTitle)],
);
