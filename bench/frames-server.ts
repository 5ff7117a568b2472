/**
 * A server for bench/frames.ts, in its own process so its CPU time can be read apart from
 * the client's. `app`: the real server on a fresh database, with the 3,600-frame record
 * generated and the series of frames-sources.ts imported before it reports ready. `static`: a
 * plain file server over the same stored files (gzip chunks as gzip, frame packs as they are).
 * Prints one JSON line when ready.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { buildApp } from '../src/server/app.ts';
import { loadConfig, tenantOrigin } from '../src/server/config.ts';
import { KeyEncryptionKey } from '../src/server/crypto/key-encryption-key.ts';
import { unlockServerSecrets } from '../src/server/db/secrets-startup.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { findRecord } from '../src/server/db/records.ts';
import { findUserByEmail } from '../src/server/db/tenants.ts';
import { createFrameWorkerPool } from '../src/server/imaging/frame-worker-pool.ts';
import { RecordImaging } from '../src/server/imaging/record-imaging.ts';
import { DEMO_TENANTS } from '../src/server/seed/demo-accounts.ts';
import { seedTenant } from '../src/server/seed/seed.ts';
import { LocalDirectoryStore } from '../src/server/storage/local-directory-store.ts';
import { mintIdToken } from '../tests/support/mint-token.ts';
import { FRAME_PACK_MEDIA_TYPE } from '../src/domain/pixels/frame-pack.ts';
import { importSource, makeFrameSources } from './frames-sources.ts';

/** The server listens on a random port, and requests name the tenant's host without one (`Host: demo.localhost`). */
const BENCH_URL_TEMPLATE = 'http://{tenant}.localhost';

const [mode, storeDir, sourcesDir] = process.argv.slice(2);
if (!storeDir) throw new Error('usage: frames-server.ts app|static STORE_DIR [SOURCES_DIR]');

if (mode === 'static') {
  const server = http.createServer((request, response) => {
    const file = path.join(storeDir, path.normalize(decodeURIComponent(request.url!.split('?')[0]!)).replace(/^(\.\.[/\\])+/, ''));
    fs.readFile(file, (error, data) => {
      if (error) return void response.writeHead(404).end();
      const gzipped = file.endsWith('.gz');
      response.writeHead(200, { 'content-type': gzipped ? 'application/octet-stream' : FRAME_PACK_MEDIA_TYPE, ...(gzipped ? { 'content-encoding': 'gzip' } : {}), 'content-length': data.length });
      response.end(data);
    });
  });
  server.listen(0, '127.0.0.1', () => console.info(JSON.stringify({ port: (server.address() as { port: number }).port, pid: process.pid })));
} else {
  const config = { ...loadConfig({ PORT: '0', PUBLIC_URL_TEMPLATE: BENCH_URL_TEMPLATE, KEY_ENCRYPTION_KEY: KeyEncryptionKey.generate().encode(), LOG_LEVEL: 'error', NODE_ENV: 'production', PREGENERATE_DEMO: 'false' }), webRoot: '/nonexistent' };
  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  for (const tenant of DEMO_TENANTS) await seedTenant(database.db, tenant);
  await unlockServerSecrets(config, database.db);
  const store = new LocalDirectoryStore(storeDir);
  const app = await buildApp({ config, database, store });
  const user = await findUserByEmail(database.db, 'demo', 'clinician@demo.test');
  const origin = tenantOrigin(config, 'demo');
  const authorization = `Bearer ${await mintIdToken(database.db, 'demo', origin, { sub: user!.id, expiresIn: '1h' })}`;
  const headers = { host: 'demo.localhost', authorization };
  const records = (await app.inject({ url: '/api/demo/patients/DEM-001/records', headers })).json() as { records: { recordId: string; bmodeFrameCount: number }[] };
  const recordId = records.records.find((r) => r.bmodeFrameCount === 3600)!.recordId;
  // Every chunk stored before measuring, by the app's own generator on as many workers, before the
  // app listens: listening starts the demo pre-generation, which would make this record beside it.
  const pool = createFrameWorkerPool(config.imagingWorkers);
  const imaging = new RecordImaging(store, pool, app.log);
  const started = performance.now();
  await imaging.generateAll((await findRecord(database.db, 'demo', recordId))!, 'demand');
  const generationSeconds = (performance.now() - started) / 1000;
  imaging.close();
  await pool.close();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  // The imported series, through the API as an uploader sends them (listening: the import jobs run).
  const sources = [];
  for (const source of makeFrameSources(sourcesDir ?? path.join(storeDir, '..', `${path.basename(storeDir)}-sources`))) {
    const started = performance.now();
    sources.push({ ...source, recordId: await importSource(app, headers, source), importSeconds: (performance.now() - started) / 1000 });
  }
  console.info(JSON.stringify({ port, pid: process.pid, authorization, recordId, generationSeconds, tenant: 'demo', sources }));
}
