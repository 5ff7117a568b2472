import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/client.ts';
import { DEMO_TENANTS } from '../../src/server/seed/demo-accounts.ts';
import { seedTenant } from '../../src/server/seed/seed.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string | null;
  }
}

/**
 * The embedded database every test server of the run starts from: migrated and seeded with the
 * demo tenants once, by this run's code, then dumped to a file. Building it took each server about
 * 3 s of CPU (the migrations and the demo accounts' scrypt hashes); loading the dump takes 0.4 s.
 */
export default async function setup(project: TestProject) {
  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-pglite-template-'));
  try {
    for (const tenant of DEMO_TENANTS) await seedTenant(database.db, tenant);
    const dump = await (database.jobConnection as { client: PGlite }).client.dumpDataDir('none');
    const file = path.join(dir, 'seeded.tar');
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    project.provide('pgliteTemplate', file);
  } finally {
    await database.close();
  }
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
