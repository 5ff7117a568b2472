/**
 * Issue 28: the stent's results: segment, MSA, expansion against both references, edge plaque
 * burden, malapposed regions, flags; each says how it is computed and goes to its frame.
 */
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { detectStent, stentFigures } from '../../../../src/domain/stent/stent-analysis.ts';
import { STENT_FIGURE_HELP, stentResults } from '../../../../src/domain/stent/stent-results.ts';
import { SliceCursor } from '../../../../src/web/review/frames/slice-cursor.ts';
import { StentResultsBlock } from '../../../../src/web/review/stent/stent-results-block.tsx';
import { renderApp } from '../../render.tsx';
import { imageStoreFor } from '../playback/image-store-fixture.ts';
import { nativeReading, stentReading } from '../../../domain/stent/stent-fixtures.ts';

/** 60 frames at 10 frames/mm: a stent on frames 20-39, malapposed over 60° on frames 30-35; 55 % plaque burden at frame 17. */
const readings = Array.from({ length: 60 }, (_, f) =>
  f >= 20 && f < 40 ? stentReading(1.6, f >= 30 && f <= 35 ? { from: 200, to: 260, gapMm: 0.7 } : undefined, 0.2 * f) : nativeReading(1.7),
);
const lumen = readings.map((_, f) => (f === 5 ? 9 : 8));
const vessel = readings.map((_, f) => (f === 17 ? 8 / 0.45 : 12));

function renderBlock(withBorders = true) {
  const detection = detectStent(readings, 10);
  const results = stentResults(detection);
  const figures = stentFigures(detection, withBorders ? { frameCount: 60, framesPerMm: 10, lumenAreasMm2: lumen, vesselAreasMm2: vessel } : { frameCount: 60, framesPerMm: 10 });
  const cursor = new SliceCursor(imageStoreFor({ bmodeCount: 60 }));
  renderApp(<StentResultsBlock results={results} figures={figures} cursor={cursor} manualSlices={withBorders ? [18] : []} />);
  return { results, figures, cursor };
}

describe('the stent results block', () => {
  it('shows the segment, MSA, expansion with both references, edge burden and malapposition, each with how it is computed', () => {
    const { results } = renderBlock();
    expect(screen.getByTestId('stent-segment').textContent).toContain('distal edge slice 21 · proximal edge slice 40');
    expect(screen.getByTestId('stent-msa-value').textContent).toBe(`${results.msa!.areaMm2.toFixed(2)} mm²`);
    expect(screen.getByTestId('stent-expansion').textContent).toContain('distal reference 9.00 mm² · slice 6');
    expect(screen.getByTestId('stent-expansion').getAttribute('title')).toBe(STENT_FIGURE_HELP.expansion);
    expect(screen.getByTestId('stent-edge-distal-value').textContent).toBe('55 %');
    expect(screen.getByTestId('stent-edge-distal').textContent).toContain('borders corrected by hand: slices 18');
    expect(screen.getByTestId('stent-malapposition-1').textContent).toContain('slices 31–36');
    expect(screen.getByTestId('stent-flag-edge-burden-distal').textContent).toContain('within 5 mm of the distal edge');
    expect(screen.getByTestId('stent-flag-malapposition')).toBeTruthy();
  });

  it('goes to the MSA frame and to a malapposed region from their buttons', () => {
    const { results, cursor } = renderBlock();
    fireEvent.click(screen.getByRole('button', { name: /^MSA/ }));
    expect(cursor.getSnapshot().slice).toBe(results.msa!.slice);
    fireEvent.click(screen.getByRole('button', { name: /^Malapposition 1/ }));
    expect(cursor.getSnapshot().slice).toBe(results.malapposition[0]!.maxArcSlice);
  });

  it('says "not measurable" where the borders are missing, and flags nothing it could not measure', () => {
    renderBlock(false);
    expect(screen.getByTestId('stent-expansion-value').textContent).toBe('not measurable');
    expect(screen.getByTestId('stent-edge-proximal-value').textContent).toBe('not measurable');
    expect(screen.queryByTestId('stent-flag-expansion-below-80-mean')).toBeNull();
  });
});
