/**
 * The stent's references moved by hand (issue 28): expansion follows the moved reference, a moved
 * reference stays beyond its edge and on a measured frame, and the figures name it as moved.
 */
import { describe, expect, it } from 'vitest';
import type { StentDetection } from '../../../src/domain/stent/stent-analysis.ts';
import { stentReportSection } from '../../../src/domain/stent/stent-report.ts';
import { stentCsvSection, stentResults } from '../../../src/domain/stent/stent-results.ts';
import {
  figuresWithReferences,
  movedReferenceText,
  NO_MOVED_REFERENCES,
  referenceFrameNear,
  referenceRange,
  steppedReferenceFrame,
} from '../../../src/domain/stent/stent-references.ts';

// 40 frames, the stent over frames 15..24, MSA 6 mm² at frame 20.
const segment = { distalFrame: 15, proximalFrame: 24, lengthMm: 2 };
const detection: StentDetection = { segment, frames: [], msa: { frame: 20, areaMm2: 6 }, malapposition: [] };
const lumen: number[] = Array.from({ length: 40 }, (_, f) => (f < 15 ? 10 : f > 24 ? 8 : 6));
lumen[5] = NaN; // no lumen border there
const areas = { frameCount: 40, framesPerMm: 5, lumenAreasMm2: lumen, referenceFrames: { distal: 10, proximal: 30 } };

describe('stent references moved by hand', () => {
  it('keeps the defaults and names nothing as moved until the clinician moves one', () => {
    const figures = figuresWithReferences(detection, areas, NO_MOVED_REFERENCES);
    expect(figures.references.distal?.frame).toBe(10);
    expect(figures.movedReferences).toEqual([]);
    expect(figures.expansionMean).toBeCloseTo(6 / 9);
  });

  it('recomputes expansion and the flags from the moved reference, and names it', () => {
    lumen[8] = 12;
    try {
      const before = figuresWithReferences(detection, areas, NO_MOVED_REFERENCES);
      expect(before.flags).toContain('expansion-below-80-mean');
      expect(before.expansionDistal).toBeCloseTo(0.6);
      const moved = figuresWithReferences(detection, { ...areas, lumenAreasMm2: lumen.map((a, f) => (f === 8 ? 7 : a)) }, { distal: 8, proximal: null });
      expect(moved.references.distal).toEqual({ frame: 8, areaMm2: 7 });
      expect(moved.expansionDistal).toBeCloseTo(6 / 7);
      expect(moved.expansionMean).toBeCloseTo(6 / 7.5);
      expect(moved.flags).not.toContain('expansion-below-80-mean');
      expect(moved.movedReferences).toEqual(['distal']);
    } finally {
      lumen[8] = 10;
    }
  });

  it('keeps a moved reference beyond its edge and on a frame with a lumen area', () => {
    expect(referenceRange('distal', segment, 40)).toEqual({ first: 0, last: 14 });
    expect(referenceRange('proximal', segment, 40)).toEqual({ first: 25, last: 39 });
    expect(referenceRange('proximal', { ...segment, proximalFrame: 39 }, 40)).toBeNull();
    // Dragged into the stent: it stops at the last frame before the edge.
    expect(referenceFrameNear('distal', 20, segment, areas)).toBe(14);
    expect(referenceFrameNear('proximal', 2, segment, areas)).toBe(25);
    // Onto a frame without a lumen border: the nearest measured one, the one towards the stent first.
    expect(referenceFrameNear('distal', 5, segment, areas)).toBe(6);
    const figures = figuresWithReferences(detection, areas, { distal: 30, proximal: 12 });
    expect(figures.references.distal?.frame).toBe(14);
    expect(figures.references.proximal?.frame).toBe(25);
    expect(figures.movedReferences).toEqual(['distal', 'proximal']);
  });

  it('steps by key over frames without a lumen area and stops at the ends of its side', () => {
    expect(steppedReferenceFrame('distal', 6, -1, segment, areas)).toBe(4);
    expect(steppedReferenceFrame('distal', 14, 1, segment, areas)).toBe(14);
    expect(steppedReferenceFrame('distal', 10, 10, segment, areas)).toBe(14);
    expect(steppedReferenceFrame('proximal', 30, -10, segment, areas)).toBe(25);
    expect(steppedReferenceFrame('proximal', 30, 1, segment, areas)).toBe(31);
  });

  it('says which reference was moved, and to which slice', () => {
    expect(movedReferenceText('proximal', 29)).toBe('proximal reference moved by hand to slice 30');
  });

  it('names the moved reference in the CSV and the PDF section, and only the moved one', () => {
    const figures = figuresWithReferences(detection, areas, { distal: null, proximal: 33 });
    const csv = stentCsvSection(stentResults(detection), figures, []);
    expect(csv).toContain('Stent reference moved by hand,"proximal reference moved by hand to slice 34",,34');
    expect(csv).not.toContain('distal reference moved');
    const pdf = stentReportSection(stentResults(detection), figures, []).lines.join(' ');
    expect(pdf).toContain('proximal reference moved by hand to slice 34, 8.00 mm²');
    expect(pdf).toContain('distal reference 10.00 mm² at slice 11');
    const untouched = stentCsvSection(stentResults(detection), figuresWithReferences(detection, areas, NO_MOVED_REFERENCES), []);
    expect(untouched).not.toContain('moved by hand');
  });
});
