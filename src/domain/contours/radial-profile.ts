/**
 * Operations on a border given as r(θ), one radius per ray evenly spaced in angle (the lumen
 * detector's result before it becomes points): repairing rays that could not see, smoothing
 * across angle, and turning it into a polygon or control points.
 */
import type { Point } from '../annotations/manifest.ts';

/** Marks `margin` rays on each side of every marked ray (circularly). */
export function widen(mask: Uint8Array, margin: number): void {
  const n = mask.length;
  const copy = mask.slice();
  for (let a = 0; a < n; a++) {
    if (copy[a] === 0) continue;
    for (let d = -margin; d <= margin; d++) mask[(a + d + n) % n] = 1;
  }
}

/**
 * Walks once round the circle from a seeing ray and calls `fill` for every run of blind rays between
 * two seeing rays: the seeing ray before the run, the one after it, and the distance between them
 * in rays (the run is rays before + 1 … before + gap − 1, modulo the ray count). Nothing is called
 * when no ray sees.
 */
export function forEachBlindRun(blind: Uint8Array, fill: (before: number, after: number, gap: number) => void): void {
  const n = blind.length;
  let start = 0;
  while (start < n && blind[start] === 1) start++;
  if (start === n) return;
  let lastSeen = start;
  for (let step = 1; step <= n; step++) {
    const a = (start + step) % n;
    if (blind[a] === 1) continue;
    const gap = step - ((lastSeen - start + n) % n);
    if (gap > 1) fill(lastSeen, a, gap);
    lastSeen = a;
  }
}

/** Blind rays take the straight-line interpolation (in radius) between the nearest seeing rays. */
export function interpolateBlind(radii: Float32Array, blind: Uint8Array): void {
  const n = radii.length;
  forEachBlindRun(blind, (before, after, gap) => {
    const r0 = radii[before]!;
    const r1 = radii[after]!;
    for (let g = 1; g < gap; g++) radii[(before + g) % n] = r0 + ((r1 - r0) * g) / gap;
  });
}

/**
 * cos and sin of 2π·h·a / n for h = 0..harmonics and a = 0..n − 1 (row h, column a), per (n,
 * harmonics): lowPass runs twice a frame, and the trigonometry was a third of its time. The angle is
 * computed exactly as it was inline, so the values (and the borders) are the same.
 */
const trigTables = new Map<string, { cos: Float64Array; sin: Float64Array }>();

function trigTable(n: number, harmonics: number): { cos: Float64Array; sin: Float64Array } {
  const key = `${n}/${harmonics}`;
  let table = trigTables.get(key);
  if (table === undefined) {
    table = { cos: new Float64Array((harmonics + 1) * n), sin: new Float64Array((harmonics + 1) * n) };
    for (let h = 0; h <= harmonics; h++) {
      for (let a = 0; a < n; a++) {
        const angle = (2 * Math.PI * h * a) / n;
        table.cos[h * n + a] = Math.cos(angle);
        table.sin[h * n + a] = Math.sin(angle);
      }
    }
    trigTables.set(key, table);
  }
  return table;
}

/** Keeps the mean and the first `harmonics` Fourier harmonics of a periodic sequence. */
export function lowPass(values: Float32Array, harmonics: number): void {
  const n = values.length;
  const kept = Math.min(harmonics, Math.floor((n - 1) / 2));
  const { cos, sin } = trigTable(n, kept);
  const cosines = new Float64Array(kept + 1);
  const sines = new Float64Array(kept + 1);
  for (let h = 0; h <= kept; h++) {
    let c = 0;
    let s = 0;
    const row = h * n;
    for (let a = 0; a < n; a++) {
      c += values[a]! * cos[row + a]!;
      s += values[a]! * sin[row + a]!;
    }
    cosines[h] = c;
    sines[h] = s;
  }
  for (let a = 0; a < n; a++) {
    let v = cosines[0]! / n;
    for (let h = 1; h <= kept; h++) v += (2 / n) * (cosines[h]! * cos[h * n + a]! + sines[h]! * sin[h * n + a]!);
    values[a] = v;
  }
}

/** The border as a polygon, one vertex per ray. */
export function polygonOf(radii: Float32Array, centreX: number, centreY: number): Point[] {
  const n = radii.length;
  const points: Point[] = [];
  for (let a = 0; a < n; a++) {
    const angle = (2 * Math.PI * a) / n;
    points.push({ x: centreX + radii[a]! * Math.cos(angle), y: centreY + radii[a]! * Math.sin(angle) });
  }
  return points;
}

/** `count` points on r(θ) evenly spaced in angle from angle 0, interpolating between rays. */
export function controlPointsOf(radii: Float32Array, centreX: number, centreY: number, count: number): Point[] {
  const n = radii.length;
  const points: Point[] = [];
  for (let i = 0; i < count; i++) {
    const position = (i * n) / count;
    const a = Math.floor(position);
    const t = position - a;
    const r = radii[a % n]! * (1 - t) + radii[(a + 1) % n]! * t;
    const angle = (2 * Math.PI * i) / count;
    points.push({ x: centreX + r * Math.cos(angle), y: centreY + r * Math.sin(angle) });
  }
  return points;
}
