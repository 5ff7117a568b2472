/**
 * One B-mode frame in the polar domain (A-lines x depth samples), the way the scanner acquires it:
 * a reflectivity per sample times complex Gaussian scatterers, plus coherent (specular) echoes,
 * blurred by the pulse, then the envelope log-compressed to 8 bits.
 *
 * The envelope of a sum of many random scatterers is Rayleigh distributed; adding a coherent echo
 * makes it Rician (bright and steadier), which is how calcium, the guidewire and the ring-down look.
 */
import { crossSectionAt } from './cross-section.ts';
import { deriveSeed, hash32 } from './hash.ts';
import { CATHETER_RADIUS_MM, type PullbackModel } from './pullback-model.ts';
import { echoLine } from './echo-line.ts';
import { fillTextureGrid, textureColumn, TEXTURE_ANGLES, TEXTURE_ROWS } from './tissue-texture.ts';

/** A-lines per frame, as on a mechanically rotating 40-60 MHz catheter. */
export const LINES_PER_FRAME = 512;
/** Tissue speckle is re-drawn every this many frames and blended in between: the elevational beam
 * is a few tenths of a millimetre wide, so the same scatterers stay in view for several frames. */
const SPECKLE_ANCHOR_FRAMES = 8;
/** Display mapping of the envelope: this many dB below the tissue reference maps to black ... */
const DISPLAY_FLOOR_DB = -38;
/** ... and this many dB span the 8-bit range. */
const DISPLAY_RANGE_DB = 50;
const TISSUE_STREAM = 0x7153e1;
const BLOOD_STREAM = 0x2b10d;
const RINGDOWN_STREAM = 0x91a6;

/** Complex scatterer tables: a Rayleigh amplitude and a uniform phase picked by bits of a hash. */
const AMPLITUDE_BITS = 12;
const PHASE_BITS = 10;
const RAYLEIGH = new Float32Array(1 << AMPLITUDE_BITS).map((_, k) => Math.sqrt(-2 * Math.log((k + 0.5) / (1 << AMPLITUDE_BITS))));
const COS = new Float32Array(1 << PHASE_BITS).map((_, k) => Math.cos((2 * Math.PI * k) / (1 << PHASE_BITS)));
const SIN = new Float32Array(1 << PHASE_BITS).map((_, k) => Math.sin((2 * Math.PI * k) / (1 << PHASE_BITS)));
const AMPLITUDE_MASK = (1 << AMPLITUDE_BITS) - 1;
const PHASE_MASK = (1 << PHASE_BITS) - 1;
/** Pulse shape along the line (about 40 µm, a 40 MHz pulse) and beam shape across lines. */
const AXIAL_TAPS = [0.3, 0.75, 1, 0.75, 0.3] as const;
const LATERAL_TAPS = [0.45, 0.85, 1, 0.85, 0.45] as const;
/** Blurring uncorrelated scatterers multiplies their mean power by the taps' sum of squares. */
const PSF_POWER = [...AXIAL_TAPS].reduce((sum, t) => sum + t * t, 0) * [...LATERAL_TAPS].reduce((sum, t) => sum + t * t, 0);
/** A coherent echo adds up in amplitude (the taps' sum), not in power; scaled so that the echo
 * constants compare with the scattering strengths as they read. */
const COHERENT_SCALE = Math.sqrt(PSF_POWER) / ([...AXIAL_TAPS].reduce((sum, t) => sum + t, 0) * [...LATERAL_TAPS].reduce((sum, t) => sum + t, 0));

export interface PolarGrid {
  readonly lineCount: number;
  /** Samples per line; sample j lies at depth j * sampleSpacingMm. Padded beyond the field of view
   * so that the scan converter can always read j + 1 and never reads the unblurred last two. */
  readonly sampleCount: number;
  readonly sampleSpacingMm: number;
}

export function polarGridFor(model: PullbackModel): PolarGrid {
  return {
    lineCount: LINES_PER_FRAME,
    sampleCount: Math.ceil(model.frameSizePx / 2) + 4,
    sampleSpacingMm: model.pixelSpacingMm,
  };
}

/** Reusable buffers for rendering polar frames of one grid; not shared between concurrent renders. */
export interface PolarWorkspace {
  readonly grid: PolarGrid;
  readonly re: Float32Array;
  readonly im: Float32Array;
  readonly blurredRe: Float32Array;
  readonly blurredIm: Float32Array;
  readonly tissue: Float32Array;
  readonly blood: Float32Array;
  readonly specular: Float32Array;
  readonly textureGrid: Float32Array;
  readonly textureColumn: Float32Array;
  /** Ring-down echo per sample, identical in every frame (it comes from the catheter itself). */
  readonly ringDown: Float32Array;
  /** Per-line ring-down gain: a fixed pattern, as a real catheter's is. */
  readonly ringDownLineGain: Float32Array;
}

export function createPolarWorkspace(model: PullbackModel): PolarWorkspace {
  const grid = polarGridFor(model);
  const size = grid.lineCount * grid.sampleCount;
  const ringDownLineGain = new Float32Array(grid.lineCount);
  const ringSeed = deriveSeed(model.seed, RINGDOWN_STREAM);
  for (let i = 0; i < grid.lineCount; i++) {
    // Smooth around the circle: a few low-order terms with seeded phases, plus a little per-line jitter.
    const angle = (2 * Math.PI * i) / grid.lineCount;
    const phase1 = ((ringSeed & 0xffff) / 0x10000) * 2 * Math.PI;
    const phase3 = ((ringSeed >>> 16) / 0x10000) * 2 * Math.PI;
    const jitter = hash32(ringSeed + i) / 4294967296 - 0.5;
    ringDownLineGain[i] = 1 + 0.15 * Math.cos(angle + phase1) + 0.1 * Math.cos(3 * angle + phase3) + 0.12 * jitter;
  }
  return {
    grid,
    re: new Float32Array(size),
    im: new Float32Array(size),
    blurredRe: new Float32Array(size),
    blurredIm: new Float32Array(size),
    tissue: new Float32Array(grid.sampleCount),
    blood: new Float32Array(grid.sampleCount),
    specular: new Float32Array(grid.sampleCount),
    textureGrid: new Float32Array(TEXTURE_ANGLES * TEXTURE_ROWS),
    textureColumn: new Float32Array(TEXTURE_ROWS),
    ringDown: ringDownProfile(grid),
    ringDownLineGain,
  };
}

/** Bright concentric rings at the catheter sheath fading within a fraction of a millimetre. */
function ringDownProfile(grid: PolarGrid): Float32Array {
  const profile = new Float32Array(grid.sampleCount);
  const rings = [
    { radiusMm: CATHETER_RADIUS_MM - 0.035, amplitude: 7 },
    { radiusMm: CATHETER_RADIUS_MM + 0.02, amplitude: 5 },
    { radiusMm: CATHETER_RADIUS_MM + 0.08, amplitude: 2.2 },
    { radiusMm: CATHETER_RADIUS_MM + 0.14, amplitude: 0.9 },
  ];
  for (let j = 0; j < grid.sampleCount; j++) {
    const r = j * grid.sampleSpacingMm;
    let value = 0;
    for (const ring of rings) {
      const u = (r - ring.radiusMm) / 0.014;
      value += ring.amplitude * Math.exp(-0.5 * u * u);
    }
    // A diffuse haze of ring-down between the rings and just beyond them.
    if (r > CATHETER_RADIUS_MM - 0.05) value += 0.35 * Math.exp(-(r - (CATHETER_RADIUS_MM - 0.05)) / 0.08);
    profile[j] = value;
  }
  return profile;
}

/**
 * Renders frame `frameIndex` into `out`, (lineCount + 1) x sampleCount bytes, line-major; the extra
 * last line repeats line 0 so the scan converter can interpolate across the seam without a branch.
 */
export function renderPolarFrame(model: PullbackModel, frameIndex: number, workspace: PolarWorkspace, out: Uint8Array): void {
  const { grid, re, im, tissue, blood, specular } = workspace;
  const { lineCount, sampleCount } = grid;
  const section = crossSectionAt(model, frameIndex);
  fillTextureGrid(deriveSeed(model.seed, 0x7e77), section.zMm, workspace.textureGrid);

  const anchor = Math.floor(frameIndex / SPECKLE_ANCHOR_FRAMES);
  const blend = (frameIndex / SPECKLE_ANCHOR_FRAMES - anchor) * (Math.PI / 2);
  // cos/sin weights keep the blend's power at 1, so speckle statistics do not dip between anchors.
  const weightA = Math.cos(blend);
  const weightB = Math.sin(blend);
  const seedA = deriveSeed(model.seed ^ TISSUE_STREAM, anchor);
  const seedB = deriveSeed(model.seed ^ TISSUE_STREAM, anchor + 1);
  const seedBlood = deriveSeed(model.seed ^ BLOOD_STREAM, frameIndex);

  for (let i = 0; i < lineCount; i++) {
    const angle = (2 * Math.PI * i) / lineCount;
    textureColumn(workspace.textureGrid, angle, workspace.textureColumn);
    echoLine(section, angle, grid.sampleSpacingMm, workspace.textureColumn, tissue, blood, specular);
    const ringGain = workspace.ringDownLineGain[i]!;
    const base = i * sampleCount;
    for (let j = 0; j < sampleCount; j++) {
      const index = base + j;
      const t = tissue[j]!;
      let sr = (specular[j]! + workspace.ringDown[j]! * ringGain) * COHERENT_SCALE;
      let si = 0;
      if (t > 0) {
        const ha = hash32(seedA ^ Math.imul(index, 0x9e3779b1));
        const hb = hash32(seedB ^ Math.imul(index, 0x9e3779b1));
        const aa = RAYLEIGH[ha & AMPLITUDE_MASK]! * weightA * t;
        const ab = RAYLEIGH[hb & AMPLITUDE_MASK]! * weightB * t;
        const pa = (ha >>> AMPLITUDE_BITS) & PHASE_MASK;
        const pb = (hb >>> AMPLITUDE_BITS) & PHASE_MASK;
        sr += aa * COS[pa]! + ab * COS[pb]!;
        si += aa * SIN[pa]! + ab * SIN[pb]!;
      }
      const b = blood[j]!;
      if (b > 0) {
        const hc = hash32(seedBlood ^ Math.imul(index, 0x85ebca6b));
        const ac = RAYLEIGH[hc & AMPLITUDE_MASK]! * b;
        const pc = (hc >>> AMPLITUDE_BITS) & PHASE_MASK;
        sr += ac * COS[pc]!;
        si += ac * SIN[pc]!;
      }
      re[index] = sr;
      im[index] = si;
    }
  }
  blurAndCompress(workspace, out);
}

/** Pulse blur (separable, circular across lines), envelope, log compression. */
function blurAndCompress(workspace: PolarWorkspace, out: Uint8Array): void {
  const { grid, re, im, blurredRe, blurredIm } = workspace;
  const { lineCount, sampleCount } = grid;
  const [a2, a1, a0] = AXIAL_TAPS;
  for (let i = 0; i < lineCount; i++) {
    const base = i * sampleCount;
    const end = base + sampleCount;
    // The two samples at each end of a line lack neighbours. The near end lies inside the catheter
    // (silent) and the far end in padding the scan converter never reads, so they stay unblurred.
    for (const k of [base, base + 1, end - 2, end - 1]) {
      blurredRe[k] = a0 * re[k]!;
      blurredIm[k] = a0 * im[k]!;
    }
    for (let k = base + 2; k < end - 2; k++) {
      blurredRe[k] = a0 * re[k]! + a1 * (re[k - 1]! + re[k + 1]!) + a2 * (re[k - 2]! + re[k + 2]!);
      blurredIm[k] = a0 * im[k]! + a1 * (im[k - 1]! + im[k + 1]!) + a2 * (im[k - 2]! + im[k + 2]!);
    }
  }
  // 10 log10(power) mapped linearly onto 0..255.
  const gain = ((10 / Math.LN10) * 255) / DISPLAY_RANGE_DB;
  const offset = (-DISPLAY_FLOOR_DB * 255) / DISPLAY_RANGE_DB - gain * Math.log(PSF_POWER);
  const [l2, l1, l0] = LATERAL_TAPS;
  for (let i = 0; i < lineCount; i++) {
    const m2 = ((i + lineCount - 2) % lineCount) * sampleCount;
    const m1 = ((i + lineCount - 1) % lineCount) * sampleCount;
    const c0 = i * sampleCount;
    const p1 = ((i + 1) % lineCount) * sampleCount;
    const p2 = ((i + 2) % lineCount) * sampleCount;
    for (let j = 0; j < sampleCount; j++) {
      const r =
        l0 * blurredRe[c0 + j]! + l1 * (blurredRe[m1 + j]! + blurredRe[p1 + j]!) + l2 * (blurredRe[m2 + j]! + blurredRe[p2 + j]!);
      const m =
        l0 * blurredIm[c0 + j]! + l1 * (blurredIm[m1 + j]! + blurredIm[p1 + j]!) + l2 * (blurredIm[m2 + j]! + blurredIm[p2 + j]!);
      const value = gain * Math.log(r * r + m * m) + offset;
      out[c0 + j] = value <= 0 ? 0 : value >= 255 ? 255 : value;
    }
  }
  out.copyWithin(lineCount * sampleCount, 0, sampleCount);
}
