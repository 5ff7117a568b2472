/**
 * Calcium cases for the IVUS calcium score (issue 28): the pullback's calcium made long and wide
 * (> 270° over > 5 mm), circumferential (360°), a calcified nodule bulging into the lumen, or a small
 * vessel (EEM diameter < 3.5 mm). Each is a hard-case option, off by default, drawn on a random
 * stream of its own so that no other draw of the seed moves (the demo records and bench:contours
 * stay exactly as they were).
 */
import { seededRandom } from '../random.ts';
import { deriveSeed } from './hash.ts';

export const CALCIUM_CASE_KINDS = ['extensive', 'circumferential', 'nodule'] as const;
export type CalciumCaseKind = (typeof CALCIUM_CASE_KINDS)[number];

export interface CalciumCaseParameters {
  readonly kind: CalciumCaseKind;
  /** Replaces the anatomy's calcium half length (the arc grows and fades over ±this around its centre). */
  readonly halfLengthMm: number;
  /** Replaces the widest half arc; beyond π the calcium closes round the whole circle over a stretch. */
  readonly maxHalfArcRad: number;
  /** How far a nodule's surface stands into the lumen at its middle (0 unless kind is 'nodule'). */
  readonly noduleHeightMm: number;
  /** Moves the calcium along the pullback (the nodule: off the stenosis, where the lumen has room for it); absent, it stays where the anatomy put it. */
  readonly centreMm?: number;
}

const CALCIUM_CASE_STREAM = 0xca1c;
const SMALL_VESSEL_STREAM = 0x5e55;
const DEG = Math.PI / 180;

export function drawCalciumCase(seed: number, kind: CalciumCaseKind, lengthMm: number, stenosisCentreMm: number): CalciumCaseParameters {
  const random = seededRandom(deriveSeed(seed, CALCIUM_CASE_STREAM));
  const between = (low: number, high: number): number => low + (high - low) * random();
  switch (kind) {
    case 'extensive':
      // 310-340° at the middle and a long raised cosine: > 270° over about 8 mm, never closing the circle.
      return { kind, halfLengthMm: between(10, 12), maxHalfArcRad: between(155, 170) * DEG, noduleHeightMm: 0 };
    case 'circumferential':
      // Closes the circle over a few mm, but is > 270° over less than 5 mm: a 360° point, not the long-arc point.
      return { kind, halfLengthMm: between(2.5, 3), maxHalfArcRad: between(230, 250) * DEG, noduleHeightMm: 0 };
    case 'nodule': {
      const halfLengthMm = between(1.5, 2.2);
      const awayMm = (random() < 0.5 ? -1 : 1) * between(6, 9);
      const centreMm = Math.min(lengthMm - halfLengthMm, Math.max(halfLengthMm, stenosisCentreMm + awayMm));
      return { kind, halfLengthMm, maxHalfArcRad: between(30, 42) * DEG, noduleHeightMm: between(0.35, 0.5), centreMm };
    }
  }
}

/** Lumen and vessel areas are scaled by this in a small vessel: an EEM diameter of about 3.0 mm instead of 3.9. */
export function drawVesselAreaScale(seed: number): number {
  return 0.58 + 0.06 * seededRandom(deriveSeed(seed, SMALL_VESSEL_STREAM))();
}

/**
 * A nodule's surface stands into the lumen by this much at `fromCentreRad` from the calcium's centre
 * angle: a smooth dome over the calcium's arc, its height following the arc's growth along z.
 */
export function noduleProtrusionMm(nodule: CalciumCaseParameters, halfArcRad: number, fromCentreRad: number): number {
  if (nodule.noduleHeightMm <= 0 || halfArcRad <= 0) return 0;
  const across = Math.abs(fromCentreRad) / halfArcRad;
  if (across >= 1) return 0;
  const growth = (halfArcRad / nodule.maxHalfArcRad) ** 2;
  return nodule.noduleHeightMm * growth * Math.cos((Math.PI / 2) * across) ** 2;
}
