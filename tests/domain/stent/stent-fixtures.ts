/** Hand-made struts and readings for the stent analysis tests: a stent is a set of struts on a known curve. */
import type { StentFrameReading, Strut } from '../../../src/domain/stent/strut-detection.ts';
import { LINE_COUNT } from '../../../src/domain/stent/strut-detection.ts';
import { BIN_COUNT, BIN_MM, MIN_MM } from '../../../src/domain/stent/wall-gap.ts';

/** `count` struts evenly round a circle of `radiusMm` whose centre sits (dx, dy) mm off the catheter. */
export function strutsOnCircle(count: number, radiusMm: number, dx = 0, dy = 0, phaseRad = 0): Strut[] {
  return Array.from({ length: count }, (_, k) => {
    const angleRad = phaseRad + (2 * Math.PI * k) / count;
    // Distance along the ray at angleRad to the offset circle.
    const c = Math.cos(angleRad) * dx + Math.sin(angleRad) * dy;
    const r = c + Math.sqrt(radiusMm * radiusMm - (dx * dx + dy * dy - c * c));
    return { angleRad: ((angleRad % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI), radiusMm: r, shadowContrast: 0.8 };
  });
}

/** Echo bins of dark blood (20) out to `wallMm(line)` and bright wall (120) beyond, on each line. */
export function tissueFrom(wallMm: (line: number) => number): Uint8Array {
  const bins = new Uint8Array(LINE_COUNT * BIN_COUNT);
  for (let a = 0; a < LINE_COUNT; a++) {
    for (let b = 0; b < BIN_COUNT; b++) bins[a * BIN_COUNT + b] = MIN_MM + b * BIN_MM >= wallMm(a) ? 120 : 20;
  }
  return bins;
}

/** A frame of a stent of `radiusMm` with its wall on the struts (apposed), or `gapMm` beyond them over lines [from, to). */
export function stentReading(radiusMm: number, gap?: { from: number; to: number; gapMm: number }, phaseRad = 0): StentFrameReading {
  return {
    struts: strutsOnCircle(8, radiusMm, 0, 0, phaseRad),
    wall: tissueFrom((line) => radiusMm + (gap !== undefined && line >= gap.from && line < gap.to ? gap.gapMm : 0)),
  };
}

/** A native frame: no struts, the wall at `lumenMm`. */
export function nativeReading(lumenMm: number): StentFrameReading {
  return { struts: [], wall: tissueFrom(() => lumenMm) };
}
