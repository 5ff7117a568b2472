import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { setManualContour } from '../../../../src/domain/annotations/contour-edits.ts';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { CONTOUR_COLOR, VESSEL_CONTOUR_COLOR } from '../../../../src/domain/constants.ts';
import { correctedAnalysis } from '../../../../src/domain/contours/corrected-analysis.ts';
import { PullbackPlot } from '../../../../src/web/review/contours/pullback-plot.tsx';
import { renderApp } from '../../render.tsx';
import { imageStoreFor } from '../playback/image-store-fixture.ts';
import { circle, detectedContours } from './contours-fixture.ts';

const geometry = { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };

function renderPlot(manifest = emptyManifest()) {
  const result = correctedAnalysis(detectedContours(60, { 10: 0.2, 11: 0.4, 12: 0.1, 40: 0.3 }), manifest, geometry);
  const store = imageStoreFor({ bmodeCount: 60 });
  renderApp(<PullbackPlot result={result} cursor={store} width={600} assumedNote={null} onExportCsv={vi.fn()} onExportPdf={vi.fn()} />);
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
});
