/**
 * The database schema (drizzle.config.ts and db/client.ts read it here), one file per area so each
 * stays readable; every table and type is re-exported, so importers name this file only.
 */
export * from './schema-accounts.ts';
export * from './schema-clinical.ts';
export * from './schema-imports.ts';
export * from './schema-audit.ts';
