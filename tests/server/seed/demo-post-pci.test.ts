/**
 * Post-PCI demo runs show the stent implanted before them (issue 28), on an imaging version of their
 * own so that frames and borders stored before the stent existed are never served beside stented ones.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { and, eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/server/db/client.ts';
import { records, patients, tenants } from '../../../src/server/db/schema.ts';
import { pullbackModelOf } from '../../../src/server/imaging/record-imaging.ts';
import { STENTED_DEMO_IMAGING_VERSION, isPostPciDemoSeed } from '../../../src/server/seed/demo-run.ts';
import { seedTenant } from '../../../src/server/seed/seed.ts';
import { createPullbackModel } from '../../../src/domain/synthetic/pullback-model.ts';

const MIGRATIONS = path.resolve(import.meta.dirname, '../../../src/server/db/migrations');
const opened: Database[] = [];
afterAll(async () => {
  for (const database of opened) await database.close();
});

describe('post-PCI demo records', () => {
  it('are seeded on the stented imaging version and their frames show a deployed stent; pre-PCI runs are as they were', async () => {
    const database = await openDatabase({ kind: 'pglite', dataDir: null });
    opened.push(database);
    await seedTenant(database.db, { id: 'demo', name: 'Demo', patientCount: 8, seed: 1 });
    const rows = await database.db.select().from(records);
    const post = rows.filter((r) => r.seriesDescription?.endsWith('post-PCI'));
    const pre = rows.filter((r) => r.seriesDescription?.endsWith('pre-PCI'));
    expect(post.length).toBeGreaterThan(0);
    expect(pre.length).toBeGreaterThan(0);
    for (const record of post) {
      expect(record.imagingVersion).toBe(STENTED_DEMO_IMAGING_VERSION);
      const stent = pullbackModelOf(record).hardCases?.deployedStent;
      expect(stent).toBeDefined();
      expect(stent!.endMm).toBeGreaterThan(stent!.startMm);
    }
    for (const record of pre) {
      expect(record.imagingVersion).toBe('v1');
      // Exactly the model (and so the frames) a pre-PCI run always had.
      const options = { seed: record.demoSeed!, frameCount: record.bmodeFrameCount };
      expect(pullbackModelOf(record)).toEqual(createPullbackModel(options));
    }
  });

  it('keep the frames they had while on the old imaging version (imports and rows written before stay unstented)', () => {
    const postSeed = 5;
    expect(isPostPciDemoSeed(postSeed)).toBe(true);
    const base = { id: 'r', tenantId: 'demo', imagingSource: 'demo' as const, demoSeed: postSeed, bmodeFrameCount: 40, frameWidth: 512, pixelSpacingMm: 0.01, frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };
    const old = pullbackModelOf({ ...base, imagingVersion: 'v1' } as Parameters<typeof pullbackModelOf>[0]);
    expect(old.hardCases).toBeUndefined();
    const imported = pullbackModelOf({ ...base, imagingSource: 'import', imagingVersion: STENTED_DEMO_IMAGING_VERSION } as Parameters<typeof pullbackModelOf>[0]);
    expect(imported.hardCases).toBeUndefined();
  });

  it('seeded before the stent existed move to the stented imaging version on migration; pre-PCI, imported and other versions stay', async () => {
    // The schema as it was before migration 0014, with records on 'v1' as an older build wrote them.
    const before = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-0013-'));
    fs.cpSync(MIGRATIONS, before, { recursive: true });
    const journalPath = path.join(before, 'meta', '_journal.json');
    const journal = JSON.parse(fs.readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
    const stentIndex = journal.entries.findIndex((e) => e.tag === '0014_demo_post_pci_stent');
    expect(stentIndex).toBeGreaterThan(0);
    fs.writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, stentIndex) }));
    const client = new PGlite();
    try {
      const db = drizzle(client);
      await migrate(db, { migrationsFolder: before });
      await db.insert(tenants).values({ id: 'demo', name: 'Demo' });
      await db.insert(patients).values({ tenantId: 'demo', patientId: 'P-1', name: 'A, B', sex: 'F' });
      // Raw SQL: the schema object has the columns of later migrations, which this database lacks yet.
      const rows: [number | null, 'demo' | 'import', string][] = [[5, 'demo', 'v1'], [4, 'demo', 'v1'], [2, 'demo', 'v1'], [7, 'demo', 'v1'], [null, 'import', 'v1'], [5, 'demo', 'v3']];
      // 5 and 4 are post-PCI seeds (floor(seed / 3) odd), 2 and 7 pre-PCI.
      const inserted: { id: string }[] = [];
      for (const [demoSeed, imagingSource, imagingVersion] of rows) {
        const result = await client.query<{ id: string }>(
          `insert into records (tenant_id, patient_id, acquired_at, imaging_source, demo_seed, imaging_version) values ('demo', 'P-1', now(), $1, $2, $3) returning id`,
          [imagingSource, demoSeed, imagingVersion],
        );
        inserted.push(result.rows[0]!);
      }
      await migrate(db, { migrationsFolder: MIGRATIONS });
      const after = await Promise.all(
        inserted.map(async (r) => (await db.select({ v: records.imagingVersion }).from(records).where(and(eq(records.id, r.id), eq(records.tenantId, 'demo'))))[0]!.v),
      );
      expect(after).toEqual([STENTED_DEMO_IMAGING_VERSION, STENTED_DEMO_IMAGING_VERSION, 'v1', 'v1', 'v1', 'v3']);
    } finally {
      await client.close();
      fs.rmSync(before, { recursive: true, force: true });
    }
  });
});
