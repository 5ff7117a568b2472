/**
 * The description of one demo pullback: acquisition settings plus anatomy parameters drawn once
 * from the seed. Every anatomical quantity is a smooth function of the position z along the
 * pullback (mm from the distal start), so any frame can be computed on its own.
 *
 * The model is plain data (no functions, no typed arrays): it can be posted to a worker thread or
 * stored as JSON and rebuilt identically from its options.
 */
import { DEFAULT_PIXEL_SPACING_MM } from '../constants.ts';
import { seededRandom } from '../random.ts';
import { drawHardCases, type HardCaseOptions, type HardCaseParameters } from './hard-cases.ts';
import type { ImagingLookName } from './imaging-look.ts';

/** Outer radius of the imaging catheter (about 1 mm diameter, a 3 F catheter). */
export const CATHETER_RADIUS_MM = 0.5;
/** A 0.014 inch coronary guidewire. */
export const GUIDEWIRE_RADIUS_MM = 0.178;
/** The vessel (EEM) never reaches further than this from the catheter, so the adventitia stays in view. */
export const MAX_VESSEL_RADIUS_MM = 2.3;
/** Thinnest wall (intima plus media) the plaque model allows anywhere. */
export const MIN_WALL_THICKNESS_MM = 0.18;
/** Gap kept between the catheter and the lumen border, even at the stenosis. */
export const LUMEN_CLEARANCE_MM = 0.1;
/** The field of view must hold the largest vessel plus some adventitia. */
export const MIN_FIELD_OF_VIEW_RADIUS_MM = 2.4;
/** Furthest the catheter may sit from where the plain model puts it (eccentric catheter plus cardiac shift). */
export const MAX_CATHETER_DISPLACEMENT_MM = 0.75;

export interface PullbackModelOptions {
  readonly seed: number;
  readonly frameCount: number;
  readonly frameSizePx?: number;
  readonly pixelSpacingMm?: number;
  readonly frameRateHz?: number;
  readonly pullbackSpeedMmPerS?: number;
  /** Centre frequency look; the demo look by default (see imaging-look.ts). */
  readonly look?: ImagingLookName;
  /** Features for evaluating border detection (see hard-cases.ts); none by default. */
  readonly hardCases?: HardCaseOptions;
}

/** A sinusoid in z: a cheap smooth wobble that any frame can evaluate on its own. */
export interface Wave {
  readonly amplitude: number;
  readonly wavelengthMm: number;
  readonly phaseRad: number;
}

export interface LumenHarmonic {
  readonly order: number;
  readonly amplitude: number;
  readonly phaseRad: number;
  readonly phaseRadPerMm: number;
}

export interface CalciumParameters {
  readonly centreMm: number;
  readonly halfLengthMm: number;
  /** Angle of the arc's centre relative to the thick side of the plaque. */
  readonly angleOffsetRad: number;
  readonly maxHalfArcRad: number;
  /** Distance from the lumen border to the calcium's leading edge. */
  readonly depthMm: number;
  readonly thicknessMm: number;
}

export interface PullbackAnatomy {
  readonly stenosisCentreMm: number;
  readonly stenosisSigmaDistalMm: number;
  readonly stenosisSigmaProximalMm: number;
  readonly referenceAreaDistalMm2: number;
  readonly referenceAreaProximalMm2: number;
  readonly areaWaves: readonly Wave[];
  readonly minimalLumenAreaMm2: number;
  /** EEM area over the lumen's tapering reference area (without the lumen's own waviness). */
  readonly vesselToLumenAreaRatio: number;
  readonly vesselAreaWave: Wave;
  /** Positive remodelling: the EEM grows at the lesion while the lumen shrinks. */
  readonly remodellingAreaMm2: number;
  readonly plaqueAngleStartRad: number;
  readonly plaqueRotationRadPerMm: number;
  readonly plaqueAngleWave: Wave;
  readonly eccentricityBase: number;
  readonly eccentricityWave: Wave;
  readonly lumenHarmonics: readonly LumenHarmonic[];
  readonly vesselEllipse: number;
  readonly vesselEllipseAngleRad: number;
  readonly calcium: CalciumParameters;
  /** The guidewire lies on the roomy side of the lumen, opposite the plaque, and drifts around it. */
  readonly guidewireAngleOffsetRad: number;
  readonly guidewireDrift: Wave;
}

export interface PullbackModel {
  readonly seed: number;
  readonly frameCount: number;
  readonly frameSizePx: number;
  readonly pixelSpacingMm: number;
  readonly frameRateHz: number;
  readonly pullbackSpeedMmPerS: number;
  readonly lengthMm: number;
  readonly anatomy: PullbackAnatomy;
  /** Absent on demo models, which keeps their JSON and their frames exactly as they always were. */
  readonly look?: ImagingLookName;
  readonly hardCases?: HardCaseParameters;
}

export function createPullbackModel(options: PullbackModelOptions): PullbackModel {
  const {
    seed,
    frameCount,
    frameSizePx = 512,
    pixelSpacingMm = DEFAULT_PIXEL_SPACING_MM,
    frameRateHz = 30,
    pullbackSpeedMmPerS = 0.5,
  } = options;
  if (!Number.isInteger(frameCount) || frameCount < 1) throw new RangeError(`frameCount must be a positive integer, got ${frameCount}`);
  if (!Number.isInteger(frameSizePx) || frameSizePx < 16) throw new RangeError(`frameSizePx must be an integer of at least 16, got ${frameSizePx}`);
  if (!(frameRateHz > 0) || !(pullbackSpeedMmPerS > 0) || !(pixelSpacingMm > 0)) {
    throw new RangeError('frameRateHz, pullbackSpeedMmPerS and pixelSpacingMm must be positive');
  }
  const fieldOfViewRadiusMm = (frameSizePx / 2) * pixelSpacingMm;
  // A catheter off the vessel's axis sees the far wall further away.
  const hard = options.hardCases;
  const displaced = hard !== undefined && ((hard.eccentricCatheter ?? 0) > 0 || (hard.cardiacMotion ?? 0) > 0);
  const neededRadiusMm = MIN_FIELD_OF_VIEW_RADIUS_MM + (displaced ? MAX_CATHETER_DISPLACEMENT_MM : 0);
  if (fieldOfViewRadiusMm < neededRadiusMm) {
    throw new RangeError(
      `a ${frameSizePx} px frame at ${pixelSpacingMm} mm/px spans ${(2 * fieldOfViewRadiusMm).toFixed(2)} mm; the vessel needs ${2 * neededRadiusMm} mm`,
    );
  }
  // The record's nominal length (3,600 frames at 30 frames/s and 0.5 mm/s is a 60 mm pullback).
  const lengthMm = (frameCount / frameRateHz) * pullbackSpeedMmPerS;
  const anatomy = drawAnatomy(seed, lengthMm);
  const model: PullbackModel = { seed, frameCount, frameSizePx, pixelSpacingMm, frameRateHz, pullbackSpeedMmPerS, lengthMm, anatomy };
  if (options.look === undefined && hard === undefined) return model;
  return {
    ...model,
    look: options.look ?? 'demo',
    hardCases: drawHardCases(seed, lengthMm, anatomy.stenosisCentreMm, hard ?? {}, (anatomy.referenceAreaDistalMm2 + anatomy.referenceAreaProximalMm2) / 2),
  };
}

function drawAnatomy(seed: number, lengthMm: number): PullbackAnatomy {
  const random = seededRandom(seed);
  const between = (low: number, high: number): number => low + (high - low) * random();
  const wave = (amplitude: number, shortestMm: number, longestMm: number): Wave => ({
    amplitude,
    wavelengthMm: between(shortestMm, longestMm),
    phaseRad: between(0, 2 * Math.PI),
  });
  // Lesion widths scale down on short pullbacks so the whole lesion, with its shoulders, fits.
  const lesionScaleMm = Math.min(3, Math.max(0.4, lengthMm * 0.09));
  const stenosisCentreMm = lengthMm * between(0.42, 0.6);
  const stenosisSigmaProximalMm = lesionScaleMm * between(0.8, 1.2);
  const calciumHalfLengthMm = Math.min(4.5, Math.max(0.3, lengthMm * 0.12)) * between(0.8, 1);
  const calciumSide = random() < 0.5 ? -1 : 1;
  return {
    stenosisCentreMm,
    stenosisSigmaDistalMm: lesionScaleMm * between(0.8, 1.2),
    stenosisSigmaProximalMm,
    referenceAreaDistalMm2: between(7.3, 7.6),
    referenceAreaProximalMm2: between(8.3, 8.6),
    areaWaves: [wave(between(0.1, 0.2), 9, 16), wave(between(0.05, 0.1), 3.5, 6)],
    minimalLumenAreaMm2: between(2.3, 2.7),
    vesselToLumenAreaRatio: between(1.54, 1.6),
    vesselAreaWave: wave(between(0.1, 0.2), 14, 24),
    remodellingAreaMm2: between(0.8, 1.4),
    plaqueAngleStartRad: between(0, 2 * Math.PI),
    plaqueRotationRadPerMm: (random() < 0.5 ? -1 : 1) * between(0.05, 0.09),
    plaqueAngleWave: wave(between(0.2, 0.35), 12, 20),
    eccentricityBase: between(0.55, 0.65),
    eccentricityWave: wave(0.15, 8, 14),
    lumenHarmonics: [
      { order: 2, amplitude: between(0.03, 0.05), phaseRad: between(0, 2 * Math.PI), phaseRadPerMm: between(-0.06, 0.06) },
      { order: 3, amplitude: between(0.015, 0.025), phaseRad: between(0, 2 * Math.PI), phaseRadPerMm: between(-0.05, 0.05) },
    ],
    vesselEllipse: between(0.02, 0.035),
    vesselEllipseAngleRad: between(0, Math.PI),
    calcium: {
      centreMm: clamp(
        stenosisCentreMm + calciumSide * stenosisSigmaProximalMm * between(0.3, 0.9),
        calciumHalfLengthMm,
        Math.max(calciumHalfLengthMm, lengthMm - calciumHalfLengthMm),
      ),
      halfLengthMm: calciumHalfLengthMm,
      angleOffsetRad: between(-0.4, 0.4),
      maxHalfArcRad: between(0.55, 0.85),
      depthMm: between(0.03, 0.06),
      thicknessMm: between(0.16, 0.22),
    },
    guidewireAngleOffsetRad: Math.PI + between(-0.3, 0.3),
    guidewireDrift: wave(between(0.35, 0.55), 15, 25),
  };
}

export function clamp(value: number, low: number, high: number): number {
  return value < low ? low : value > high ? high : value;
}

export function waveAt(wave: Wave, zMm: number): number {
  return wave.amplitude * Math.sin((2 * Math.PI * zMm) / wave.wavelengthMm + wave.phaseRad);
}

/** Position of a frame along the pullback, in mm from its distal start. */
export function framePositionMm(model: PullbackModel, frameIndex: number): number {
  return (frameIndex / model.frameRateHz) * model.pullbackSpeedMmPerS;
}

/**
 * How much of the lesion is present at z: 1 at its centre, falling off like a Gaussian with a
 * different width on each side (lesions are rarely symmetric). Smooth at the centre because both
 * sides have zero slope there.
 */
export function stenosisSeverity(model: PullbackModel, zMm: number): number {
  const { stenosisCentreMm, stenosisSigmaDistalMm, stenosisSigmaProximalMm } = model.anatomy;
  const sigma = zMm < stenosisCentreMm ? stenosisSigmaDistalMm : stenosisSigmaProximalMm;
  const u = (zMm - stenosisCentreMm) / sigma;
  return Math.exp(-0.5 * u * u);
}

function taperedAreaMm2(model: PullbackModel, zMm: number): number {
  const anatomy = model.anatomy;
  const t = model.lengthMm > 0 ? clamp(zMm / model.lengthMm, 0, 1) : 0;
  return anatomy.referenceAreaDistalMm2 + (anatomy.referenceAreaProximalMm2 - anatomy.referenceAreaDistalMm2) * t;
}

/** The lumen area the vessel would have without the lesion: tapering towards distal, gently wavy. */
export function referenceLumenAreaMm2(model: PullbackModel, zMm: number): number {
  let area = taperedAreaMm2(model, zMm);
  for (const wave of model.anatomy.areaWaves) area += waveAt(wave, zMm);
  return area;
}

export function lumenAreaTargetMm2(model: PullbackModel, zMm: number): number {
  const atCentre = referenceLumenAreaMm2(model, model.anatomy.stenosisCentreMm);
  const narrowingMm2 = atCentre - model.anatomy.minimalLumenAreaMm2;
  return referenceLumenAreaMm2(model, zMm) - narrowingMm2 * stenosisSeverity(model, zMm);
}

export function vesselAreaTargetMm2(model: PullbackModel, zMm: number): number {
  const anatomy = model.anatomy;
  return (
    anatomy.vesselToLumenAreaRatio * taperedAreaMm2(model, zMm) +
    waveAt(anatomy.vesselAreaWave, zMm) +
    anatomy.remodellingAreaMm2 * stenosisSeverity(model, zMm)
  );
}

/** Direction of the thickest plaque, rotating slowly along the pullback. */
export function plaqueAngleRad(model: PullbackModel, zMm: number): number {
  const anatomy = model.anatomy;
  return anatomy.plaqueAngleStartRad + anatomy.plaqueRotationRadPerMm * zMm + waveAt(anatomy.plaqueAngleWave, zMm);
}
