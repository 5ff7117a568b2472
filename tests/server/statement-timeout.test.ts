import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../src/server/db/client.ts';

/** The PostgreSQL project's cluster (null or absent in the PGlite project, where there is none to time out). */
const adminUrl = (() => {
  try {
    return inject('postgresAdminUrl');
  } catch {
    return null;
  }
})();

describe.skipIf(!adminUrl)('PostgreSQL statement timeout', () => {
  it('cancels a statement that runs past the timeout, and the connection goes on working', async () => {
    // A database of its own (openDatabase migrates what it opens).
    const name = `timeout_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl! });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const database = await openDatabase({ kind: 'postgres', url: adminUrl!.replace(/\/postgres$/, `/${name}`), statementTimeoutMs: 300 });
    try {
      const slow = await database.db.execute(sql`select pg_sleep(5)`).then(() => null, (error: Error) => error);
      expect(String(slow?.cause ?? slow)).toMatch(/canceling statement due to statement timeout/);
      const after = await database.db.execute(sql`select 1 as one`);
      expect((after as unknown as { rows: { one: number }[] }).rows[0]).toEqual({ one: 1 });
    } finally {
      await database.close();
    }
  });
});
