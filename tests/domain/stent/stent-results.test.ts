import { describe, expect, it } from 'vitest';
import { detectStent, stentFigures } from '../../../src/domain/stent/stent-analysis.ts';
import { STENT_FIGURE_HELP, StentResultsSchema, stentCsvSection, stentResults } from '../../../src/domain/stent/stent-results.ts';
import { nativeReading, stentReading } from './stent-fixtures.ts';

/** 60 frames at 10 frames/mm: a 1.6 mm stent on frames 20-39, malapposed over 60° on frames 30-35. */
const readings = Array.from({ length: 60 }, (_, f) =>
  f >= 20 && f < 40 ? stentReading(1.6, f >= 30 && f <= 35 ? { from: 200, to: 260, gapMm: 0.7 } : undefined, 0.2 * f) : nativeReading(1.7),
);
const lumen = readings.map((_, f) => (f === 5 ? 9 : f === 50 ? 9.5 : 8));
const vessel = readings.map((_, f) => (f === 17 ? 16 : 12));

describe('stent results on the wire and in the CSV', () => {
  const detection = detectStent(readings, 10);
  const results = stentResults(detection);

  it('numbers slices from 1, as the review does, and passes its own schema', () => {
    expect(StentResultsSchema.parse(results)).toEqual(results);
    expect(results.segment).toEqual({ distalSlice: 21, proximalSlice: 40, lengthMm: 1.9 });
    expect(results.slices).toHaveLength(20);
    expect(results.slices[0]!.slice).toBe(21);
    expect(results.malapposition).toEqual([expect.objectContaining({ firstSlice: 31, lastSlice: 36 })]);
  });

  it('writes every figure with its unit and slice, what was not measurable as such, and the slices corrected by hand', () => {
    const figures = stentFigures(detection, { frameCount: 60, framesPerMm: 10, lumenAreasMm2: lumen, vesselAreasMm2: vessel });
    const csv = stentCsvSection(results, figures, [18, 22]);
    expect(csv).toContain('Stent distal edge,,,21\n');
    expect(csv).toMatch(/MSA,8\.0\d,mm2,\d+\n/);
    expect(csv).toContain('Distal reference lumen area,9.00,mm2,6\n');
    expect(csv).toContain('Max plaque burden within 5 mm of the distal edge,50,%,18\n');
    expect(csv).toContain('Malapposition 1 length,0.6,mm,31-36\n');
    expect(csv).toContain('Flag,"Plaque burden of 50 % or more within 5 mm of the distal edge"');
    expect(csv).toContain('Borders corrected by hand,"18 22"');
    const withoutBorders = stentCsvSection(results, stentFigures(detection, { frameCount: 60, framesPerMm: 10 }), []);
    expect(withoutBorders).toContain('Expansion (MSA / mean reference),not measurable,%,\n');
  });

  it('says how each figure is computed', () => {
    expect(STENT_FIGURE_HELP.expansion).toContain('under 80 %');
    expect(STENT_FIGURE_HELP.malapposition).toContain('0.4 mm');
    expect(STENT_FIGURE_HELP.edgeBurden).toContain('5 mm');
  });

  it('says so when the pullback has no stent', () => {
    const none = stentResults(detectStent(readings.map(() => nativeReading(1.7)), 10));
    expect(none.segment).toBeNull();
    expect(stentCsvSection(none, stentFigures(detectStent([], 10), { frameCount: 0, framesPerMm: 10 }), [])).toContain('Stent,none detected');
  });
});
