/**
 * Issue 28: the stent's distal and proximal edges and its MSA as markers on the pullback plot, laid
 * out with the MLA and reference markers without overlap, each going to its frame, the expansion
 * flag on the MSA label and in its tooltip.
 */
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis } from '../../../../src/domain/contours/corrected-analysis.ts';
import { detectStent, stentFigures } from '../../../../src/domain/stent/stent-analysis.ts';
import { STENT_FLAG_TEXT, stentResults } from '../../../../src/domain/stent/stent-results.ts';
import { PullbackPlot } from '../../../../src/web/review/contours/pullback-plot.tsx';
import { SliceCursor } from '../../../../src/web/review/frames/slice-cursor.ts';
import { STENT_UNDEREXPANDED_COLOR, stentMarkers } from '../../../../src/web/review/contours/stent-markers.ts';
import type { ShownStent } from '../../../../src/web/review/stent/stent-section.tsx';
import { renderApp } from '../../render.tsx';
import { imageStoreFor } from '../playback/image-store-fixture.ts';
import { detectedContours } from './contours-fixture.ts';
import { nativeReading, stentReading } from '../../../domain/stent/stent-fixtures.ts';

/** 60 frames at 10 frames/mm: a stent of radius 1.6 mm (about 8 mm²) on frames 20-39, narrowed on frames 28-32. */
const readings = Array.from({ length: 60 }, (_, f) => (f >= 20 && f < 40 ? stentReading(f >= 28 && f <= 32 ? 1.3 : 1.6, undefined, 0.2 * f) : nativeReading(1.7)));
const detection = detectStent(readings, 10);

/** The stent's results as the section shows them, with every reference lumen of `lumenMm2`. */
function shown(lumenMm2: number, manualSlices: number[] = []): ShownStent {
  const figures = stentFigures(detection, { frameCount: 60, framesPerMm: 10, lumenAreasMm2: readings.map(() => lumenMm2), vesselAreasMm2: readings.map(() => 2 * lumenMm2) });
  return { results: stentResults(detection), figures, manualSlices };
}

const plotResult = correctedAnalysis(detectedContours(60), emptyManifest(), { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 });

function renderPlot(stent: ShownStent, width = 600) {
  const cursor = new SliceCursor(imageStoreFor({ bmodeCount: 60 }));
  renderApp(<PullbackPlot result={plotResult} cursor={cursor} width={width} height={200} assumedNote={null} extraMarkers={stentMarkers(stent)} />);
  return cursor;
}

describe('the stent markers on the plot', () => {
  it('marks the distal edge, the MSA and the proximal edge at their slices, each a button to its frame', () => {
    const stent = shown(8);
    const cursor = renderPlot(stent);
    const { segment, msa } = stent.results;
    expect(segment).not.toBeNull();
    expect(msa).not.toBeNull();
    const cases = [
      ['stent-distal-edge-marker', segment!.distalSlice],
      ['stent-msa-marker', msa!.slice],
      ['stent-proximal-edge-marker', segment!.proximalSlice],
    ] as const;
    for (const [testId, slice] of cases) {
      const marker = screen.getByTestId(testId);
      expect(marker.getAttribute('role')).toBe('button');
      expect(Number(marker.dataset.slice)).toBe(slice);
      fireEvent.click(marker.querySelector('rect')!);
      expect(cursor.getSnapshot().slice).toBe(slice);
    }
    expect(msa!.slice).toBeGreaterThanOrEqual(29);
    expect(msa!.slice).toBeLessThanOrEqual(33);
    expect(screen.getByTestId('stent-distal-edge-marker').textContent).toContain('Stent D');
  });

  it('flags an under-expanded stent on the MSA label itself and says why in its tooltip', () => {
    // MSA about 5.3 mm² against references of 12 mm²: well under 80 % of the mean and 90 % of the distal.
    renderPlot(shown(12, [18]));
    const marker = screen.getByTestId('stent-msa-marker');
    expect(marker.textContent).toMatch(/MSA \d+ % ⚠/);
    expect(marker.querySelector('rect')!.getAttribute('fill')).toBe(STENT_UNDEREXPANDED_COLOR);
    const title = marker.querySelector('title')!.textContent!;
    expect(title).toContain(STENT_FLAG_TEXT['expansion-below-80-mean']);
    expect(title).toContain(STENT_FLAG_TEXT['expansion-below-90-distal']);
    expect(title).toContain('corrected by hand on slices 18');
    expect(marker.getAttribute('aria-label')).toContain('Under-expanded');
  });

  it('does not flag a well-expanded stent', () => {
    renderPlot(shown(5));
    const marker = screen.getByTestId('stent-msa-marker');
    expect(marker.textContent).not.toContain('⚠');
    expect(marker.querySelector('title')!.textContent).toContain('Expansion not flagged.');
  });

  it('lays its labels out with the MLA and reference labels without overlap on a narrow plot', () => {
    renderPlot(shown(8), 160);
    const spans = screen
      .getAllByTestId('plot-marker-label')
      .map((label) => label.querySelector('rect')!)
      .map((rect) => [Number(rect.getAttribute('x')), Number(rect.getAttribute('x')) + Number(rect.getAttribute('width'))] as const)
      .sort((a, b) => a[0] - b[0]);
    expect(spans.length).toBeGreaterThanOrEqual(5);
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1]);
  });

  it('gives no marker when no stent was found', () => {
    const none = detectStent(readings.map(() => nativeReading(1.7)), 10);
    expect(stentMarkers({ results: stentResults(none), figures: stentFigures(none, { frameCount: 60, framesPerMm: 10 }), manualSlices: [] })).toEqual([]);
  });
});
