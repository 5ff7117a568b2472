/**
 * How bright a calibrated pullback's plaque and adventitia are (issue 23). Real 20 MHz coronary
 * frames differ a lot from one another: the plaque's median grey runs from 27 to 81 and the 0.5 mm
 * band outside the vessel from 88 to 180, some pullbacks showing a very bright adventitia against
 * which an ordinary plaque looks dark. A pullback draws its own levels from the seed (on a stream of
 * its own, so the anatomy and the other features do not move), and they drift slowly along it.
 */
import { seededRandom } from '../random.ts';
import { deriveSeed } from './hash.ts';

/** 'typical': the real set's spread; 'bright-adventitia': the frames where the adventitia is very bright (band 150-180). */
export type TissueLevelKind = 'typical' | 'bright-adventitia';

export interface LevelDrift {
  /** Echo gain in dB relative to the look's own level. */
  readonly baseDb: number;
  readonly amplitudeDb: number;
  readonly wavelengthMm: number;
  readonly phaseRad: number;
}

export interface TissueLevelParameters {
  readonly kind: TissueLevelKind;
  readonly plaque: LevelDrift;
  /** The adventitia and the tissue around it. */
  readonly adventitia: LevelDrift;
}

const LEVELS_STREAM = 0x1e7e15;

/**
 * Ranges chosen so that the grey levels measured from the truth borders (region-statistics.ts) fall
 * in the real set's per-frame ranges (tests/domain/synthetic/coronary-calibration.test.ts).
 */
export function drawTissueLevels(seed: number, kind: TissueLevelKind): TissueLevelParameters {
  const random = seededRandom(deriveSeed(seed, LEVELS_STREAM));
  const between = (low: number, high: number): number => low + (high - low) * random();
  const drift = (low: number, high: number, amplitudeDb: number): LevelDrift => ({
    baseDb: between(low, high),
    amplitudeDb,
    wavelengthMm: between(4, 9),
    phaseRad: between(0, 2 * Math.PI),
  });
  const plaque = kind === 'typical' ? drift(-4.5, 4.5, 1.5) : drift(1.5, 2.5, 0.4);
  const adventitia = kind === 'typical' ? drift(-2.5, 3.5, 1.5) : drift(9.5, 11, 0.5);
  return { kind, plaque, adventitia };
}

function driftAt(drift: LevelDrift, zMm: number): number {
  const db = drift.baseDb + drift.amplitudeDb * Math.sin((2 * Math.PI * zMm) / drift.wavelengthMm + drift.phaseRad);
  return 10 ** (db / 20);
}

/** Amplitude gains of plaque and adventitia at z (1: the look's own level). */
export function tissueLevelGainsAt(levels: TissueLevelParameters, zMm: number): { readonly plaque: number; readonly adventitia: number } {
  return { plaque: driftAt(levels.plaque, zMm), adventitia: driftAt(levels.adventitia, zMm) };
}
