import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';
import { acquireDataDirLock } from './lock.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** What the job queue (pg-boss) connects through: its own pool on PostgreSQL, the one embedded connection on PGlite. */
  jobConnection: { kind: 'postgres'; url: string } | { kind: 'pglite'; client: PGlite };
  close: () => Promise<void>;
};

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export type DatabaseOptions =
  /**
   * An embedded PGlite database kept in `dataDir/db` (locked), or in memory when dataDir is null;
   * an in-memory one may start from `from`, a dump of another (PGlite's dumpDataDir), as the server
   * tests do to skip building the same schema and demo tenants once a file.
   */
  | { kind: 'pglite'; dataDir: string | null; from?: Blob }
  | { kind: 'postgres'; url: string; statementTimeoutMs?: number };

/** A statement running longer is cancelled by PostgreSQL (a stuck query must not hold a connection and its request forever). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 60_000;

/** Opens the database and brings its schema up to date. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const statementTimeout = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
    const pool = new pg.Pool({
      connectionString: options.url,
      max: 10,
      // Server-side limits, so they hold whatever the client does: a statement, and a transaction left idle.
      statement_timeout: statementTimeout,
      idle_in_transaction_session_timeout: statementTimeout,
      connectionTimeoutMillis: 10_000,
    });
    const db = drizzlePg(pool, { schema });
    try {
      await migratePg(db, { migrationsFolder });
    } catch (error) {
      await pool.end();
      throw error;
    }
    return { db: db as unknown as Db, kind: 'postgres', jobConnection: { kind: 'postgres', url: options.url }, close: () => pool.end() };
  }

  const release = options.dataDir ? acquireDataDirLock(options.dataDir) : () => {};
  try {
    const client = options.dataDir ? new PGlite(path.join(options.dataDir, 'db')) : new PGlite(options.from ? { loadDataDir: options.from } : undefined);
    const db = drizzlePglite(client, { schema });
    await migratePglite(db, { migrationsFolder });
    return {
      db: db as unknown as Db,
      kind: 'pglite',
      jobConnection: { kind: 'pglite', client },
      close: async () => {
        try {
          await client.close();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}
