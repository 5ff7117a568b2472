/**
 * Demo X-ray angiogram frames: a bright, noisy background with soft anatomy, contrast-filled
 * vessels that absorb along the chord through each (round) vessel, the heart's motion from frame to
 * frame, and a marker where the IVUS transducer was at the frame's first slice.
 */
import { firstSliceForAngioFrame } from '../frame-sync.ts';
import {
  angioTree,
  cardiacPose,
  movePoint,
  pointAtArc,
  transducerArc,
  type AngioTree,
  type AngioVessel,
  type CardiacPose,
} from './angio-geometry.ts';
import { seededRandom } from '../random.ts';
import { deriveSeed, hash32 } from './hash.ts';
import type { PullbackModel } from './pullback-model.ts';

/** Attenuation of contrast-filled blood per mm of path (a 3.5 mm vessel transmits about 30 %). */
const CONTRAST_PER_MM = 0.36;
const BACKGROUND_LEVEL = 178;
const NOISE_SIGMA = 6;
const BACKGROUND_GRID = 64;
const MARKER_LEVEL = 250;
const MARKER_HALF_WIDTH_PX = 1.3;
const ANGIO_NOISE_STREAM = 0x4e015e;
const ANGIO_BACKGROUND_STREAM = 0xb6c9;

/**
 * What every frame of one model at one size shares, made once (issue 27: the angiogram's first
 * chunk is on a first open's path to Play): the vessel tree, the still background upsampled to the
 * frame, and the noise's scale over that background. The per-pixel values are the very doubles the
 * per-frame loop used to compute, so frames are unchanged to the bit.
 */
interface AngioFrameTables {
  readonly tree: AngioTree;
  /** The background's level at each pixel, before the vessels absorb. */
  readonly background: Float64Array;
  /** NOISE_SIGMA · sqrt(background / BACKGROUND_LEVEL) at each pixel: the noise's scale where no vessel is. */
  readonly backgroundNoise: Float64Array;
  /** Scratch for a frame's contrast path lengths (one renderer per thread, as for the B-mode). */
  readonly pathMm: Float32Array;
}

const tablesByModel = new WeakMap<PullbackModel, Map<number, AngioFrameTables>>();

function angioFrameTables(model: PullbackModel, sizePx: number): AngioFrameTables {
  let bySize = tablesByModel.get(model);
  if (bySize === undefined) tablesByModel.set(model, (bySize = new Map()));
  let tables = bySize.get(sizePx);
  if (tables === undefined) {
    const tree = bySize.values().next().value?.tree ?? angioTree(model);
    tables = { tree, ...upsampledBackground(backgroundGrid(model, tree), sizePx), pathMm: new Float32Array(sizePx * sizePx) };
    bySize.set(sizePx, tables);
  }
  return tables;
}

/** Bilinear upsampling of the coarse background to sizePx², and the noise's scale over it. */
function upsampledBackground(grid: Float32Array, sizePx: number): { background: Float64Array; backgroundNoise: Float64Array } {
  const stride = BACKGROUND_GRID + 1;
  const background = new Float64Array(sizePx * sizePx);
  const backgroundNoise = new Float64Array(sizePx * sizePx);
  // The column weights are the same for every row.
  const cellOfColumn = new Int32Array(sizePx);
  const weightOfColumn = new Float32Array(sizePx);
  for (let col = 0; col < sizePx; col++) {
    const g = ((col + 0.5) / sizePx) * BACKGROUND_GRID;
    cellOfColumn[col] = Math.min(BACKGROUND_GRID - 1, Math.floor(g));
    weightOfColumn[col] = g - cellOfColumn[col]!;
  }
  for (let row = 0; row < sizePx; row++) {
    const g = ((row + 0.5) / sizePx) * BACKGROUND_GRID;
    const cellRow = Math.min(BACKGROUND_GRID - 1, Math.floor(g));
    const rowWeight = g - cellRow;
    for (let col = 0; col < sizePx; col++) {
      const k = cellRow * stride + cellOfColumn[col]!;
      const w = weightOfColumn[col]!;
      const top = grid[k]! + (grid[k + 1]! - grid[k]!) * w;
      const bottom = grid[k + stride]! + (grid[k + stride + 1]! - grid[k + stride]!) * w;
      const level = top + (bottom - top) * rowWeight;
      background[row * sizePx + col] = level;
      backgroundNoise[row * sizePx + col] = NOISE_SIGMA * Math.sqrt(level / BACKGROUND_LEVEL);
    }
  }
  return { background, backgroundNoise };
}

/** Quantum noise: roughly Gaussian, a sum of four uniform bytes (0..1020) centred and scaled, by table. */
const GAUSSIAN_OF_BYTE_SUM = Float64Array.from({ length: 1021 }, (_, sum) => (sum - 510) / 147.8);

export function renderAngioFrame(model: PullbackModel, angioIndex: number, angioFrameCount: number, sizePx = 512, out?: Uint8Array): Uint8Array {
  if (!Number.isInteger(angioIndex) || angioIndex < 0 || angioIndex >= angioFrameCount) {
    throw new RangeError(`angio frame ${angioIndex} is outside 0..${angioFrameCount - 1}`);
  }
  if (out !== undefined && out.length !== sizePx * sizePx) throw new RangeError(`output must hold ${sizePx * sizePx} bytes, got ${out.length}`);
  const { tree, background, backgroundNoise, pathMm } = angioFrameTables(model, sizePx);
  const pose = cardiacPose(angioIndex);
  const mmPerPx = tree.mmPerUnit / sizePx;
  pathMm.fill(0);
  for (const vessel of tree.vessels) stampVessel(vessel, tree, pose, sizePx, mmPerPx, pathMm);

  const image = out ?? new Uint8Array(sizePx * sizePx);
  const noiseSeed = deriveSeed(model.seed ^ ANGIO_NOISE_STREAM, angioIndex);
  for (let index = 0; index < image.length; index++) {
    const path = pathMm[index]!;
    // Where no vessel lies the path is 0 and exp(-0) is exactly 1: the level is the background's.
    let level = background[index]!;
    let noiseScale = backgroundNoise[index]!;
    if (path !== 0) {
      level *= Math.exp(-CONTRAST_PER_MM * path);
      // Stronger where more photons arrive.
      noiseScale = NOISE_SIGMA * Math.sqrt(level / BACKGROUND_LEVEL);
    }
    const h = hash32(noiseSeed ^ Math.imul(index, 0x9e3779b1));
    const value = level + noiseScale * GAUSSIAN_OF_BYTE_SUM[(h & 255) + ((h >>> 8) & 255) + ((h >>> 16) & 255) + (h >>> 24)]!;
    image[index] = value <= 0 ? 0 : value >= 255 ? 255 : value;
  }
  drawTransducerMarker(model, tree, pose, angioIndex, angioFrameCount, sizePx, mmPerPx, image);
  return image;
}

/**
 * Adds a vessel's chord length (mm of contrast the ray crosses) to the path map, segment by
 * segment; overlapping vessels keep the longer chord so junctions do not darken twice.
 */
function stampVessel(vessel: AngioVessel, tree: AngioTree, pose: CardiacPose, sizePx: number, mmPerPx: number, pathMm: Float32Array): void {
  let [ax, ay] = movePoint(tree, pose, vessel.x[0]!, vessel.y[0]!);
  ax *= sizePx;
  ay *= sizePx;
  for (let k = 1; k < vessel.x.length; k++) {
    let [bx, by] = movePoint(tree, pose, vessel.x[k]!, vessel.y[k]!);
    bx *= sizePx;
    by *= sizePx;
    const radiusA = vessel.diameterMm[k - 1]! / 2 / mmPerPx;
    const radiusB = vessel.diameterMm[k]! / 2 / mmPerPx;
    const reach = Math.max(radiusA, radiusB) + 1;
    const colStart = Math.max(0, Math.floor(Math.min(ax, bx) - reach));
    const colEnd = Math.min(sizePx - 1, Math.ceil(Math.max(ax, bx) + reach));
    const rowStart = Math.max(0, Math.floor(Math.min(ay, by) - reach));
    const rowEnd = Math.min(sizePx - 1, Math.ceil(Math.max(ay, by) + reach));
    const dx = bx - ax;
    const dy = by - ay;
    const lengthSquared = dx * dx + dy * dy || 1;
    for (let row = rowStart; row <= rowEnd; row++) {
      const py = row + 0.5 - ay;
      for (let col = colStart; col <= colEnd; col++) {
        const px = col + 0.5 - ax;
        let t = (px * dx + py * dy) / lengthSquared;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        const ex = px - t * dx;
        const ey = py - t * dy;
        const radius = radiusA + (radiusB - radiusA) * t;
        const inside = radius * radius - (ex * ex + ey * ey);
        if (inside <= 0) continue;
        const chordMm = 2 * Math.sqrt(inside) * mmPerPx;
        const index = row * sizePx + col;
        if (chordMm > pathMm[index]!) pathMm[index] = chordMm;
      }
    }
    ax = bx;
    ay = by;
  }
}

/**
 * Soft anatomy behind the vessels, on a coarse grid (it has no fine detail): the heart's shadow
 * around its centre, the diaphragm's dome at the bottom, the spine, a few ribs, lung markings and a
 * vignette towards the corners. Still across frames (breath-hold), so the vessels' motion stands out.
 */
function backgroundGrid(model: PullbackModel, tree: AngioTree): Float32Array {
  const random = seededRandom(deriveSeed(model.seed, ANGIO_BACKGROUND_STREAM));
  const blobs = Array.from({ length: 14 }, () => ({
    u: random(),
    v: random(),
    size: 0.04 + 0.1 * random(),
    level: (random() - 0.5) * 22,
  }));
  const ribs = Array.from({ length: 4 }, (_, k) => ({ v: 0.12 + 0.24 * k + (random() - 0.5) * 0.06, tilt: 0.25 + 0.15 * random() }));
  const [hx, hy] = tree.heartCentre;
  const spineU = 0.7 + (random() - 0.5) * 0.1;
  const grid = new Float32Array((BACKGROUND_GRID + 1) * (BACKGROUND_GRID + 1));
  for (let gv = 0; gv <= BACKGROUND_GRID; gv++) {
    const v = gv / BACKGROUND_GRID;
    for (let gu = 0; gu <= BACKGROUND_GRID; gu++) {
      const u = gu / BACKGROUND_GRID;
      let level = BACKGROUND_LEVEL;
      const du = (u - hx) / 0.36;
      const dv = (v - hy) / 0.3;
      level -= 26 * Math.exp(-0.5 * (du * du + dv * dv));
      level -= 36 / (1 + Math.exp(-(v - (0.86 + 0.3 * (u - 0.55) * (u - 0.55))) / 0.025));
      const spine = (u - spineU) / 0.08;
      level -= 16 * Math.exp(-0.5 * spine * spine);
      for (const rib of ribs) {
        // A rib is a gently curved band; bone absorbs a little more than lung, so it is darker.
        const offset = (v - rib.v - rib.tilt * (u - 0.5) - 0.35 * (u - 0.5) * (u - 0.5)) / 0.022;
        level -= 9 * Math.exp(-0.5 * offset * offset);
      }
      for (const blob of blobs) {
        const bu = (u - blob.u) / blob.size;
        const bv = (v - blob.v) / blob.size;
        level += blob.level * Math.exp(-0.5 * (bu * bu + bv * bv));
      }
      const cu = u - 0.5;
      const cv = v - 0.5;
      grid[gv * (BACKGROUND_GRID + 1) + gu] = level * (1 - 0.55 * (cu * cu + cv * cv));
    }
  }
  return grid;
}

/** A short bright bar across the main vessel where the transducer was at the frame's first slice. */
function drawTransducerMarker(
  model: PullbackModel,
  tree: AngioTree,
  pose: CardiacPose,
  angioIndex: number,
  angioFrameCount: number,
  sizePx: number,
  mmPerPx: number,
  image: Uint8Array,
): void {
  const slice = firstSliceForAngioFrame(angioIndex, model.frameCount, angioFrameCount);
  const arc = transducerArc(tree, model, slice);
  const here = pointAtArc(tree.main, arc);
  const [cx, cy] = movePoint(tree, pose, here.x, here.y);
  const [ax, ay] = movePoint(tree, pose, here.x + here.tx, here.y + here.ty);
  const norm = Math.hypot(ax - cx, ay - cy) || 1;
  // Across the vessel: the normal of the moved tangent.
  const nx = -(ay - cy) / norm;
  const ny = (ax - cx) / norm;
  const halfLengthPx = here.diameterMm / 2 / mmPerPx + 3;
  const x0 = cx * sizePx;
  const y0 = cy * sizePx;
  const reach = Math.ceil(halfLengthPx + 2);
  for (let row = Math.max(0, Math.floor(y0 - reach)); row <= Math.min(sizePx - 1, Math.ceil(y0 + reach)); row++) {
    for (let col = Math.max(0, Math.floor(x0 - reach)); col <= Math.min(sizePx - 1, Math.ceil(x0 + reach)); col++) {
      const px = col + 0.5 - x0;
      const py = row + 0.5 - y0;
      const along = px * nx + py * ny;
      const across = Math.abs(px * ny - py * nx);
      if (Math.abs(along) > halfLengthPx) continue;
      const cover = Math.min(1, Math.max(0, MARKER_HALF_WIDTH_PX + 0.5 - across));
      if (cover <= 0) continue;
      const index = row * sizePx + col;
      image[index] = Math.round(image[index]! + (MARKER_LEVEL - image[index]!) * cover);
    }
  }
}
