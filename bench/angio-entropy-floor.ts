/**
 * Why the demo angiogram cannot reach 0.6x gzip losslessly (issue 27): each pixel carries
 * independent quantum noise (NOISE_SIGMA 6 grey levels at the background, sqrt of the level
 * elsewhere), and no lossless coder can spend fewer bits on a pixel than that noise's entropy.
 * Prints, per frame of the first chunk: gzip (as the server made it), JPEG-LS lossless (what is sent
 * today) and the noise's entropy floor, in bits per pixel, and the floor as a share of gzip.
 *
 *   node_modules/.bin/node bench/angio-entropy-floor.ts
 *
 * The floor uses each pixel's own value as its noiseless level (the error is second order: the
 * entropy of a Gaussian changes by log2 of the sigma ratio, and sigma goes as the square root).
 */
import zlib from 'node:zlib';
import { createPullbackModel } from '../src/domain/synthetic/pullback-model.ts';
import { encodeGray, initGrayEncoder } from '../src/server/dicom/codecs/jpeg-ls-encoder.ts';
import { generateAngioFrames } from '../src/server/imaging/demo-pullback.ts';
import { MADE_CHUNK_GZIP } from '../src/server/imaging/imaging-keys.ts';

const SIZE = 512;
const CHUNK = 16;
// The generator's noise: the sum of four uniform bytes, centred on 510 and divided by 147.8, times sigma.
const NOISE_SIGMA = 6;
const BACKGROUND_LEVEL = 178;
const byteSum = new Float64Array(1021);
for (let a = 0; a < 256; a++) for (let b = 0; b < 256; b++) byteSum[a + b] = byteSum[a + b]! + 1;
const twoSum = byteSum.slice();
byteSum.fill(0);
for (let s = 0; s <= 510; s++) for (let t = 0; t <= 510; t++) byteSum[s + t] = byteSum[s + t]! + twoSum[s]! * twoSum[t]!;
const total = 256 ** 4;

/** Entropy in bits of floor(offset + sigma·g), averaged over offsets in [0, 1). */
const entropyCache = new Map<number, number>();
function noiseEntropy(sigma: number): number {
  const key = Math.round(sigma * 100);
  const cached = entropyCache.get(key);
  if (cached !== undefined) return cached;
  let sum = 0;
  const offsets = 8;
  for (let k = 0; k < offsets; k++) {
    const mass = new Map<number, number>();
    for (let s = 0; s <= 1020; s++) {
      const value = Math.floor(k / offsets + (key / 100) * ((s - 510) / 147.8));
      mass.set(value, (mass.get(value) ?? 0) + byteSum[s]! / total);
    }
    for (const p of mass.values()) if (p > 0) sum -= (p * Math.log2(p)) / offsets;
  }
  entropyCache.set(key, sum);
  return sum;
}

await initGrayEncoder();
console.log('seed | gzip b/px | JPEG-LS b/px | noise floor b/px | JPEG-LS / gzip | floor / gzip');
for (const seed of [7, 19, 4242, 90210]) {
  const model = createPullbackModel({ seed, frameCount: 3600 });
  const frames = generateAngioFrames(model, 96, SIZE, 0, CHUNK);
  const pixels = frames.length;
  const gzipBits = zlib.gzipSync(frames, MADE_CHUNK_GZIP).length * 8;
  let lsBits = 0;
  let floorBits = 0;
  for (let f = 0; f < CHUNK; f++) {
    const frame = frames.subarray(f * SIZE * SIZE, (f + 1) * SIZE * SIZE);
    lsBits += encodeGray(frame, SIZE, SIZE).length * 8;
    for (const value of frame) floorBits += noiseEntropy(NOISE_SIGMA * Math.sqrt(Math.max(value, 1) / BACKGROUND_LEVEL));
  }
  const bpp = (bits: number) => (bits / pixels).toFixed(3);
  console.log(`${seed} | ${bpp(gzipBits)} | ${bpp(lsBits)} | ${bpp(floorBits)} | ${(lsBits / gzipBits).toFixed(3)} | ${(floorBits / gzipBits).toFixed(3)}`);
}
