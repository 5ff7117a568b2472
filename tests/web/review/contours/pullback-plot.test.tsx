import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setManualContour } from '../../../../src/domain/annotations/contour-edits.ts';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { CONTOUR_COLOR, VESSEL_CONTOUR_COLOR } from '../../../../src/domain/constants.ts';
import { correctedAnalysis } from '../../../../src/domain/contours/corrected-analysis.ts';
import { PullbackPlot } from '../../../../src/web/review/contours/pullback-plot.tsx';
import { renderApp } from '../../render.tsx';
import { imageStoreFor } from '../playback/image-store-fixture.ts';
import { SliceCursor } from '../../../../src/web/review/frames/slice-cursor.ts';
import { circle, detectedContours } from './contours-fixture.ts';

const geometry = { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };

function renderPlot(manifest = emptyManifest()) {
  const result = correctedAnalysis(detectedContours(60, { 10: 0.2, 11: 0.4, 12: 0.1, 40: 0.3 }), manifest, geometry);
  const store = imageStoreFor({ bmodeCount: 60 });
  renderApp(<PullbackPlot result={result} cursor={store} width={600} height={200} assumedNote={null} />);
  return result;
}

describe('the pullback plot', () => {
  it('draws the plaque burden beside the lumen area, each in its border colour, with a legend', () => {
    renderPlot();
    const lumen = screen.getByTestId('lumen-area-curve');
    const burden = screen.getByTestId('plaque-burden-curve');
    expect(lumen.getAttribute('stroke')).toBe(CONTOUR_COLOR);
    expect(burden.getAttribute('stroke')).toBe(VESSEL_CONTOUR_COLOR);
    // One point per slice: a move, then 59 lines.
    expect(burden.getAttribute('d')!.match(/[ML]/g)).toHaveLength(60);
    expect(screen.getByTestId('plot-legend').textContent).toContain('Plaque burden (%, right)');
    expect(screen.getByText('100 %')).toBeTruthy();
  });

  it('shades the low-confidence slices as bands of consecutive slices', () => {
    renderPlot();
    const marks = screen.getByTestId('low-confidence-marks');
    expect(marks.dataset.count).toBe('4');
    const bands = [...marks.querySelectorAll('rect')].map((rect) => [rect.dataset.first, rect.dataset.last]);
    expect(bands).toEqual([
      ['10', '12'],
      ['40', '40'],
    ]);
  });

  it('names and marks the maximal plaque burden', () => {
    const result = renderPlot();
    const max = result.maxPlaqueBurden!;
    expect(screen.getByTestId('max-plaque-burden').textContent).toBe(
      `Max plaque burden ${(100 * max.plaqueBurden).toFixed(0)} % at slice ${max.index + 1} (${result.slices[max.index]!.positionMm.toFixed(1)} mm)`,
    );
    expect(screen.getByTestId('max-plaque-burden-flag').dataset.slice).toBe(String(max.index + 1));
  });

  it('breaks the plaque burden curve where corrected borders cross', () => {
    renderPlot(setManualContour(emptyManifest(), 30, circle(50), 'vessel'));
    const moves = screen.getByTestId('plaque-burden-curve').getAttribute('d')!.match(/M/g);
    expect(moves).toHaveLength(2);
  });

  it('goes to exactly the marker\'s slice when its label is clicked, wherever the label was pushed (issue 26)', () => {
    // 3,000 slices on a laptop-wide plot: two slices a pixel, so a label's width is dozens of slices.
    const result = correctedAnalysis(detectedContours(3000), emptyManifest(), geometry);
    const cursor = new SliceCursor(imageStoreFor({ bmodeCount: 3000 }));
    renderApp(<PullbackPlot result={result} cursor={cursor} width={1350} height={200} assumedNote={null} />);
    const plot = screen.getByTestId('pullback-plot');
    plot.getBoundingClientRect = () => ({ left: 0, top: 0, right: 1350, bottom: 200, width: 1350, height: 200, x: 0, y: 0, toJSON: () => ({}) });
    for (const testId of ['mla-flag', 'distal-reference', 'proximal-reference']) {
      const marker = screen.getByTestId(testId);
      const label = marker.querySelector('[data-testid="plot-marker-label"] rect')!;
      // The click lands on the label's right end, well off the marker's line.
      fireEvent.click(label, { clientX: Number(label.getAttribute('x')) + Number(label.getAttribute('width')) - 1, clientY: 10 });
      expect(cursor.getSnapshot().slice).toBe(Number(marker.dataset.slice));
    }
    expect(cursor.getSnapshot().slice).toBe(result.analysis.references.proximal!.index + 1);
  });

  it('lays the marker labels out on one row without overlap, even when the markers nearly coincide', () => {
    // 600 slices on 200 px of plot: the references, 10 mm (300 slices) round the MLA, are far apart; on 40 px they crowd.
    const result = correctedAnalysis(detectedContours(600), emptyManifest(), geometry);
    renderApp(<PullbackPlot result={result} cursor={imageStoreFor({ bmodeCount: 600 })} width={140} height={200} assumedNote={null} />);
    const spans = screen
      .getAllByTestId('plot-marker-label')
      .map((label) => label.querySelector('rect')!)
      .map((rect) => [Number(rect.getAttribute('x')), Number(rect.getAttribute('x')) + Number(rect.getAttribute('width'))] as const)
      .sort((a, b) => a[0] - b[0]);
    expect(spans).toHaveLength(3);
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1]);
  });

  it('draws at the height it is given', () => {
    renderApp(
      <PullbackPlot result={correctedAnalysis(detectedContours(60), emptyManifest(), geometry)} cursor={imageStoreFor({ bmodeCount: 60 })} width={600} height={320} assumedNote={null} />,
    );
    expect(screen.getByTestId('pullback-plot').getAttribute('height')).toBe('320');
  });
});
