/**
 * The polar frame's pulse blur (separable: along each line, then across neighbouring lines,
 * circular), envelope and log compression. A third of a frame's rendering (issue 23: generation
 * sits on a first open's path to the borders), so the five-tap pulses of the demo look (and the
 * 60 MHz beam) have loops of their own: the same sums in the same order as the general loops, with
 * the taps in locals, the window slid along the line instead of re-read, and no inner tap loop.
 *
 * Every sum is the centre tap's term plus, outwards, each tap times the pair of samples it weighs
 * (nearer first, minus side first), and the along-line sums are stored as float32 before the
 * across-line pass: the order and the roundings the frames were always made with.
 */
import { levelOf, type LogCompression } from './log-compression.ts';

export interface PulseBlurBuffers {
  readonly lineCount: number;
  readonly sampleCount: number;
  readonly axialTaps: readonly number[];
  readonly lateralTaps: readonly number[];
  readonly compression: LogCompression;
  /** The speckled echo, line-major (lineCount x sampleCount). */
  readonly re: Float32Array;
  readonly im: Float32Array;
  /** Scratch: the echo blurred along the lines. */
  readonly blurredRe: Float32Array;
  readonly blurredIm: Float32Array;
}

/** Writes the grey levels of the lineCount x sampleCount polar samples into `out` (line-major). */
export function blurAndCompress(buffers: PulseBlurBuffers, out: Uint8Array): void {
  const { lineCount, sampleCount, axialTaps, lateralTaps, re, im, blurredRe, blurredIm } = buffers;
  if (axialTaps.length === 5) {
    blurLines5(re, blurredRe, lineCount, sampleCount, axialTaps);
    blurLines5(im, blurredIm, lineCount, sampleCount, axialTaps);
  } else {
    blurLines(re, blurredRe, lineCount, sampleCount, axialTaps);
    blurLines(im, blurredIm, lineCount, sampleCount, axialTaps);
  }
  if (lateralTaps.length === 5) blurAcrossAndCompress5(buffers, out);
  else blurAcrossAndCompress(buffers, out);
}

/**
 * The samples at each end of a line lack neighbours. The near end lies inside the catheter (silent)
 * and the far end in padding the scan converter never reads, so they stay unblurred (centre tap only).
 */
function copyLineEnds(source: Float32Array, blurred: Float32Array, base: number, end: number, half: number, centreTap: number): void {
  for (let k = 0; k < half; k++) {
    blurred[base + k] = centreTap * source[base + k]!;
    blurred[end - 1 - k] = centreTap * source[end - 1 - k]!;
  }
}

function blurLines(source: Float32Array, blurred: Float32Array, lineCount: number, sampleCount: number, taps: readonly number[]): void {
  const half = (taps.length - 1) / 2;
  const centreTap = taps[half]!;
  for (let i = 0; i < lineCount; i++) {
    const base = i * sampleCount;
    const end = base + sampleCount;
    copyLineEnds(source, blurred, base, end, half, centreTap);
    for (let k = base + half; k < end - half; k++) {
      let sum = centreTap * source[k]!;
      for (let t = 1; t <= half; t++) sum += taps[half + t]! * (source[k - t]! + source[k + t]!);
      blurred[k] = sum;
    }
  }
}

function blurLines5(source: Float32Array, blurred: Float32Array, lineCount: number, sampleCount: number, taps: readonly number[]): void {
  const tap0 = taps[2]!;
  const tap1 = taps[3]!;
  const tap2 = taps[4]!;
  for (let i = 0; i < lineCount; i++) {
    const base = i * sampleCount;
    const end = base + sampleCount;
    copyLineEnds(source, blurred, base, end, 2, tap0);
    let minus2 = source[base]!;
    let minus1 = source[base + 1]!;
    let centre = source[base + 2]!;
    let plus1 = source[base + 3]!;
    for (let k = base + 2; k < end - 2; k++) {
      const plus2 = source[k + 2]!;
      blurred[k] = tap0 * centre + tap1 * (minus1 + plus1) + tap2 * (minus2 + plus2);
      minus2 = minus1;
      minus1 = centre;
      centre = plus1;
      plus1 = plus2;
    }
  }
}

function blurAcrossAndCompress(buffers: PulseBlurBuffers, out: Uint8Array): void {
  const { lineCount, sampleCount, lateralTaps: taps, compression, blurredRe, blurredIm } = buffers;
  const half = (taps.length - 1) / 2;
  const centreTap = taps[half]!;
  const neighbours = new Int32Array(2 * half);
  for (let i = 0; i < lineCount; i++) {
    const c0 = i * sampleCount;
    for (let t = 1; t <= half; t++) {
      neighbours[2 * (t - 1)] = ((i + lineCount - t) % lineCount) * sampleCount;
      neighbours[2 * (t - 1) + 1] = ((i + t) % lineCount) * sampleCount;
    }
    for (let j = 0; j < sampleCount; j++) {
      let r = centreTap * blurredRe[c0 + j]!;
      let m = centreTap * blurredIm[c0 + j]!;
      for (let t = 1; t <= half; t++) {
        const tap = taps[half + t]!;
        const minus = neighbours[2 * (t - 1)]! + j;
        const plus = neighbours[2 * (t - 1) + 1]! + j;
        r += tap * (blurredRe[minus]! + blurredRe[plus]!);
        m += tap * (blurredIm[minus]! + blurredIm[plus]!);
      }
      // Log compression by table: exactly the logarithm's levels, at a fraction of its cost.
      out[c0 + j] = levelOf(compression, r * r + m * m);
    }
  }
}

function blurAcrossAndCompress5(buffers: PulseBlurBuffers, out: Uint8Array): void {
  const { lineCount, sampleCount, lateralTaps: taps, compression, blurredRe, blurredIm } = buffers;
  const tap0 = taps[2]!;
  const tap1 = taps[3]!;
  const tap2 = taps[4]!;
  for (let i = 0; i < lineCount; i++) {
    const c0 = i * sampleCount;
    const minus1 = ((i + lineCount - 1) % lineCount) * sampleCount;
    const plus1 = ((i + 1) % lineCount) * sampleCount;
    const minus2 = ((i + lineCount - 2) % lineCount) * sampleCount;
    const plus2 = ((i + 2) % lineCount) * sampleCount;
    for (let j = 0; j < sampleCount; j++) {
      const r = tap0 * blurredRe[c0 + j]! + tap1 * (blurredRe[minus1 + j]! + blurredRe[plus1 + j]!) + tap2 * (blurredRe[minus2 + j]! + blurredRe[plus2 + j]!);
      const m = tap0 * blurredIm[c0 + j]! + tap1 * (blurredIm[minus1 + j]! + blurredIm[plus1 + j]!) + tap2 * (blurredIm[minus2 + j]! + blurredIm[plus2 + j]!);
      out[c0 + j] = levelOf(compression, r * r + m * m);
    }
  }
}
