/**
 * The IVUS calcium score of a pullback (issue 28) from its per-frame calcium arcs, after Zhang M,
 * Matsumura M, et al., "Intravascular Ultrasound-Derived Calcium Score to Predict Stent Expansion in
 * Severely Calcified Lesions", Circ Cardiovasc Interv 2021: one point each for
 *   1. calcium of more than 270° over more than 5 mm of pullback,
 *   2. 360° (circumferential) calcium,
 *   3. a calcified nodule,
 *   4. a vessel diameter under 3.5 mm (here: the EEM's mean diameter, √(4·area/π), at the largest
 *      arc; behind calcium of more than VESSEL_VISIBLE_MAX_ARC_DEG the EEM lies in shadow, so the
 *      median over the frames nearest the largest arc (within 1 mm of the nearest) whose arc is narrower);
 * a score of 4 foretells stent underexpansion. A pullback without calcium scores nothing.
 *
 * Frames are given in pullback order with their position; a frame the detector could not read
 * (arcDeg null) neither lengthens nor measures anything, and a run of calcium may pass over such
 * frames for at most MAX_UNREAD_GAP_MM.
 */

export interface CalciumSlice {
  /** Position along the pullback, mm. */
  readonly positionMm: number;
  /** The frame's largest calcium arc in degrees (0: none); null where the frame could not be read. */
  readonly arcDeg: number | null;
  /** Whether the frame shows a calcified nodule. */
  readonly nodule: boolean;
  /** EEM mean diameter, mm; null where the frame has no vessel border. */
  readonly vesselDiameterMm: number | null;
}

export const LONG_ARC_DEG = 270;
export const LONG_ARC_LENGTH_MM = 5;
/** An arc this wide closes the circle (every ray round the catheter). */
export const FULL_CIRCLE_DEG = 359.5;
export const SMALL_VESSEL_DIAMETER_MM = 3.5;
/** A nodule counts once seen on this length of pullback (one frame alone may be speckle). */
export const NODULE_MIN_LENGTH_MM = 0.4;
export const MAX_UNREAD_GAP_MM = 0.5;
const VESSEL_WINDOW_MM = 1;
/** Behind a wider arc the EEM is mostly shadow: its border there is a guess, not a measurement. */
export const VESSEL_VISIBLE_MAX_ARC_DEG = 180;

/** A run of frames along the pullback: indices into the slices given, and its length. */
export interface CalciumRun {
  readonly first: number;
  readonly last: number;
  readonly lengthMm: number;
}

export interface CalciumScore {
  /** 0 to 4. */
  readonly total: number;
  /** The largest arc and its frame (index into the slices); null where no frame shows calcium. */
  readonly maxArc: { readonly index: number; readonly arcDeg: number } | null;
  /** The longest run of calcium of any arc. */
  readonly longestCalcium: CalciumRun | null;
  readonly longArc: { readonly point: 0 | 1; readonly run: CalciumRun | null };
  readonly circumferential: { readonly point: 0 | 1; readonly index: number | null };
  readonly nodule: { readonly point: 0 | 1; readonly run: CalciumRun | null };
  readonly smallVessel: { readonly point: 0 | 1; readonly diameterMm: number | null };
}

/**
 * `sliceLengthMm` is the pullback one frame stands for (1 / frames per mm; the sampling step on a
 * subsampled run): a run of n frames in a row is n slices long.
 */
export function calciumScore(slices: readonly CalciumSlice[], sliceLengthMm: number): CalciumScore {
  let maxArc: CalciumScore['maxArc'] = null;
  slices.forEach((slice, index) => {
    if (slice.arcDeg !== null && slice.arcDeg > 0 && (maxArc === null || slice.arcDeg > maxArc.arcDeg)) maxArc = { index, arcDeg: slice.arcDeg };
  });
  const longestCalcium = longestRun(slices, sliceLengthMm, (s) => s.arcDeg! > 0);
  const longRun = longestRun(slices, sliceLengthMm, (s) => s.arcDeg! > LONG_ARC_DEG);
  const fullIndex = slices.findIndex((s) => s.arcDeg !== null && s.arcDeg >= FULL_CIRCLE_DEG);
  const noduleRun = longestRun(slices, sliceLengthMm, (s) => s.arcDeg! > 0 && s.nodule);
  const diameterMm = maxArc === null ? null : vesselDiameterNear(slices, (maxArc as { index: number }).index);
  const point = (yes: boolean): 0 | 1 => (yes ? 1 : 0);
  const longArc = { point: point(longRun !== null && longRun.lengthMm > LONG_ARC_LENGTH_MM), run: longRun };
  const circumferential = { point: point(fullIndex >= 0), index: fullIndex >= 0 ? fullIndex : null };
  const nodule = { point: point(noduleRun !== null && noduleRun.lengthMm >= NODULE_MIN_LENGTH_MM - 1e-9), run: noduleRun };
  const smallVessel = { point: point(diameterMm !== null && diameterMm < SMALL_VESSEL_DIAMETER_MM), diameterMm };
  return {
    total: longArc.point + circumferential.point + nodule.point + smallVessel.point,
    maxArc,
    longestCalcium,
    longArc,
    circumferential,
    nodule,
    smallVessel,
  };
}

/** The longest run of read frames meeting `holds`, passing over unread frames for at most MAX_UNREAD_GAP_MM. */
export function longestRun(slices: readonly CalciumSlice[], sliceLengthMm: number, holds: (slice: CalciumSlice) => boolean): CalciumRun | null {
  let best: CalciumRun | null = null;
  let first = -1;
  let last = -1;
  const close = () => {
    if (first < 0) return;
    const lengthMm = Math.abs(slices[last]!.positionMm - slices[first]!.positionMm) + sliceLengthMm;
    if (best === null || lengthMm > best.lengthMm) best = { first, last, lengthMm };
    first = -1;
  };
  slices.forEach((slice, index) => {
    if (slice.arcDeg === null) {
      if (first >= 0 && Math.abs(slice.positionMm - slices[last]!.positionMm) > MAX_UNREAD_GAP_MM) close();
      return;
    }
    if (!holds(slice)) return close();
    if (first < 0) first = index;
    last = index;
  });
  close();
  return best;
}

function vesselDiameterNear(slices: readonly CalciumSlice[], index: number): number | null {
  const centre = slices[index]!.positionMm;
  const visible = slices.filter((s) => s.vesselDiameterMm !== null && s.arcDeg !== null && s.arcDeg <= VESSEL_VISIBLE_MAX_ARC_DEG);
  if (visible.length === 0) return null;
  const nearestMm = Math.min(...visible.map((s) => Math.abs(s.positionMm - centre)));
  const diameters = visible
    .filter((s) => Math.abs(s.positionMm - centre) <= nearestMm + VESSEL_WINDOW_MM)
    .map((s) => s.vesselDiameterMm!)
    .sort((a, b) => a - b);
  const middle = diameters.length / 2;
  return diameters.length % 2 === 1 ? diameters[Math.floor(middle)]! : (diameters[middle - 1]! + diameters[middle]!) / 2;
}

/** The EEM's mean diameter from its area: the diameter of the circle of that area. */
export function meanDiameterMm(areaMm2: number): number {
  return 2 * Math.sqrt(areaMm2 / Math.PI);
}
