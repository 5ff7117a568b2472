/**
 * Hard cases for evaluating border detection (issue 15): the things real frames show that the demo
 * generator did not. Each is an option of the pullback model; without options the model is the demo
 * model and renders exactly what it always rendered.
 *
 * Options say which features to add; their parameters (where along the pullback, at which angle,
 * how strong) are drawn here from the seed on a random stream of their own, so the anatomy of a seed
 * is the same with or without them. Like the model, the parameters are plain data.
 *
 * Angles relative to the plaque (echolucent sector) follow the plaque as it turns along the
 * pullback; the side branch and the stent have absolute angles. All are in the anatomy's frame and
 * turn with it under cardiac rotation.
 */
import { seededRandom } from '../random.ts';
import { deriveSeed } from './hash.ts';
import { drawHeartbeat, excursionAt, type HeartbeatOptions, type HeartbeatParameters } from './heartbeat.ts';
import { drawTissueLevels, type TissueLevelKind, type TissueLevelParameters } from './tissue-levels.ts';
import { drawDeployedStent, type DeployedStentParameters } from './deployed-stent.ts';
import { drawCalciumCase, drawVesselAreaScale, type CalciumCaseKind, type CalciumCaseParameters } from './calcium-cases.ts';

export interface HardCaseOptions {
  /** A lipid-rich plaque sector as dark as blood, near the lesion. */
  readonly echolucentPlaque?: boolean;
  /** Blood scattering relative to the look's own (2 doubles it). */
  readonly bloodEchoGain?: number;
  /** Catheter centre off the lumen centre, as a fraction of the lumen radius (about 1/3 at most). */
  readonly eccentricCatheter?: number;
  /** An ostium of a side branch: no wall over an angular sector for a few mm. */
  readonly sideBranch?: boolean;
  /** A stented segment: bright struts at the lumen border with shadows behind them. */
  readonly stent?: boolean;
  /** Non-uniform rotational distortion: the largest angular warp, in radians (0.2 to 0.4 is strong). */
  readonly nurd?: number;
  /** Cardiac motion, 1 for the nominal amplitudes (shift, rotation, dilation, back-and-forth). */
  readonly cardiacMotion?: number;
  /** A heart beating at this rate with beat-to-beat variation and a known end-diastole (heartbeat.ts); needs cardiacMotion. */
  readonly heartbeat?: HeartbeatOptions;
  /** Catheter centre in the image relative to the frame's middle, in pixels (a panned or cropped export). */
  readonly imageOffsetPx?: { readonly x: number; readonly y: number };
  /** Per-pullback plaque and adventitia brightness, as real frames vary (tissue-levels.ts). */
  readonly tissueLevels?: TissueLevelKind;
  /** Low-signal arcs (the calcium's shadow, a side branch's ostium) up to a third of the circumference. */
  readonly wideArcs?: boolean;
  /** A deployed stent with truth (deployed-stent.ts): expansion, malapposition, edges on plaque. */
  readonly deployedStent?: boolean;
  /** The calcium made long and wide, circumferential, or a calcified nodule (calcium-cases.ts; issue 28's calcium score). */
  readonly calcium?: CalciumCaseKind;
  /** A small vessel: lumen and EEM areas scaled down to an EEM diameter under 3.5 mm (calcium score). */
  readonly smallVessel?: boolean;
}

/** Something that grows over a stretch of pullback and spans an angular sector. */
export interface SectorFeature {
  readonly centreMm: number;
  readonly halfLengthMm: number;
  readonly angleRad: number;
  readonly maxHalfArcRad: number;
}

export interface EcholucentParameters extends SectorFeature {
  /** Plaque echo in the sector over the blood echo: 1 is exactly as dark as blood. */
  readonly echoRatio: number;
  /** The bright leading edge left in the sector, over the usual one (a thin fibrous cap). */
  readonly capSpecular: number;
}

export interface BranchParameters extends SectorFeature {
  /** How far the branch's lumen reaches beyond the main vessel's EEM at the sector's middle. */
  readonly depthMm: number;
}

export interface StentParameters {
  readonly startMm: number;
  readonly endMm: number;
  readonly strutCount: number;
  readonly phaseRad: number;
  /** The struts of a cell pattern swing round as the section moves along a cell. */
  readonly swingRad: number;
  readonly swingWavelengthMm: number;
  readonly thicknessMm: number;
  readonly widthMm: number;
}

export interface NurdParameters {
  readonly amplitudeRad: number;
  /** Low orders of the warp, weights summing to 1, phases drifting frame to frame. */
  readonly terms: readonly { readonly order: number; readonly weight: number; readonly phaseRad: number; readonly phaseRadPerFrame: number }[];
  /** The distortion swells and fades over this many frames (friction changes as the catheter bends). */
  readonly periodFrames: number;
  readonly periodPhaseRad: number;
}

export interface CardiacParameters {
  readonly heartRateHz: number;
  readonly phaseRad: number;
  readonly shiftMm: number;
  readonly shiftAngleRad: number;
  readonly rotationRad: number;
  /** Relative change of the radii over the cycle (systolic-diastolic dilation). */
  readonly dilation: number;
  /** Back-and-forth motion of the transducer along the vessel. */
  readonly longitudinalMm: number;
  /** Present only when asked for: the beats then drive the motion instead of heartRateHz. */
  readonly heartbeat?: HeartbeatParameters;
}

export interface EccentricParameters {
  readonly fraction: number;
  readonly angleStartRad: number;
  readonly angleRadPerMm: number;
}

export interface HardCaseParameters {
  readonly echolucent: EcholucentParameters | null;
  readonly bloodEchoGain: number;
  readonly eccentric: EccentricParameters | null;
  readonly branch: BranchParameters | null;
  readonly stent: StentParameters | null;
  readonly nurd: NurdParameters | null;
  readonly cardiac: CardiacParameters | null;
  readonly imageOffsetPx: { readonly x: number; readonly y: number };
  /** Present only when asked for, so the parameters of the other cases stay as they were. */
  readonly tissueLevels?: TissueLevelParameters;
  /** The widest half arc of the calcium and of the branch under `wideArcs` (up to π/3: a third of the circle). */
  readonly wideArcHalfRad?: number;
  /** Present only when asked for (deployed-stent.ts). */
  readonly deployedStent?: DeployedStentParameters;
  /** Present only when asked for (calcium-cases.ts). */
  readonly calciumCase?: CalciumCaseParameters;
  /** Present only when asked for: lumen and vessel areas times this (a small vessel). */
  readonly vesselAreaScale?: number;
}

const HARD_CASE_STREAM = 0x4a2d;
const WIDE_ARC_STREAM = 0x3a7c;

/**
 * Draws the features' parameters. Every draw happens whether or not the feature is on, so one
 * feature's parameters do not depend on which others are switched on.
 */
export function drawHardCases(seed: number, lengthMm: number, stenosisCentreMm: number, options: HardCaseOptions, referenceAreaMm2 = 8): HardCaseParameters {
  checkOptions(options);
  const random = seededRandom(deriveSeed(seed, HARD_CASE_STREAM));
  const between = (low: number, high: number): number => low + (high - low) * random();
  const sideSign = (): number => (random() < 0.5 ? -1 : 1);
  const span = (halfLengthMm: number): [number, number] => [halfLengthMm, Math.max(halfLengthMm, lengthMm - halfLengthMm)];
  const within = (value: number, [low, high]: [number, number]): number => Math.min(high, Math.max(low, value));

  // Lipid pools sit on the thick side of the lesion, close to its centre.
  const lucentHalfMm = Math.min(3, Math.max(0.4, lengthMm * 0.08)) * between(0.8, 1);
  const echolucent: EcholucentParameters = {
    centreMm: within(stenosisCentreMm + sideSign() * between(0, 0.15) * lengthMm, span(lucentHalfMm)),
    halfLengthMm: lucentHalfMm,
    angleRad: between(-0.3, 0.3),
    maxHalfArcRad: between(0.7, 1.2),
    echoRatio: between(0.9, 1.3),
    capSpecular: between(0.1, 0.3),
  };
  const branchHalfMm = Math.min(1.5, Math.max(0.3, lengthMm * 0.05)) * between(0.8, 1.2);
  const branch: BranchParameters = {
    centreMm: within(lengthMm * between(0.15, 0.85), span(branchHalfMm)),
    halfLengthMm: branchHalfMm,
    angleRad: between(0, 2 * Math.PI),
    maxHalfArcRad: between(0.45, 0.8),
    depthMm: between(0.8, 1.6),
  };
  const stentLengthMm = Math.min(lengthMm * 0.5, between(8, 18));
  const stentStartMm = between(0, Math.max(0, lengthMm - stentLengthMm));
  const stent: StentParameters = {
    startMm: stentStartMm,
    endMm: stentStartMm + stentLengthMm,
    strutCount: 6 + Math.floor(random() * 5),
    phaseRad: between(0, 2 * Math.PI),
    swingRad: between(0.15, 0.35),
    swingWavelengthMm: between(1.5, 2.5),
    thicknessMm: between(0.07, 0.1),
    widthMm: between(0.09, 0.14),
  };
  const w1 = between(0.5, 0.8);
  const w2 = between(0, 1 - w1);
  const nurd: NurdParameters = {
    amplitudeRad: options.nurd ?? 0,
    terms: [
      { order: 1, weight: w1, phaseRad: between(0, 2 * Math.PI), phaseRadPerFrame: between(-0.05, 0.05) },
      { order: 2, weight: w2, phaseRad: between(0, 2 * Math.PI), phaseRadPerFrame: between(-0.08, 0.08) },
      { order: 3, weight: 1 - w1 - w2, phaseRad: between(0, 2 * Math.PI), phaseRadPerFrame: between(-0.1, 0.1) },
    ],
    periodFrames: between(20, 60),
    periodPhaseRad: between(0, 2 * Math.PI),
  };
  const motion = options.cardiacMotion ?? 0;
  const cardiac: CardiacParameters = {
    heartRateHz: between(0.9, 1.4),
    phaseRad: between(0, 2 * Math.PI),
    shiftMm: motion * between(0.1, 0.2),
    shiftAngleRad: between(0, 2 * Math.PI),
    rotationRad: motion * between(0.05, 0.12),
    dilation: motion * between(0.015, 0.03),
    longitudinalMm: motion * between(0.2, 0.5),
    // Drawn on a stream of its own (heartbeat.ts): the draws here stay what they always were.
    ...(options.heartbeat === undefined ? {} : { heartbeat: drawHeartbeat(seed, options.heartbeat) }),
  };
  const eccentric: EccentricParameters = {
    fraction: options.eccentricCatheter ?? 0,
    angleStartRad: between(0, 2 * Math.PI),
    angleRadPerMm: sideSign() * between(0.05, 0.15),
  };
  // Drawn on a stream of their own: the draws above stay what they always were.
  const wideArcHalfRad = options.wideArcs === true ? 0.85 + 0.2 * seededRandom(deriveSeed(seed, WIDE_ARC_STREAM))() : undefined;
  return {
    echolucent: options.echolucentPlaque === true ? echolucent : null,
    bloodEchoGain: options.bloodEchoGain ?? 1,
    eccentric: eccentric.fraction > 0 ? eccentric : null,
    branch: options.sideBranch === true ? (wideArcHalfRad === undefined ? branch : { ...branch, maxHalfArcRad: wideArcHalfRad }) : null,
    stent: options.stent === true ? stent : null,
    nurd: nurd.amplitudeRad > 0 ? nurd : null,
    cardiac: motion > 0 ? cardiac : null,
    imageOffsetPx: options.imageOffsetPx ?? { x: 0, y: 0 },
    ...(options.tissueLevels === undefined ? {} : { tissueLevels: drawTissueLevels(seed, options.tissueLevels) }),
    ...(wideArcHalfRad === undefined ? {} : { wideArcHalfRad }),
    ...(options.deployedStent === true ? { deployedStent: drawDeployedStent(seed, lengthMm, stenosisCentreMm, referenceAreaMm2) } : {}),
    ...(options.calcium === undefined ? {} : { calciumCase: drawCalciumCase(seed, options.calcium, lengthMm, stenosisCentreMm) }),
    ...(options.smallVessel === true ? { vesselAreaScale: drawVesselAreaScale(seed) } : {}),
  };
}

/** Values outside these ranges break the model's guarantees (a monotonic warp, the catheter inside the lumen). */
function checkOptions(options: HardCaseOptions): void {
  const within = (name: string, value: number | undefined, low: number, high: number): void => {
    if (value !== undefined && !(value >= low && value <= high)) throw new RangeError(`${name} must lie in [${low}, ${high}], got ${value}`);
  };
  within('bloodEchoGain', options.bloodEchoGain, 0, 20);
  within('eccentricCatheter', options.eccentricCatheter, 0, 0.5);
  within('nurd', options.nurd, 0, 0.6);
  within('cardiacMotion', options.cardiacMotion, 0, 3);
}

/**
 * How far a sector feature is open at z: its half arc, growing from nothing to its full width and
 * back (a raised cosine, like the calcium arc), or 0 outside its stretch of pullback.
 */
export function sectorHalfArcRad(feature: SectorFeature, zMm: number): number {
  const u = (zMm - feature.centreMm) / feature.halfLengthMm;
  if (u <= -1 || u >= 1) return 0;
  return feature.maxHalfArcRad * Math.sqrt(0.5 * (1 + Math.cos(Math.PI * u)));
}

/** The state of the heart cycle at a frame: the anatomy's displacement relative to the catheter. */
export interface CardiacState {
  readonly shiftXMm: number;
  readonly shiftYMm: number;
  readonly rotationRad: number;
  readonly scale: number;
  readonly zShiftMm: number;
}

export const AT_REST: CardiacState = { shiftXMm: 0, shiftYMm: 0, rotationRad: 0, scale: 1, zShiftMm: 0 };

/**
 * A cycle with a quick systolic stroke and a slower diastolic return: a sine plus a second harmonic,
 * scaled to at most 1 in magnitude.
 */
function cycle(phaseRad: number): number {
  return (Math.sin(phaseRad) + 0.35 * Math.sin(2 * phaseRad + 0.8)) / 1.3;
}

export function cardiacStateAt(cardiac: CardiacParameters | null, frameIndex: number, frameRateHz: number): CardiacState {
  if (cardiac === null) return AT_REST;
  if (cardiac.heartbeat !== undefined) return beatingStateAt(cardiac, cardiac.heartbeat, frameIndex, frameRateHz);
  const phase = 2 * Math.PI * cardiac.heartRateHz * (frameIndex / frameRateHz) + cardiac.phaseRad;
  const main = cycle(phase);
  return {
    shiftXMm: cardiac.shiftMm * main * Math.cos(cardiac.shiftAngleRad),
    shiftYMm: cardiac.shiftMm * main * Math.sin(cardiac.shiftAngleRad),
    rotationRad: cardiac.rotationRad * cycle(phase + 1.1),
    scale: 1 + cardiac.dilation * cycle(phase - 0.6),
    zShiftMm: cardiac.longitudinalMm * cycle(phase + 0.4),
  };
}

/**
 * Under a beating heart every motion follows the beat's excursion: the anatomy shifts, turns and
 * moves along the vessel in systole and shrinks (the lumen is largest at end-diastole).
 */
function beatingStateAt(cardiac: CardiacParameters, heartbeat: HeartbeatParameters, frameIndex: number, frameRateHz: number): CardiacState {
  const x = excursionAt(heartbeat, frameIndex, frameRateHz);
  return {
    shiftXMm: cardiac.shiftMm * x * Math.cos(cardiac.shiftAngleRad),
    shiftYMm: cardiac.shiftMm * x * Math.sin(cardiac.shiftAngleRad),
    rotationRad: cardiac.rotationRad * x,
    scale: 1 - cardiac.dilation * x,
    zShiftMm: cardiac.longitudinalMm * x,
  };
}

/** Coefficients of the NURD warp of one frame: θ_scene = θ + Σ amplitude_k sin(order_k θ + phase_k). */
export interface NurdWarp {
  readonly orders: readonly number[];
  readonly amplitudes: readonly number[];
  readonly phases: readonly number[];
}

/**
 * The frame's warp. The slope 1 + Σ order·amplitude·cos(...) stays above 1 - 0.6 = 0.4 whatever the
 * phases (the amplitudes are capped), so the warp is monotonic: every A-line looks at a distinct
 * angle and the lines keep their order, as on a real catheter that sticks and whips.
 */
export function nurdWarpAt(nurd: NurdParameters | null, frameIndex: number): NurdWarp | null {
  if (nurd === null) return null;
  const swell = 0.7 + 0.3 * Math.sin((2 * Math.PI * frameIndex) / nurd.periodFrames + nurd.periodPhaseRad);
  const slopeBudget = nurd.terms.reduce((sum, t) => sum + t.order * t.weight, 0);
  const amplitude = Math.min(nurd.amplitudeRad, 0.6 / slopeBudget) * swell;
  return {
    orders: nurd.terms.map((t) => t.order),
    amplitudes: nurd.terms.map((t) => amplitude * t.weight),
    phases: nurd.terms.map((t) => t.phaseRad + t.phaseRadPerFrame * frameIndex),
  };
}

export function applyNurdWarp(warp: NurdWarp, angleRad: number): number {
  let angle = angleRad;
  for (let k = 0; k < warp.orders.length; k++) angle += warp.amplitudes[k]! * Math.sin(warp.orders[k]! * angleRad + warp.phases[k]!);
  return angle;
}

/** Angles of the stent's struts at z (none outside the stented segment). */
export function strutAnglesAt(stent: StentParameters | null, zMm: number): number[] {
  if (stent === null || zMm < stent.startMm || zMm > stent.endMm) return [];
  const angles: number[] = [];
  for (let k = 0; k < stent.strutCount; k++) {
    // Neighbouring struts swing in opposite directions, as the two sides of a cell do.
    const swing = (k % 2 === 0 ? 1 : -1) * stent.swingRad * Math.sin((2 * Math.PI * zMm) / stent.swingWavelengthMm);
    angles.push(stent.phaseRad + (2 * Math.PI * k) / stent.strutCount + swing);
  }
  return angles;
}
