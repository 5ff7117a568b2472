/** The tables of tenants, their accounts and the embedded identity provider's storage. */
import { sql } from 'drizzle-orm';
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
