/**
 * `npm run bench:record-borders` (issue 23, speed): the wall time of the server's own detection
 * service (RecordContourService, its contour workers: availableParallelism) on a 3,600-frame
 * post-PCI demo record (512 x 512, 0.01 mm, with a stent) whose frames are already stored, from
 * "detection starts" to every border stored (the final contours and MLA, `stentPending`) and to the
 * stent stored, and the process's CPU (every thread) over the same span. The chunks are generated
 * once into a cache directory (BENCH_STORE, by default in the temp dir) and reused by later runs.
 * BENCH_RUNS (default 1) detections one after another. Prints figures; asserts nothing.
 */
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { RecordRow } from '../src/server/db/records.ts';
import { contoursKey, RecordContourService } from '../src/server/contours/record-contours.ts';
import { createFrameWorkerPool } from '../src/server/imaging/frame-worker-pool.ts';
import { imagingKey, RecordImaging } from '../src/server/imaging/record-imaging.ts';
import type { BlobStore } from '../src/server/storage/blob-store.ts';
import { LocalDirectoryStore } from '../src/server/storage/local-directory-store.ts';

const FRAMES = Number(process.env.BENCH_FRAMES ?? 3600);
const RUNS = Number(process.env.BENCH_RUNS ?? 1);
const root = process.env.BENCH_STORE ?? path.join(os.tmpdir(), `record-borders-bench-${FRAMES}`);
const log = { error: (...a: unknown[]) => console.error(...a), warn: () => {}, info: () => {}, debug: () => {} } as unknown as FastifyBaseLogger;

/** Seed 3: a post-PCI run (demo-run.ts), so its frames show a stent and the stent pass has struts to read. */
const record = {
  id: '00000000-0000-4000-8000-00000000b023',
  tenantId: 'bench',
  patientId: 'BEN-001',
  imagingVersion: 'v2-stent',
  imagingSource: 'demo',
  demoSeed: 3,
  bmodeFrameCount: FRAMES,
  angioFrameCount: 16,
  frameWidth: 512,
  frameHeight: 512,
  angioWidth: 128,
  angioHeight: 128,
  pixelSpacingMm: 0.01,
  frameRateHz: 30,
  pullbackSpeedMmPerS: 0.5,
  chunkFormat: 'gray8',
} as RecordRow;

const disk = new LocalDirectoryStore(root);
if (!(await disk.get(imagingKey(record, 'complete')))) {
  const started = performance.now();
  console.info(`generating the ${FRAMES}-frame record's chunks once into ${root} ...`);
  const pool = createFrameWorkerPool();
  const imaging = new RecordImaging(disk, pool, log);
  await imaging.generateAll(record, 'demand');
  imaging.close();
  await pool.close();
  console.info(`  generated in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/** The disk store, noting when the contours are first stored (borders, stent pending) and when the marker goes (stent stored). */
function timedStore(marks: { borders?: number; stent?: number }): BlobStore {
  const pendingPrefix = imagingKey(record, 'contours/');
  return {
    get: (key) => disk.get(key),
    put: async (key, data) => {
      await disk.put(key, data);
      if (key === contoursKey(record) && marks.borders === undefined) marks.borders = performance.now();
    },
    deletePrefix: async (prefix) => {
      await disk.deletePrefix(prefix);
      if (prefix.startsWith(pendingPrefix) && prefix.endsWith('.stent-pending')) marks.stent = performance.now();
    },
    putFile: (key, file) => disk.putFile(key, file),
    getFile: (key, file) => disk.getFile(key, file),
  };
}

const cpuSeconds = (used: NodeJS.CpuUsage) => (used.user + used.system) / 1e6;
console.info(`${FRAMES} frames, 512 x 512, contour workers ${os.availableParallelism()}, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} before`);
for (let run = 0; run < RUNS; run++) {
  await disk.deletePrefix(imagingKey(record, 'contours/'));
  const marks: { borders?: number; stent?: number } = {};
  const store = timedStore(marks);
  const imaging = new RecordImaging(store, null, log);
  const service = new RecordContourService({ store, imaging, workers: os.availableParallelism(), log, jobs: { send: async () => null } });
  const cpu = process.cpuUsage();
  const started = performance.now();
  let bordersCpu = 0;
  const poll = setInterval(() => {
    if (marks.borders !== undefined && bordersCpu === 0) bordersCpu = cpuSeconds(process.cpuUsage(cpu));
  }, 50);
  await service.detect(record, true);
  clearInterval(poll);
  const total = cpuSeconds(process.cpuUsage(cpu));
  await service.close();
  imaging.close();
  if (marks.borders === undefined || marks.stent === undefined) throw new Error('the detection stored no contours or no stent');
  const s = (at: number) => ((at - started) / 1000).toFixed(1);
  console.info(
    `run ${run + 1}: every border stored (MLA) ${s(marks.borders)} s (CPU ${bordersCpu.toFixed(1)} s), stent stored ${s(marks.stent)} s (CPU ${total.toFixed(1)} s), ` +
      `${(FRAMES / ((marks.borders - started) / 1000) / os.availableParallelism()).toFixed(0)} frames/s per core to the borders; load ${os.loadavg()[0]!.toFixed(2)}`,
  );
}
