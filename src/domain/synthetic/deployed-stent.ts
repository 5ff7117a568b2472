/**
 * A deployed stent with truth (issue 28): the stent a cath lab checks after implantation. Where the
 * stent lies, its struts hold the lumen open on a smooth stent border; over an under-expanded
 * segment (the lesion resisted the balloon) the border is smaller; over a malapposed region the wall
 * lies further out than the struts, with blood between (a known arc and length, the gap beyond
 * 0.4 mm in its core); the stent's edges sit on the native vessel with whatever plaque it has there.
 *
 * Off unless `HardCaseOptions.deployedStent` asks for it, and drawn on a random stream of its own,
 * so every other draw of a seed (and so every existing case and bench figure) stays what it was.
 */
import { seededRandom } from '../random.ts';
import { deriveSeed } from './hash.ts';
import { angleDifferenceRad, type RadiusFunction } from './section-geometry.ts';

/** Where a stent's struts do not touch the wall: a region in (z, angle) with the gap at its core. */
export interface MalappositionParameters {
  readonly centreMm: number;
  readonly halfLengthMm: number;
  /** Angle of the region's middle, in the anatomy's frame (it turns with the anatomy). */
  readonly angleRad: number;
  readonly halfArcRad: number;
  /** The wall's distance beyond the stent border at the region's core. */
  readonly gapMm: number;
}

export interface DeployedStentParameters {
  readonly startMm: number;
  readonly endMm: number;
  readonly strutCount: number;
  readonly phaseRad: number;
  readonly swingRad: number;
  readonly swingWavelengthMm: number;
  readonly thicknessMm: number;
  readonly widthMm: number;
  /** Area the stent reaches where nothing resists it. */
  readonly nominalAreaMm2: number;
  /** The under-expanded segment: its middle, half length and the share of the nominal area lost there. */
  readonly underExpansion: { readonly centreMm: number; readonly halfLengthMm: number; readonly areaLoss: number };
  /** Slight ovality of the border (a relative change of the radius over the circle). */
  readonly ovality: number;
  readonly ovalityAngleRad: number;
  readonly malapposition: readonly MalappositionParameters[];
}

/** Consensus threshold: a strut farther than this from the lumen wall is malapposed. */
export const MALAPPOSITION_THRESHOLD_MM = 0.4;
/** Native vessel kept on both sides of the stent: the 5 mm edge segments and a reference beyond. */
export const STENT_MARGIN_MM = 7;
/** On a pullback too short for STENT_MARGIN_MM, the least native vessel kept on each side. */
const SHORT_PULLBACK_MARGIN_MM = 2.5;
/** Stents shorter than this leave a short pullback's margins smaller than STENT_MARGIN_MM rather than shrink. */
const SHORT_PULLBACK_STENT_MM = 10;
const DEPLOYED_STENT_STREAM = 0x57e7;
/** Over this share of a region's half length (and half arc) the gap is full; beyond, it tapers. */
const FLAT_SHARE = 0.6;

/**
 * Draws a deployed stent over the lesion of a pullback `lengthMm` long. Needs about 2 × STENT_MARGIN_MM
 * plus 10 mm of pullback; on shorter pullbacks (the short post-PCI demo runs) the native margins
 * shrink first, to SHORT_PULLBACK_MARGIN_MM, so the stent still covers the lesion, then the stent.
 * Pullbacks long enough (every stent case) draw exactly what they always drew.
 */
export function drawDeployedStent(seed: number, lengthMm: number, stenosisCentreMm: number, referenceAreaMm2: number): DeployedStentParameters {
  const random = seededRandom(deriveSeed(seed, DEPLOYED_STENT_STREAM));
  const between = (low: number, high: number): number => low + (high - low) * random();
  const marginMm =
    lengthMm >= 2 * STENT_MARGIN_MM + SHORT_PULLBACK_STENT_MM ? STENT_MARGIN_MM : Math.max(SHORT_PULLBACK_MARGIN_MM, (lengthMm - SHORT_PULLBACK_STENT_MM) / 2);
  const room = Math.max(2, lengthMm - 2 * marginMm);
  const stentLengthMm = Math.min(room, between(12, 24));
  const wantedStart = stenosisCentreMm - stentLengthMm * between(0.35, 0.65);
  const startMm = Math.min(Math.max(wantedStart, marginMm), Math.max(marginMm, lengthMm - marginMm - stentLengthMm));
  const endMm = startMm + stentLengthMm;
  const underHalfMm = Math.min(stentLengthMm / 4, between(2, 4));
  const underCentreMm = Math.min(endMm - underHalfMm, Math.max(startMm + underHalfMm, stenosisCentreMm + between(-1, 1)));
  const strut = {
    strutCount: 7 + Math.floor(random() * 4),
    phaseRad: between(0, 2 * Math.PI),
    swingRad: between(0.15, 0.35),
    swingWavelengthMm: between(1.5, 2.5),
    thicknessMm: between(0.07, 0.1),
    widthMm: between(0.09, 0.14),
  };
  const nominalAreaMm2 = referenceAreaMm2 * between(0.95, 1.1);
  const areaLoss = between(0.08, 0.35);
  const ovality = between(0.01, 0.04);
  const ovalityAngleRad = between(0, Math.PI);
  // One or two malapposed regions, apart in z and clear of the under-expanded core.
  const regionCount = random() < 0.5 ? 1 : 2;
  const malapposition: MalappositionParameters[] = [];
  for (let k = 0; k < regionCount; k++) {
    const halfLengthMm = Math.min(stentLengthMm / 8, between(0.8, 2));
    // The first near the proximal edge (where a stent sized on the distal vessel lets go), the second distal.
    const centreMm = k === 0 ? endMm - halfLengthMm - between(0.3, 2) : startMm + halfLengthMm + between(0.3, 2);
    malapposition.push({ centreMm, halfLengthMm, angleRad: between(0, 2 * Math.PI), halfArcRad: between(0.6, 1.1), gapMm: between(0.55, 0.75) });
  }
  return {
    startMm,
    endMm,
    ...strut,
    nominalAreaMm2,
    underExpansion: { centreMm: underCentreMm, halfLengthMm: underHalfMm, areaLoss },
    ovality,
    ovalityAngleRad,
    malapposition,
  };
}

export function stentCovers(stent: DeployedStentParameters, zMm: number): boolean {
  return zMm >= stent.startMm && zMm <= stent.endMm;
}

/** Raised cosine of |u| in [0, 1], flat over FLAT_SHARE of it: 1 at the core, 0 beyond |u| = 1. */
function flatTaper(u: number): number {
  const a = Math.abs(u);
  if (a >= 1) return 0;
  if (a <= FLAT_SHARE) return 1;
  return 0.5 * (1 + Math.cos((Math.PI * (a - FLAT_SHARE)) / (1 - FLAT_SHARE)));
}

/** The stent's area at z, before ovality (which keeps the area to first order). */
export function stentAreaAtMm2(stent: DeployedStentParameters, zMm: number): number {
  const under = stent.underExpansion;
  const u = (zMm - under.centreMm) / under.halfLengthMm;
  const loss = Math.abs(u) >= 1 ? 0 : under.areaLoss * 0.5 * (1 + Math.cos(Math.PI * u));
  return stent.nominalAreaMm2 * (1 - loss);
}

/** The wall's distance beyond the stent border at (z, angle in the anatomy's frame). */
export function malappositionGapMm(stent: DeployedStentParameters, zMm: number, anatomyAngleRad: number): number {
  let gap = 0;
  for (const region of stent.malapposition) {
    const along = flatTaper((zMm - region.centreMm) / region.halfLengthMm);
    if (along === 0) continue;
    const around = flatTaper(angleDifferenceRad(anatomyAngleRad, region.angleRad) / region.halfArcRad);
    gap = Math.max(gap, region.gapMm * along * around);
  }
  return gap;
}

/**
 * The stent border around the catheter at z: a slightly oval circle centred on the lumen's centre
 * (`centre`, relative to the catheter, after the heart's turn and scale), turned by `turnRad`.
 */
export function stentRadiusFunction(stent: DeployedStentParameters, zMm: number, centre: { x: number; y: number }, turnRad: number, scale: number): RadiusFunction {
  const radius = scale * Math.sqrt(stentAreaAtMm2(stent, zMm) / Math.PI);
  const d = Math.hypot(centre.x, centre.y);
  const psi = Math.atan2(centre.y, centre.x);
  return (angleRad) => {
    const c = Math.cos(angleRad - psi);
    const s = Math.sin(angleRad - psi);
    const circle = d * c + Math.sqrt(Math.max(0, radius * radius - d * d * s * s));
    return circle * (1 + stent.ovality * Math.cos(2 * (angleRad - stent.ovalityAngleRad - turnRad)));
  };
}

/** Strut angles at z, as the cell pattern swings them (the same pattern as the plain `stent` feature). */
export function deployedStrutAngles(stent: DeployedStentParameters, zMm: number): number[] {
  if (!stentCovers(stent, zMm)) return [];
  const angles: number[] = [];
  for (let k = 0; k < stent.strutCount; k++) {
    const swing = (k % 2 === 0 ? 1 : -1) * stent.swingRad * Math.sin((2 * Math.PI * zMm) / stent.swingWavelengthMm);
    angles.push(stent.phaseRad + (2 * Math.PI * k) / stent.strutCount + swing);
  }
  return angles;
}

/** A section's borders and struts where the stent lies. */
export interface StentedSection {
  readonly lumen: RadiusFunction;
  readonly vessel: RadiusFunction;
  readonly stent: RadiusFunction;
  readonly strutAnglesRad: readonly number[];
}

/**
 * The borders a deployed stent leaves at z, or null outside it: the lumen is the stent border where
 * the struts touch the wall and lies `gap` beyond it where they do not; the EEM keeps at least
 * `minWallMm` of wall outside the lumen. Angles are scene angles; `turnRad` is the anatomy's turn.
 */
export function stentedSection(
  stent: DeployedStentParameters,
  zMm: number,
  lumenCentre: { x: number; y: number },
  turnRad: number,
  scale: number,
  vessel: RadiusFunction,
  minWallMm: number,
): StentedSection | null {
  if (!stentCovers(stent, zMm)) return null;
  const border = stentRadiusFunction(stent, zMm, lumenCentre, turnRad, scale);
  const lumen: RadiusFunction = (angleRad) => border(angleRad) + malappositionGapMm(stent, zMm, angleRad - turnRad);
  return {
    lumen,
    vessel: (angleRad) => Math.max(vessel(angleRad), lumen(angleRad) + minWallMm),
    stent: border,
    strutAnglesRad: deployedStrutAngles(stent, zMm).map((a) => a + turnRad),
  };
}
