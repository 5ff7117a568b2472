/**
 * The stent border's fit computes each strut's terms once and drops outliers round by round
 * (stent-border.ts). These tests hold it to the plain definition, refitting from scratch each round
 * with a sorted median, to the bit: a record's stored stent must not move when the fit gets faster.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/domain/random.ts';
import { fitStentBorder, kthSmallest, solveAugmented, stentRadiusAt, type StentBorder } from '../../../src/domain/stent/stent-border.ts';
import type { Strut } from '../../../src/domain/stent/strut-detection.ts';

const MIN_STRUTS = 5;
const OVAL_DAMPING = 0.02;
const MAX_GAP_RAD = (7 * Math.PI) / 6;
const OUTLIER_MM = 0.12;

/** The definition: every round sorts the angles, refits from every kept strut's cos and sin, and sorts the residuals. */
function plainFit(struts: readonly Strut[]): StentBorder | null {
  const kept = struts.slice();
  const maxDropped = Math.floor(struts.length / 3);
  for (let dropped = 0; ; dropped++) {
    if (kept.length < MIN_STRUTS) return null;
    const angles = kept.map((s) => ((s.angleRad % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI)).sort((a, b) => a - b);
    let gap = angles[0]! + 2 * Math.PI - angles[angles.length - 1]!;
    for (let k = 1; k < angles.length; k++) gap = Math.max(gap, angles[k]! - angles[k - 1]!);
    if (gap > MAX_GAP_RAD) return null;
    const a = Array.from({ length: 5 }, () => new Float64Array(6));
    for (const s of kept) {
      const t = s.angleRad;
      const row = [1, Math.cos(t), Math.sin(t), Math.cos(2 * t), Math.sin(2 * t)];
      for (let i = 0; i < 5; i++) {
        for (let j = 0; j < 5; j++) a[i]![j]! += row[i]! * row[j]!;
        a[i]![5]! += row[i]! * s.radiusMm;
      }
    }
    a[3]![3]! += OVAL_DAMPING * kept.length;
    a[4]![4]! += OVAL_DAMPING * kept.length;
    const coefficients = solveAugmented(a, 5);
    if (coefficients === null) return null;
    const border = { coefficients, strutCount: kept.length };
    if (dropped === maxDropped) return border;
    const residuals = kept.map((s) => Math.abs(s.radiusMm - stentRadiusAt(border, s.angleRad)));
    const sorted = residuals.slice().sort((x, y) => x - y);
    const worst = residuals.indexOf(sorted[sorted.length - 1]!);
    if (residuals[worst]! <= Math.max(OUTLIER_MM, 3 * sorted[sorted.length >> 1]!)) return border;
    kept.splice(worst, 1);
  }
}

/**
 * Struts round an off-centre oval, a share of them stray echoes well off it. As in a record's window
 * of frames, a strut often repeats one already there (the same line and radius a frame later): so
 * the largest residual and the median are often ties.
 */
function randomStruts(random: () => number, count: number): Strut[] {
  const radius = 1.2 + random();
  const [dx, dy, oval] = [0.3 * (random() - 0.5), 0.3 * (random() - 0.5), 0.1 * random()];
  const stray = random() * 0.4;
  const struts: Strut[] = [];
  for (let k = 0; k < count; k++) {
    if (k > 0 && random() < 0.3) {
      struts.push(struts[Math.floor(random() * k)]!);
      continue;
    }
    const line = Math.floor(random() * 360);
    const angleRad = (2 * Math.PI * line) / 360;
    const onCurve = radius + dx * Math.cos(angleRad) + dy * Math.sin(angleRad) + oval * Math.cos(2 * angleRad);
    const off = random() < stray ? (random() - 0.3) * 1.5 : (random() - 0.5) * 0.04;
    struts.push({ angleRad, radiusMm: Math.round((onCurve + off) * 100) / 100 + 0.04, shadowContrast: 0.5 });
  }
  return struts;
}

describe('stent border fit, round by round', () => {
  it('gives the same border to the bit as refitting every round from scratch, whatever it drops', () => {
    const random = seededRandom(2811);
    let fitted = 0;
    let droppedSome = 0;
    for (let trial = 0; trial < 400; trial++) {
      const struts = randomStruts(random, 3 + Math.floor(random() * 400));
      const expected = plainFit(struts);
      const found = fitStentBorder(struts);
      expect(found === null ? null : { c: Array.from(found.coefficients), n: found.strutCount }).toEqual(
        expected === null ? null : { c: Array.from(expected.coefficients), n: expected.strutCount },
      );
      if (found) {
        fitted++;
        for (let k = 0; k < 5; k++) expect(Object.is(found.coefficients[k], expected!.coefficients[k])).toBe(true);
        if (found.strutCount < struts.length) droppedSome++;
      }
    }
    // The trials reach both ends: fits that drop struts, fits that drop none, and frames not measurable.
    expect(droppedSome).toBeGreaterThan(60);
    expect(fitted - droppedSome).toBeGreaterThan(10);
    expect(fitted).toBeLessThan(400);
  });

  it('refuses struts whose angle or radius is not a number, rather than fit them', () => {
    const struts: Strut[] = Array.from({ length: 8 }, (_, k) => ({ angleRad: (k * Math.PI) / 4, radiusMm: 1.5, shadowContrast: 0.5 }));
    expect(fitStentBorder(struts)).not.toBeNull();
    expect(() => fitStentBorder([...struts, { angleRad: Number.NaN, radiusMm: 1.5, shadowContrast: 0.5 }])).toThrow(RangeError);
    expect(() => fitStentBorder([...struts, { angleRad: 1, radiusMm: Number.POSITIVE_INFINITY, shadowContrast: 0.5 }])).toThrow(RangeError);
  });

  it('selects the k-th smallest value as a sort does, ties included', () => {
    const random = seededRandom(77);
    for (let trial = 0; trial < 300; trial++) {
      const count = 1 + Math.floor(random() * 60);
      const values = Float64Array.from({ length: count }, () => Math.round(random() * 8) / 4);
      const sorted = Array.from(values).sort((a, b) => a - b);
      const k = Math.floor(random() * count);
      expect(kthSmallest(values.slice(), count, k)).toBe(sorted[k]);
    }
  });
});
