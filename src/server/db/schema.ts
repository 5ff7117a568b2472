import { sql } from 'drizzle-orm';
import {
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
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.patientId] }),
    index('patients_tenant_name_idx').on(t.tenantId, t.name),
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
    annotationStatus: text('annotation_status', { enum: ['new', 'saved'] }),
    annotationSavedBy: text('annotation_saved_by'),
    annotationSavedAt: timestamp('annotation_saved_at', { withTimezone: true }),
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
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.model, t.id] }),
    index('oidc_payloads_grant_idx').on(t.tenantId, t.grantId),
    index('oidc_payloads_uid_idx').on(t.tenantId, t.model, t.uid),
    index('oidc_payloads_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Secrets generated on first start (the embedded provider's signing keys and cookie keys),
 * kept in the database so every replica signs and verifies with the same keys.
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
