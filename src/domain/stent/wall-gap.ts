/**
 * Where the lumen wall lies behind the stent, line by line, for malapposition (issue 28). Blood is
 * dark and the wall bright, so along each line the wall begins where the echo rises to a share of
 * the frame's wall brightness and stays there. A frame is read once, before its stent border is
 * known (the border needs the struts of its neighbours), so what is kept of it is compact: per
 * line, which 0.05 mm bins between MIN_MM and MAX_MM look like wall (64 bits a line).
 */
export const BIN_MM = 0.05;
export const MIN_MM = 0.9;
const BIN_COUNT = 64;
/** A bin is wall when its echo reaches this share of the frame's wall brightness. */
const TISSUE_SHARE = 0.38;
/** The wall begins where at least this many wall bins follow one another (speckle in blood is shorter). */
const WALL_RUN_BINS = 3;
/** A strut and its ring-down are bright too: the wall is looked for this far past the stent border. */
const PAST_STRUT_MM = 0.08;

/** Per line two 32-bit words: bit b set when bin b (from MIN_MM) looks like wall. */
export type TissueBits = Uint32Array;

export function readTissueBits(
  polar: Float32Array,
  lineCount: number,
  sampleCount: number,
  stepMm: number,
  insideCount: Int32Array,
  wallLevel: number,
): TissueBits {
  const bits = new Uint32Array(2 * lineCount);
  const perBin = Math.max(1, Math.round(BIN_MM / stepMm));
  const first = Math.round(MIN_MM / stepMm);
  const threshold = TISSUE_SHARE * wallLevel;
  for (let a = 0; a < lineCount; a++) {
    for (let b = 0; b < BIN_COUNT; b++) {
      const from = first + b * perBin;
      let sum = 0;
      let n = 0;
      // Three neighbouring lines: a strut's narrow shadow darkens one or two of them, not the wall.
      for (let d = -1; d <= 1; d++) {
        const l = (a + d + lineCount) % lineCount;
        const end = Math.min(from + perBin, insideCount[l]!);
        for (let k = from; k < end; k++) {
          sum += polar[l * sampleCount + k]!;
          n++;
        }
      }
      if (n > 0 && sum / n >= threshold) bits[2 * a + (b >> 5)]! |= 1 << (b & 31);
    }
  }
  return bits;
}

function isTissue(bits: TissueBits, line: number, bin: number): boolean {
  if (bin < 0 || bin >= BIN_COUNT) return false;
  return (bits[2 * line + (bin >> 5)]! & (1 << (bin & 31))) !== 0;
}

/**
 * The distance from the stent border to the wall on `line`, in mm, or NaN where no wall shows
 * within the bins (a shadow that hides everything behind it).
 */
export function wallGapMm(bits: TissueBits, line: number, stentRadiusMm: number): number {
  const start = Math.max(0, Math.ceil((stentRadiusMm + PAST_STRUT_MM - MIN_MM) / BIN_MM));
  // The apposed case first: wall right at the border (the strut's own bins are wall-bright).
  for (let b = start; b <= BIN_COUNT - WALL_RUN_BINS; b++) {
    let run = 0;
    while (run < WALL_RUN_BINS && isTissue(bits, line, b + run)) run++;
    if (run === WALL_RUN_BINS) {
      const wallMm = MIN_MM + b * BIN_MM;
      return Math.max(0, wallMm - stentRadiusMm);
    }
  }
  return NaN;
}
