import { sql } from 'drizzle-orm';
import { foldedForSearch } from './search-fold-sql.ts';
import type { PackCodec } from '../../domain/images.ts';
import {
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** One DICOM instance, as a report's image reference names it. */
export type DicomInstanceRef = { sopClassUid: string; sopInstanceUid: string; seriesInstanceUid: string };

export const tenants = pgTable('tenants', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** External OIDC issuer; null means the embedded provider at {origin}/idp. */
  idpIssuer: text('idp_issuer'),
  /** Client id at the external issuer; null for the embedded provider (derived from the tenant). */
  idpClientId: text('idp_client_id'),
  cognitoDomain: text('cognito_domain'),
  startCheckSession: boolean('start_check_session').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Accounts of the embedded identity provider. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    groups: text('groups').array().notNull().default(sql`'{}'::text[]`),
    disabled: boolean('disabled').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    /**
     * Raised by a password change, a disable and a rights change: the embedded provider writes it
     * into every ID token (claim `cv`), and the API refuses a token whose value is not the current one.
     */
    credentialVersion: integer('credential_version').notNull().default(0),
  },
  (t) => [uniqueIndex('users_tenant_email_idx').on(t.tenantId, t.email)],
);

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
 * Storage of the embedded identity provider (sessions, grants, codes, refresh tokens,
 * interactions), one row per model instance, kept per tenant.
 */
export const oidcPayloads = pgTable(
  'oidc_payloads',
  {
    tenantId: text('tenant_id').notNull(),
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    /**
     * A Session row's per-client session ids (the `sid` of its ID tokens), so the API can tell on
     * each request whether the sign-in a token came from still exists; null for other models.
     */
    sessionIds: text('session_ids').array(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.model, t.id] }),
    index('oidc_payloads_session_ids_idx').using('gin', t.sessionIds),
    index('oidc_payloads_grant_idx').on(t.tenantId, t.grantId),
    index('oidc_payloads_uid_idx').on(t.tenantId, t.model, t.uid),
    index('oidc_payloads_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Secrets generated on first start (the embedded provider's signing keys and cookie keys),
 * kept in the database so every replica signs and verifies with the same keys. `value` is the
 * AES-256-GCM envelope of db/secrets.ts, sealed with the key-encryption key: never plain key material.
 */
export const serverSecrets = pgTable(
  'server_secrets',
  {
    tenantId: text('tenant_id').notNull(),
    kind: text('kind', { enum: ['signing-jwks', 'cookie-keys'] }).notNull(),
    value: jsonb('value').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.kind] })],
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

export const AUDIT_ACTIONS = [
  'sign-in',
  'sign-out',
  'sign-in-failed',
  'sign-in-throttled',
  'sign-in-lock-cleared',
  'user-created',
  'user-updated',
  'role-changed',
  'account-disabled',
  'account-enabled',
  'password-reset',
  'record-viewed',
  'annotations-saved',
  'record-imported',
  'pacs-connection-added',
  'pacs-connection-changed',
  'pacs-connection-removed',
  'record-sent-to-pacs',
  'dicom-caller-added',
  'dicom-caller-changed',
  'dicom-caller-removed',
  /** One DICOM association at the receiver, accepted or rejected (details: who called, from where, the outcome, the instances). */
  'dicom-association',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Append-only audit trail: rows are inserted, never updated or deleted by the application. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: text('tenant_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    action: text('action', { enum: AUDIT_ACTIONS }).notNull(),
    /** Who acted: a user id, or null for an anonymous attempt (a failed sign-in). */
    actorId: text('actor_id'),
    actorEmail: text('actor_email'),
    targetType: text('target_type', { enum: ['user', 'record', 'patient', 'session', 'pacs-connection', 'dicom-caller'] }),
    targetId: text('target_id'),
    details: jsonb('details'),
  },
  (t) => [index('audit_log_tenant_at_idx').on(t.tenantId, t.id)],
);

/**
 * One-time set-password links for new or reset accounts. Only a hash of the token is kept,
 * so a database read does not reveal a usable link.
 */
export const passwordTokens = pgTable('password_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  tenantId: text('tenant_id')
    .notNull()
    .references(() => tenants.id),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

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

/**
 * Counters of @fastify/rate-limit (the sign-in throttle) kept in the database, so every replica
 * counts the same failures (idp/rate-limit-store.ts). A row's window ends at `window_start` plus
 * `window_ms`; expired rows are removed by the periodic sweep.
 */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    windowMs: integer('window_ms').notNull(),
  },
  (t) => [index('rate_limit_counters_window_idx').on(t.windowStart)],
);
