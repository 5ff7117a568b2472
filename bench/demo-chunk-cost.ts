/**
 * `node bench/demo-chunk-cost.ts [--rounds N] [--seed S]`: the CPU of making one demo chunk on a
 * frame worker's path (issue 27: a first open's Play waits for chunks 0–6 and angio 0), split into
 * B-mode rendering, angiography rendering and JPEG-LS encoding. Chunks are taken from across a
 * 3,600-frame record (not the first ones only), each made on a fresh renderer's warm code, and the
 * CPU is this thread's own, so a busy neighbour inflates the wall time but not these figures.
 * Also the first chunk of records not rendered on this thread before (a first open's chunk 0: the
 * per-record tables are built then), on a thread that has rendered another record of the same
 * geometry. Under `node --cpu-prof` it doubles as the profile of a chunk's making.
 */
import { parseArgs } from 'node:util';
import { FRAMES_PER_CHUNK } from '../src/domain/images.ts';
import { createPullbackModel } from '../src/domain/synthetic/pullback-model.ts';
import { encodeGrayFrames, initGrayEncoder } from '../src/server/dicom/codecs/jpeg-ls-encoder.ts';
import { generateAngioFrames, generateFrames } from '../src/server/imaging/demo-pullback.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '12' }, seed: { type: 'string', default: '31337' } } });
const rounds = Number(values.rounds);
const RECORD_FRAMES = 3600;
const ANGIO_FRAMES = 150;
const SIZE = 512;

function cpuMs(run: () => void): number {
  const start = process.threadCpuUsage();
  run();
  const used = process.threadCpuUsage(start);
  return (used.user + used.system) / 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

await initGrayEncoder();
const model = createPullbackModel({ seed: Number(values.seed), frameCount: RECORD_FRAMES });
// Warm-up as the worker does, so the first timed chunk runs optimised code.
encodeGrayFrames(generateFrames(model, 0, FRAMES_PER_CHUNK), model.frameSizePx, model.frameSizePx);
encodeGrayFrames(generateAngioFrames(model, ANGIO_FRAMES, SIZE, 0, 4), SIZE, SIZE);

const render: number[] = [];
const encode: number[] = [];
const angioRender: number[] = [];
const angioEncode: number[] = [];
const chunkStride = Math.floor(RECORD_FRAMES / FRAMES_PER_CHUNK / rounds);
for (let round = 0; round < rounds; round++) {
  const start = (round * chunkStride + 1) * FRAMES_PER_CHUNK;
  let frames = new Uint8Array(0);
  render.push(cpuMs(() => (frames = generateFrames(model, start, start + FRAMES_PER_CHUNK))));
  encode.push(cpuMs(() => encodeGrayFrames(frames, model.frameSizePx, model.frameSizePx)));
  const angioStart = (round % Math.floor(ANGIO_FRAMES / FRAMES_PER_CHUNK)) * FRAMES_PER_CHUNK;
  let angio = new Uint8Array(0);
  angioRender.push(cpuMs(() => (angio = generateAngioFrames(model, ANGIO_FRAMES, SIZE, angioStart, angioStart + FRAMES_PER_CHUNK))));
  angioEncode.push(cpuMs(() => encodeGrayFrames(angio, SIZE, SIZE)));
}
// First chunks of records new to this thread: B-mode and angio chunk 0, render only.
const firstRender: number[] = [];
const firstAngio: number[] = [];
for (let k = 1; k <= 8; k++) {
  const fresh = createPullbackModel({ seed: Number(values.seed) + k, frameCount: RECORD_FRAMES });
  firstRender.push(cpuMs(() => generateFrames(fresh, 0, FRAMES_PER_CHUNK)));
  firstAngio.push(cpuMs(() => generateAngioFrames(fresh, ANGIO_FRAMES, SIZE, 0, FRAMES_PER_CHUNK)));
}
const line = (label: string, values: number[]) =>
  console.info(`${label.padEnd(28)} median ${median(values).toFixed(1).padStart(6)} ms CPU a chunk  (${(median(values) / FRAMES_PER_CHUNK).toFixed(2)} ms a frame; ${values.length} chunks)`);
console.info(`demo chunk of ${FRAMES_PER_CHUNK} frames, ${model.frameSizePx}x${model.frameSizePx}, seed ${values.seed}`);
line('B-mode render', render);
line('B-mode JPEG-LS encode', encode);
line('B-mode chunk, both', render.map((r, i) => r + encode[i]!));
line('angio render', angioRender);
line('angio JPEG-LS encode', angioEncode);
line('B-mode render, new record', firstRender);
line('angio render, new record', firstAngio);
