/**
 * `node bench/cold-open-phases.ts`: where a first open's server CPU goes, phase by phase, on the
 * 3,600-frame demo record (512 x 512, 0.01 mm): generating a chunk's frames, encoding them for the
 * wire (JPEG-LS pack), gzip for storage, and detection's parts (borders, calcium, stent struts).
 * Each phase's thread CPU is measured on the same chunks spread along the record, on this thread, and scaled to
 * the record's 225 chunks, and what of it lies on a first-pass chunk's path to its borders. Prints figures; asserts nothing.
 */
import zlib from 'node:zlib';
import { createBorderDetector } from '../src/domain/contours/border-detector.ts';
import { detectBorderSequence } from '../src/domain/contours/detect-sequence.ts';
import { createCalciumArcDetector } from '../src/domain/calcium/calcium-arc.ts';
import { withCalcium } from '../src/domain/calcium/slice-calcium.ts';
import { createStrutDetector } from '../src/domain/stent/strut-detection.ts';
import { createPullbackModel } from '../src/domain/synthetic/pullback-model.ts';
import { encodeGrayFrames, initGrayEncoder } from '../src/server/dicom/codecs/jpeg-ls-encoder.ts';
import { generateFrames } from '../src/server/imaging/demo-pullback.ts';
import { MADE_CHUNK_GZIP } from '../src/server/imaging/imaging-keys.ts';

const FRAMES = 3600;
const CHUNK = 16;
const SAMPLES = Number(process.env.BENCH_CHUNKS ?? 6);
const size = 512;
const geometry = { frameWidth: size, frameHeight: size, pixelSpacingMm: 0.01 };
const model = createPullbackModel({ seed: 0, frameCount: FRAMES, frameSizePx: size, pixelSpacingMm: 0.01, frameRateHz: 30, pullbackSpeedMmPerS: 0.5 });
await initGrayEncoder();
const detector = createBorderDetector(geometry);
const calcium = createCalciumArcDetector(geometry);
const struts = createStrutDetector({ ...geometry, centreX: size / 2, centreY: size / 2 });
const ms: Record<string, number> = { generation: 0, 'encoding (JPEG-LS pack)': 0, 'gzip (storage)': 0, gunzip: 0, borders: 0, calcium: 0, 'stent struts': 0 };
const time = <T>(phase: string, work: () => T): T => {
  // This thread's CPU, not wall time: the machine is shared, and a busy neighbour must not count.
  const start = process.threadCpuUsage();
  const result = work();
  const used = process.threadCpuUsage(start);
  ms[phase]! += (used.user + used.system) / 1000;
  return result;
};
// One chunk first, untimed: the detectors' tables, the codec and the JIT warm up.
generateFrames(model, 0, 2);
for (let k = 0; k < SAMPLES; k++) {
  const first = Math.floor(((k + 0.5) * FRAMES) / SAMPLES / CHUNK) * CHUNK;
  const frames = time('generation', () => generateFrames(model, first, first + CHUNK));
  time('encoding (JPEG-LS pack)', () => encodeGrayFrames(frames, size, size));
  const gz = time('gzip (storage)', () => zlib.gzipSync(frames, MADE_CHUNK_GZIP));
  const raw = time('gunzip', () => zlib.gunzipSync(gz));
  const result = time('borders', () => detectBorderSequence(detector, raw, geometry, null));
  time('calcium', () => withCalcium(calcium, result.detections, raw, size * size, { x: size / 2, y: size / 2 }));
  time('stent struts', () => {
    for (let offset = 0; offset < raw.length; offset += size * size) struts.detect(raw.subarray(offset, offset + size * size));
  });
}
const perFrame = (phase: string) => ms[phase]! / (SAMPLES * CHUNK);
const total = Object.keys(ms).reduce((sum, phase) => sum + perFrame(phase), 0);
console.info(`${SAMPLES} chunks of ${CHUNK} frames; CPU per frame, and for the record's ${FRAMES} frames (one core):`);
for (const phase of Object.keys(ms)) {
  console.info(`  ${phase.padEnd(24)} ${perFrame(phase).toFixed(2).padStart(6)} ms/frame  ${((perFrame(phase) * FRAMES) / 1000).toFixed(1).padStart(6)} s  ${((100 * perFrame(phase)) / total).toFixed(0).padStart(3)} %`);
}
console.info(`  ${'total'.padEnd(24)} ${total.toFixed(2).padStart(6)} ms/frame  ${((total * FRAMES) / 1000).toFixed(1).padStart(6)} s`);
// A first-pass chunk's borders wait for these phases one after another: since issue 23's second step the raw
// frames go to detection once rendered (record-imaging.ts bmodeChunkForDetection), so encoding, gzip and
// gunzip are off that path (they still run, beside it), and its struts are read after every border.
const path = (phases: string[]) => phases.reduce((sum, phase) => sum + perFrame(phase), 0);
const firstPass = ['generation', 'borders', 'calcium'];
console.info(`first-pass chunk, CPU on its path to the borders: ${path(firstPass).toFixed(2)} ms/frame (before it also waited for encoding, gzip and gunzip: ${path([...firstPass, 'encoding (JPEG-LS pack)', 'gzip (storage)', 'gunzip']).toFixed(2)})`);
