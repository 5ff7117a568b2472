/**
 * Frames no border detector can read (issue 23), to check that the detector says so ("no border")
 * instead of placing a border: what a wrong series, a dead transducer, a mis-set export or a
 * mislabelled file gives. Pure and seeded.
 *
 * - black, grey, saturated: one level everywhere (no echo, a flat export, a blown gain);
 * - noise: white noise, every pixel uniform 0–255;
 * - gradient: a smooth left-to-right ramp;
 * - sector: an obstetric-like sector scan (apex at the top, speckle in a fan, a dark fluid-filled
 *   region and a bright curved echo), no catheter and no ring-down;
 * - angio: an X-ray angiogram frame of the case's anatomy (angio-frame.ts);
 * - zoomed, shrunk: an IVUS frame of another case scaled 2x and 0.5x about its centre (a wrong
 *   pixel spacing or a screen capture at another size).
 */
import { seededRandom } from '../random.ts';
import { renderAngioFrame } from './angio-frame.ts';
import type { PullbackModel } from './pullback-model.ts';

export const UNREADABLE_FRAME_KINDS = ['black', 'grey', 'saturated', 'noise', 'gradient', 'sector', 'angio', 'zoomed', 'shrunk'] as const;
export type UnreadableFrameKind = (typeof UNREADABLE_FRAME_KINDS)[number];

export interface UnreadableFrameSource {
  readonly width: number;
  readonly height: number;
  readonly seed: number;
  /** For 'angio': the anatomy drawn. */
  readonly model: PullbackModel;
  /** For 'zoomed' and 'shrunk': an IVUS frame of another case (or of another part of the pullback), width x height. */
  readonly otherFrame: Uint8Array;
}

const clampByte = (value: number): number => (value < 0 ? 0 : value > 255 ? 255 : Math.round(value));

/** Log-compressed speckle (Rayleigh amplitude) around `level`, as an ultrasound scanner shows it. */
function speckle(random: () => number, level: number): number {
  const amplitude = Math.sqrt(-2 * Math.log(1 - random()));
  return level + 24 * Math.log(amplitude + 1e-3);
}

function sectorScan(width: number, height: number, random: () => number): Uint8Array {
  const image = new Uint8Array(width * height);
  const apexX = width / 2;
  const apexY = -0.05 * height;
  const halfAngle = (35 * Math.PI) / 180;
  const depth = 1.05 * height;
  // A fluid-filled (dark) ellipse and a bright curved echo (a skull-like arc) inside the fan.
  const fluid = { x: width * (0.45 + 0.1 * random()), y: height * (0.55 + 0.1 * random()), rx: width * 0.22, ry: height * 0.16 };
  const arc = { x: fluid.x, y: fluid.y, r: width * 0.12 };
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const dx = col + 0.5 - apexX;
      const dy = row + 0.5 - apexY;
      const r = Math.hypot(dx, dy);
      if (r > depth || Math.abs(Math.atan2(dx, dy)) > halfAngle) continue;
      const inFluid = ((col - fluid.x) / fluid.rx) ** 2 + ((row - fluid.y) / fluid.ry) ** 2 < 1;
      const onArc = Math.abs(Math.hypot(col - arc.x, row - arc.y) - arc.r) < 3;
      const level = onArc ? 200 : inFluid ? 25 : 105 - 30 * (r / depth);
      image[row * width + col] = clampByte(speckle(random, level));
    }
  }
  return image;
}

/** `frame` scaled by `factor` about its centre (nearest pixel; outside the source reads black). */
function scaled(frame: Uint8Array, width: number, height: number, factor: number): Uint8Array {
  const image = new Uint8Array(width * height);
  for (let row = 0; row < height; row++) {
    const sourceRow = Math.floor(height / 2 + (row + 0.5 - height / 2) / factor);
    if (sourceRow < 0 || sourceRow >= height) continue;
    for (let col = 0; col < width; col++) {
      const sourceCol = Math.floor(width / 2 + (col + 0.5 - width / 2) / factor);
      if (sourceCol >= 0 && sourceCol < width) image[row * width + col] = frame[sourceRow * width + sourceCol]!;
    }
  }
  return image;
}

export function unreadableFrame(kind: UnreadableFrameKind, source: UnreadableFrameSource): Uint8Array {
  const { width, height } = source;
  const random = seededRandom(source.seed);
  switch (kind) {
    case 'black':
      return new Uint8Array(width * height);
    case 'grey':
      return new Uint8Array(width * height).fill(128);
    case 'saturated':
      return new Uint8Array(width * height).fill(255);
    case 'noise':
      return Uint8Array.from({ length: width * height }, () => Math.floor(random() * 256));
    case 'gradient': {
      const image = new Uint8Array(width * height);
      for (let row = 0; row < height; row++) for (let col = 0; col < width; col++) image[row * width + col] = Math.round((255 * col) / (width - 1));
      return image;
    }
    case 'sector':
      return sectorScan(width, height, random);
    case 'angio': {
      const size = Math.max(width, height);
      const angio = renderAngioFrame(source.model, Math.floor(random() * 30), 30, size);
      const image = new Uint8Array(width * height);
      for (let row = 0; row < height; row++) image.set(angio.subarray(row * size, row * size + width), row * width);
      return image;
    }
    case 'zoomed':
      return scaled(source.otherFrame, width, height, 2);
    case 'shrunk':
      return scaled(source.otherFrame, width, height, 0.5);
  }
}
