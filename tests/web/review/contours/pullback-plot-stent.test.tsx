/** Issue 28: once the stent is read, the plot draws its area as a curve of its own, on the area axis. */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis } from '../../../../src/domain/contours/corrected-analysis.ts';
import { PullbackPlot, STENT_AREA_COLOR } from '../../../../src/web/review/contours/pullback-plot.tsx';
import { renderApp } from '../../render.tsx';
import { imageStoreFor } from '../playback/image-store-fixture.ts';
import { detectedContours } from './contours-fixture.ts';

const result = correctedAnalysis(detectedContours(60), emptyManifest(), { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 });

describe('the stent area on the plot', () => {
  it('is a curve of its own over the stented slices only, with what it is as its title', () => {
    const stentAreas = result.slices.map((_, i) => (i >= 20 && i < 40 ? 5 : null));
    renderApp(<PullbackPlot result={result} cursor={imageStoreFor({ bmodeCount: 60 })} width={600} height={200} assumedNote={null} stentAreas={stentAreas} />);
    const curve = screen.getByTestId('stent-area-curve');
    expect(curve.getAttribute('stroke')).toBe(STENT_AREA_COLOR);
    const d = curve.getAttribute('d')!;
    // One run of 20 points: it starts once and does not draw outside the stent.
    expect(d.match(/M/g)).toHaveLength(1);
    expect(d.match(/L/g)).toHaveLength(19);
    expect(curve.textContent).toContain('Stent area');
    // The stent's area of 5 mm² sits where a lumen area of 5 mm² would.
    const lumenY = Number(/,([\d.]+)/.exec(screen.getByTestId('lumen-area-curve').getAttribute('d')!)![1]);
    expect(Number.isFinite(lumenY)).toBe(true);
  });

  it('is not drawn before the stent is read', () => {
    renderApp(<PullbackPlot result={result} cursor={imageStoreFor({ bmodeCount: 60 })} width={600} height={200} assumedNote={null} />);
    expect(screen.queryByTestId('stent-area-curve')).toBeNull();
  });
});
