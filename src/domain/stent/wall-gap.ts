/**
 * Where the lumen wall lies behind the stent, line by line, for malapposition (issue 28). Inside
 * the stent is blood; the wall is the first thing beyond the stent border clearly brighter than
 * that blood: bright tissue where blood is dark (20 MHz), or the thin bright ring of the intima
 * where blood scatters as much as plaque does (high frequencies). A frame is read once, before
 * its stent border is known (the border needs its neighbours' struts), so what is kept of it is
 * compact: per line, the mean echo of 0.05 mm bins from MIN_MM out (three lines averaged, so a
 * strut's narrow shadow does not hide the wall).
 */
export const BIN_MM = 0.05;
export const MIN_MM = 0.9;
export const BIN_COUNT = 64;
/** The wall is at least this much brighter than the stent's blood, in ratio and in grey levels. */
const WALL_OVER_BLOOD = 1.35;
const WALL_ABOVE_BLOOD = 30;
/**
 * Or clearly darker than blood over DARK_BINS bins: at high frequencies blood scatters more than
 * some plaque does, and a plaque darker than the blood beside it is wall all the same.
 */
const DARK_SHARE = 0.6;
const DARK_BINS = 3;
/**
 * The wall is looked for from this far inside the stent border (the curve is fitted within a few
 * hundredths of a millimetre; where the struts touch the wall, its bright intima lies right on it).
 * Lines through a strut itself are not read here (malapposition.ts takes their neighbours').
 */
const BEFORE_BORDER_MM = 0.05;
/** Blood is read inside the stent, clear of the struts by this much. */
const INSIDE_STRUT_MM = 0.15;

/** Per line BIN_COUNT bin means (0-255), line after line. */
export type WallBins = Uint8Array;

export function readWallBins(polar: Float32Array, lineCount: number, sampleCount: number, stepMm: number, insideCount: Int32Array): WallBins {
  const bins = new Uint8Array(lineCount * BIN_COUNT);
  const perBin = Math.max(1, Math.round(BIN_MM / stepMm));
  const first = Math.round(MIN_MM / stepMm);
  for (let a = 0; a < lineCount; a++) {
    // The three lines' rows and extents, found once per line, not per bin (the modulo per bin was
    // most of this loop's time); each bin sums the same samples in the same order as before (line
    // a−1, a, a+1, outwards), so every bin is the same to the bit.
    const before = (a - 1 + lineCount) % lineCount;
    const after = (a + 1) % lineCount;
    const row0 = before * sampleCount;
    const row1 = a * sampleCount;
    const row2 = after * sampleCount;
    const inside0 = insideCount[before]!;
    const inside1 = insideCount[a]!;
    const inside2 = insideCount[after]!;
    const allInside = Math.min(inside0, inside1, inside2);
    for (let b = 0; b < BIN_COUNT; b++) {
      const from = first + b * perBin;
      const to = from + perBin;
      if (perBin === 5 && to <= allInside) {
        // The usual bin (0.01 mm samples, all three lines in the frame), written out: the same
        // fifteen samples added in the same order, a fifth less time than the loops below.
        const i0 = row0 + from;
        const i1 = row1 + from;
        const i2 = row2 + from;
        const sum =
          polar[i0]! + polar[i0 + 1]! + polar[i0 + 2]! + polar[i0 + 3]! + polar[i0 + 4]! +
          polar[i1]! + polar[i1 + 1]! + polar[i1 + 2]! + polar[i1 + 3]! + polar[i1 + 4]! +
          polar[i2]! + polar[i2 + 1]! + polar[i2 + 2]! + polar[i2 + 3]! + polar[i2 + 4]!;
        bins[a * BIN_COUNT + b] = Math.round(sum / 15);
        continue;
      }
      const end0 = Math.min(to, inside0);
      const end1 = Math.min(to, inside1);
      const end2 = Math.min(to, inside2);
      let sum = 0;
      for (let k = from; k < end0; k++) sum += polar[row0 + k]!;
      for (let k = from; k < end1; k++) sum += polar[row1 + k]!;
      for (let k = from; k < end2; k++) sum += polar[row2 + k]!;
      const n = Math.max(0, end0 - from) + Math.max(0, end1 - from) + Math.max(0, end2 - from);
      bins[a * BIN_COUNT + b] = n === 0 ? 0 : Math.round(sum / n);
    }
  }
  return bins;
}

/** The blood's echo inside the stent: the median bin between MIN_MM and the border, over all lines. */
export function bloodLevel(bins: WallBins, lineCount: number, stentRadiusMm: (line: number) => number): number {
  const histogram = new Uint32Array(256);
  let total = 0;
  for (let a = 0; a < lineCount; a++) {
    const last = Math.floor((stentRadiusMm(a) - INSIDE_STRUT_MM - MIN_MM) / BIN_MM);
    for (let b = 0; b <= Math.min(last, BIN_COUNT - 1); b++) {
      histogram[bins[a * BIN_COUNT + b]!]!++;
      total++;
    }
  }
  if (total === 0) return NaN;
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v]!;
    if (2 * seen >= total) return v;
  }
  return 255;
}

/**
 * The distance from the stent border to the wall on `line`, in mm, or NaN where no wall shows
 * within the bins (a shadow that hides everything behind it).
 */
export function wallGapMm(bins: WallBins, line: number, stentRadiusMm: number, blood: number): number {
  const threshold = Math.max(WALL_OVER_BLOOD * blood, blood + WALL_ABOVE_BLOOD);
  const start = Math.max(0, Math.floor((stentRadiusMm - BEFORE_BORDER_MM - MIN_MM) / BIN_MM));
  const dark = DARK_SHARE * blood;
  const at = (b: number): number => bins[line * BIN_COUNT + b]!;
  for (let b = start; b < BIN_COUNT; b++) {
    let darkRun = 0;
    while (darkRun < DARK_BINS && b + darkRun < BIN_COUNT && at(b + darkRun) <= dark) darkRun++;
    if (at(b) >= threshold || darkRun === DARK_BINS) return Math.max(0, MIN_MM + b * BIN_MM - stentRadiusMm);
  }
  return NaN;
}
