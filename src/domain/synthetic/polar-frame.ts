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
import { echoLine, type EchoSettings } from './echo-line.ts';
import { imagingLook, type ImagingLook } from './imaging-look.ts';
import { createLogCompression, type LogCompression } from './log-compression.ts';
import { blurAndCompress } from './pulse-blur.ts';
import { tissueLevelGainsAt } from './tissue-levels.ts';
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
/** Deep tissue borrows the texture this far round the circle (the golden angle: unrelated to the near one). */
const FAR_TEXTURE_TURN_RAD = Math.PI * (3 - Math.sqrt(5));
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
/**
 * Blurring uncorrelated scatterers multiplies their mean power by the taps' sum of squares (pulse
 * shape along the line times beam shape across lines, from the look).
 */
function psfPower(look: ImagingLook): number {
  return look.axialTaps.reduce((sum, t) => sum + t * t, 0) * look.lateralTaps.reduce((sum, t) => sum + t * t, 0);
}

/** A coherent echo adds up in amplitude (the taps' sum), not in power; scaled so that the echo
 * constants compare with the scattering strengths as they read. */
function coherentScale(look: ImagingLook): number {
  return Math.sqrt(psfPower(look)) / (look.axialTaps.reduce((sum, t) => sum + t, 0) * look.lateralTaps.reduce((sum, t) => sum + t, 0));
}

export interface PolarGrid {
  readonly lineCount: number;
  /** Samples per line; sample j lies at depth j * sampleSpacingMm. Padded beyond the field of view
   * so that the scan converter can always read j + 1 and never reads the unblurred last ones. */
  readonly sampleCount: number;
  readonly sampleSpacingMm: number;
  /** Samples at the end of each line the scan converter must not read. */
  readonly paddingSamples: number;
}

export function polarGridFor(model: PullbackModel): PolarGrid {
  const look = imagingLook(model.look);
  // The pulse leaves its half-width of samples unblurred at each end, plus one for interpolation.
  const paddingSamples = (look.axialTaps.length - 1) / 2 + 2;
  if (look.sampleSpacingMm === null) {
    return { lineCount: LINES_PER_FRAME, sampleCount: Math.ceil(model.frameSizePx / 2) + paddingSamples, sampleSpacingMm: model.pixelSpacingMm, paddingSamples };
  }
  const depthMm = Math.min((model.frameSizePx / 2) * model.pixelSpacingMm, look.maxDepthMm ?? Infinity);
  return {
    lineCount: LINES_PER_FRAME,
    sampleCount: Math.ceil(depthMm / look.sampleSpacingMm) + paddingSamples,
    sampleSpacingMm: look.sampleSpacingMm,
    paddingSamples,
  };
}

/** Reusable buffers for rendering polar frames of one grid; not shared between concurrent renders. */
export interface PolarWorkspace {
  readonly grid: PolarGrid;
  readonly look: ImagingLook;
  readonly echo: EchoSettings;
  readonly psfPower: number;
  readonly coherentScale: number;
  /** The look's envelope-to-grey mapping, as a table (log-compression.ts). */
  readonly compression: LogCompression;
  readonly re: Float32Array;
  readonly im: Float32Array;
  readonly blurredRe: Float32Array;
  readonly blurredIm: Float32Array;
  readonly tissue: Float32Array;
  readonly blood: Float32Array;
  readonly specular: Float32Array;
  readonly textureGrid: Float32Array;
  readonly textureColumn: Float32Array;
  /** A second column for deep tissue (looks other than the demo's, whose fields of view reach deeper). */
  readonly farTextureColumn: Float32Array | null;
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
  const look = imagingLook(model.look);
  return {
    grid,
    look,
    echo: {
      bloodEcho: look.bloodEcho * (model.hardCases?.bloodEchoGain ?? 1),
      attenuationPerMm: look.attenuationPerMm,
      ...(look.tissueLevels === undefined ? {} : { tissueLevels: look.tissueLevels }),
    },
    psfPower: psfPower(look),
    coherentScale: coherentScale(look),
    compression: displayCompression(look),
    re: new Float32Array(size),
    im: new Float32Array(size),
    blurredRe: new Float32Array(size),
    blurredIm: new Float32Array(size),
    tissue: new Float32Array(grid.sampleCount),
    blood: new Float32Array(grid.sampleCount),
    specular: new Float32Array(grid.sampleCount),
    textureGrid: new Float32Array(TEXTURE_ANGLES * TEXTURE_ROWS),
    textureColumn: new Float32Array(TEXTURE_ROWS),
    farTextureColumn: look.name === 'demo' ? null : new Float32Array(TEXTURE_ROWS),
    ringDown: ringDownProfile(grid),
    ringDownLineGain,
  };
}

/** 10 log10(power) mapped linearly onto 0..255, the look's floor at 0 and its range across. */
function displayCompression(look: ImagingLook): LogCompression {
  const rangeDb = look.displayRangeDb ?? DISPLAY_RANGE_DB;
  const gain = ((10 / Math.LN10) * 255) / rangeDb;
  const offset = (-(look.displayFloorDb ?? DISPLAY_FLOOR_DB) * 255) / rangeDb - gain * Math.log(psfPower(look));
  return createLogCompression(gain, offset);
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
  const { grid, tissue, blood, specular } = workspace;
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

  const coherentScale = workspace.coherentScale;
  const echo = frameEchoSettings(model, workspace, section.zMm);
  for (let i = 0; i < lineCount; i++) {
    // The line drawn at angle 2πi/lineCount looked along the scene angle (they differ under NURD),
    // and the wall's texture turns with the anatomy (cardiac motion).
    const angle = section.sceneAngleRad((2 * Math.PI * i) / lineCount);
    textureColumn(workspace.textureGrid, angle - section.anatomyRotationRad, workspace.textureColumn);
    let farTexture: Float32Array | undefined;
    if (workspace.farTextureColumn !== null) {
      textureColumn(workspace.textureGrid, angle - section.anatomyRotationRad + FAR_TEXTURE_TURN_RAD, workspace.farTextureColumn);
      farTexture = workspace.farTextureColumn;
    }
    echoLine(section, angle, grid.sampleSpacingMm, workspace.textureColumn, tissue, blood, specular, echo, farTexture);
    speckleLine(workspace, i * sampleCount, workspace.ringDownLineGain[i]!, coherentScale, seedA, seedB, weightA, weightB, seedBlood);
  }
  blurAndCompressFrame(workspace, out);
}

/**
 * Line `base / sampleCount`'s complex echo: tissue scatterers (two speckle anchors blended), blood
 * scatterers (new in every frame) and the coherent echoes. A function of its own, called for every
 * line, so that V8 optimises it once and keeps it (inside the frame's loop it ran as on-stack
 * replacement code, entered anew every frame; issue 23).
 */
function speckleLine(
  workspace: PolarWorkspace,
  base: number,
  ringGain: number,
  coherentScale: number,
  seedA: number,
  seedB: number,
  weightA: number,
  weightB: number,
  seedBlood: number,
): void {
  const { re, im, tissue, blood, specular, ringDown } = workspace;
  const sampleCount = tissue.length;
  for (let j = 0; j < sampleCount; j++) {
    const index = base + j;
    const t = tissue[j]!;
    let sr = (specular[j]! + ringDown[j]! * ringGain) * coherentScale;
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

/** The look's echo settings, times the pullback's own plaque and adventitia levels at z when it has them. */
function frameEchoSettings(model: PullbackModel, workspace: PolarWorkspace, zMm: number): EchoSettings {
  const levels = model.hardCases?.tissueLevels;
  if (levels === undefined) return workspace.echo;
  const base = workspace.echo.tissueLevels ?? { plaque: 1, media: 1, adventitia: 1, perivascular: 1, intimaSpecular: 1 };
  const gains = tissueLevelGainsAt(levels, zMm);
  return {
    ...workspace.echo,
    tissueLevels: {
      ...base,
      plaque: base.plaque * gains.plaque,
      adventitia: base.adventitia * gains.adventitia,
      perivascular: base.perivascular * gains.adventitia,
    },
  };
}

/** Pulse blur, envelope and log compression (pulse-blur.ts); the extra last line repeats line 0. */
function blurAndCompressFrame(workspace: PolarWorkspace, out: Uint8Array): void {
  const { grid, look } = workspace;
  const { lineCount, sampleCount } = grid;
  blurAndCompress({ ...workspace, lineCount, sampleCount, axialTaps: look.axialTaps, lateralTaps: look.lateralTaps }, out);
  out.copyWithin(lineCount * sampleCount, 0, sampleCount);
}
