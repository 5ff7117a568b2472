/**
 * `npm run bench:generator`: cost of the demo imaging generator on this machine: B-mode frames
 * (one thread, and a worker pool), angiography frames, the per-renderer tables, and what that
 * means for the 3,600-frame demo record.
 */
import { availableParallelism } from 'node:os';
import { renderAngioFrame } from '../src/domain/synthetic/angio-frame.ts';
import { createBmodeRenderer } from '../src/domain/synthetic/bmode-frame.ts';
import { lumenAreaProfileMm2 } from '../src/domain/synthetic/contours.ts';
import { createPullbackModel } from '../src/domain/synthetic/pullback-model.ts';
import { createFrameWorkerPool } from '../src/server/imaging/frame-worker-pool.ts';

const RECORD_FRAMES = 3600;
const SAMPLE_FRAMES = 200;
const ANGIO_FRAMES = 150;
const ANGIO_SAMPLES = 30;
const POOL_FRAMES = 600;
const POOL_CHUNK = 50;

function timeEach(count: number, run: (k: number) => void): number[] {
  const times: number[] = [];
  for (let k = 0; k < count; k++) {
    const start = performance.now();
    run(k);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

function summary(label: string, sorted: number[]): number {
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const p95 = sorted[Math.floor(sorted.length * 0.95)]!;
  console.info(`${label.padEnd(34)} median ${median.toFixed(2)} ms  p95 ${p95.toFixed(2)} ms  (${sorted.length} runs)`);
  return median;
}

const options = { seed: 20260, frameCount: RECORD_FRAMES };
const model = createPullbackModel(options);
console.info(`B-mode ${model.frameSizePx}x${model.frameSizePx}, ${RECORD_FRAMES} frames (${model.lengthMm} mm); ${availableParallelism()} cores`);

const setupStart = performance.now();
const renderer = createBmodeRenderer(model);
console.info(`${'renderer tables (once per model)'.padEnd(34)} ${(performance.now() - setupStart).toFixed(1)} ms`);
// Another record of the same geometry: what a frame worker pays for a record nobody opened (the
// scan conversion's tables are shared by geometry in trees that share them).
const otherStart = performance.now();
createBmodeRenderer(createPullbackModel({ ...options, seed: options.seed + 1 }));
console.info(`${'  another record, same geometry'.padEnd(34)} ${(performance.now() - otherStart).toFixed(1)} ms`);

const frame = new Uint8Array(model.frameSizePx * model.frameSizePx);
for (let k = 0; k < 20; k++) renderer.renderFrame(k, frame);
const stride = Math.floor(RECORD_FRAMES / SAMPLE_FRAMES);
const cpuStart = process.threadCpuUsage();
const bmodeMedian = summary('B-mode frame, one thread', timeEach(SAMPLE_FRAMES, (k) => renderer.renderFrame(k * stride, frame)));
// This thread's CPU as well as wall time: on a shared machine a busy neighbour inflates the latter, not the former.
const cpuUsed = process.threadCpuUsage(cpuStart);
console.info(`${'B-mode frame, one thread, CPU'.padEnd(34)} ${((cpuUsed.user + cpuUsed.system) / 1000 / SAMPLE_FRAMES).toFixed(2)} ms per frame`);

const profileStart = performance.now();
lumenAreaProfileMm2(model);
console.info(`${'true lumen area profile (record)'.padEnd(34)} ${(performance.now() - profileStart).toFixed(1)} ms`);

renderAngioFrame(model, 0, ANGIO_FRAMES);
const angioMedian = summary('angio frame 512x512', timeEach(ANGIO_SAMPLES, (k) => renderAngioFrame(model, k * 5, ANGIO_FRAMES)));

const pool = createFrameWorkerPool();
await pool.generate(options, 0, 10);
const poolStart = performance.now();
const chunks: Promise<unknown>[] = [];
for (let start = 0; start < POOL_FRAMES; start += POOL_CHUNK) chunks.push(pool.generate(options, start, start + POOL_CHUNK));
await Promise.all(chunks);
const poolPerFrame = (performance.now() - poolStart) / POOL_FRAMES;
await pool.close();
console.info(`${`B-mode frame, pool of ${pool.size} workers`.padEnd(34)} ${poolPerFrame.toFixed(2)} ms per frame (throughput over ${POOL_FRAMES} frames)`);

console.info('');
console.info(`projected ${RECORD_FRAMES}-frame record, one thread: ${((bmodeMedian * RECORD_FRAMES) / 1000).toFixed(1)} s`);
console.info(`projected ${RECORD_FRAMES}-frame record, ${pool.size} workers:  ${((poolPerFrame * RECORD_FRAMES) / 1000).toFixed(1)} s`);
console.info(`projected ${ANGIO_FRAMES}-frame angio run:          ${((angioMedian * ANGIO_FRAMES) / 1000).toFixed(1)} s`);
