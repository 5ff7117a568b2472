/**
 * Grey-level statistics of one frame by anatomical region, the regions taken from the borders (the
 * generator's truth, or an expert's tracing): what issue 23 measured on real 20 MHz coronary frames
 * and what the calibrated look is tuned to match.
 *
 * - lumen: inside the lumen border, outside the catheter and its ring-down (the real set's numbers
 *   describe blood; the catheter is not blood);
 * - plaque: between the lumen and the vessel border (plaque plus media);
 * - outer band: the 0.5 mm just outside the vessel border (adventitia), measured along the rays from
 *   the catheter.
 */
import type { ImagePoint } from '../image-point.ts';

export interface RegionStatistics {
  readonly lumen: { readonly mean: number; readonly std: number; readonly p90: number; readonly count: number };
  readonly plaque: { readonly median: number; readonly mean: number; readonly count: number };
  readonly outerBand: { readonly mean: number; readonly count: number };
}

export interface RegionGeometry {
  readonly frameWidth: number;
  readonly frameHeight: number;
  readonly pixelSpacingMm: number;
  readonly centre: ImagePoint;
  /** Radius from the centre inside which the lumen is not counted (catheter and ring-down), mm. */
  readonly excludedRadiusMm: number;
  /** Width of the band outside the vessel, mm. */
  readonly outerBandMm: number;
}

/** The real set's band and the catheter (0.5 mm radius) plus its ring-down. */
export const DEFAULT_EXCLUDED_RADIUS_MM = 0.75;
export const DEFAULT_OUTER_BAND_MM = 0.5;

/** A closed polygon's radius from `centre` as a function of the angle, sampled finely (the borders are star-shaped around the catheter). */
function radiusTable(points: readonly ImagePoint[], centre: ImagePoint, bins: number): Float64Array {
  const table = new Float64Array(bins).fill(NaN);
  const n = points.length;
  for (let k = 0; k < n; k++) {
    const a = points[k]!;
    const b = points[(k + 1) % n]!;
    // Walk the edge finely enough that every angular bin it crosses gets a value.
    const steps = Math.max(2, Math.ceil(Math.hypot(b.x - a.x, b.y - a.y)) * 2);
    for (let s = 0; s < steps; s++) {
      const t = s / steps;
      const x = a.x + (b.x - a.x) * t - centre.x;
      const y = a.y + (b.y - a.y) * t - centre.y;
      let angle = Math.atan2(y, x);
      if (angle < 0) angle += 2 * Math.PI;
      const bin = Math.min(bins - 1, Math.floor((angle / (2 * Math.PI)) * bins));
      table[bin] = Math.hypot(x, y);
    }
  }
  // Fill any bin left empty from its neighbours (never happens for the truth's 180-point polygons).
  for (let k = 0; k < bins; k++) {
    if (!Number.isNaN(table[k]!)) continue;
    for (let d = 1; d < bins; d++) {
      const v = table[(k + d) % bins]!;
      if (!Number.isNaN(v)) {
        table[k] = v;
        break;
      }
    }
  }
  return table;
}

function quantileOf(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export function regionStatistics(frame: Uint8Array, lumen: readonly ImagePoint[], vessel: readonly ImagePoint[], geometry: RegionGeometry): RegionStatistics {
  const bins = 720;
  const lumenRadii = radiusTable(lumen, geometry.centre, bins);
  const vesselRadii = radiusTable(vessel, geometry.centre, bins);
  const bandPx = geometry.outerBandMm / geometry.pixelSpacingMm;
  const excludedPx = geometry.excludedRadiusMm / geometry.pixelSpacingMm;
  const lumenValues: number[] = [];
  const plaqueValues: number[] = [];
  let bandSum = 0;
  let bandCount = 0;
  for (let row = 0; row < geometry.frameHeight; row++) {
    const y = row + 0.5 - geometry.centre.y;
    for (let col = 0; col < geometry.frameWidth; col++) {
      const x = col + 0.5 - geometry.centre.x;
      const r = Math.hypot(x, y);
      let angle = Math.atan2(y, x);
      if (angle < 0) angle += 2 * Math.PI;
      const bin = Math.min(bins - 1, Math.floor((angle / (2 * Math.PI)) * bins));
      const value = frame[row * geometry.frameWidth + col]!;
      const lumenR = lumenRadii[bin]!;
      const vesselR = vesselRadii[bin]!;
      if (r < lumenR) {
        if (r > excludedPx) lumenValues.push(value);
      } else if (r < vesselR) {
        plaqueValues.push(value);
      } else if (r < vesselR + bandPx) {
        bandSum += value;
        bandCount++;
      }
    }
  }
  let sum = 0;
  let squares = 0;
  for (const v of lumenValues) {
    sum += v;
    squares += v * v;
  }
  const lumenMean = sum / Math.max(1, lumenValues.length);
  lumenValues.sort((a, b) => a - b);
  plaqueValues.sort((a, b) => a - b);
  return {
    lumen: {
      mean: lumenMean,
      std: Math.sqrt(Math.max(0, squares / Math.max(1, lumenValues.length) - lumenMean * lumenMean)),
      p90: quantileOf(lumenValues, 0.9),
      count: lumenValues.length,
    },
    plaque: {
      median: quantileOf(plaqueValues, 0.5),
      mean: plaqueValues.reduce((s, v) => s + v, 0) / Math.max(1, plaqueValues.length),
      count: plaqueValues.length,
    },
    outerBand: { mean: bandSum / Math.max(1, bandCount), count: bandCount },
  };
}
