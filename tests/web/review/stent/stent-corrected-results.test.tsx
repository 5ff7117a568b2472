/**
 * Issue 28: once a stent border is corrected by hand, the stent's results say so where the clinician
 * reads them: the MSA (now on the drawn border) names the corrected slices, its tooltip and the
 * expansion's say how the drawn border is measured, and so does the MSA marker on the plot.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { correctedStentDetection } from '../../../../src/domain/stent/corrected-stent.ts';
import { stentFigures } from '../../../../src/domain/stent/stent-analysis.ts';
import { STENT_FIGURE_HELP, stentResults } from '../../../../src/domain/stent/stent-results.ts';
import { stentMarkers } from '../../../../src/web/review/contours/stent-markers.ts';
import { SliceCursor } from '../../../../src/web/review/frames/slice-cursor.ts';
import { StentResultsBlock } from '../../../../src/web/review/stent/stent-results-block.tsx';
import { renderApp } from '../../render.tsx';
import { imageStoreFor } from '../playback/image-store-fixture.ts';
import { nativeReading, stentReading } from '../../../domain/stent/stent-fixtures.ts';

const readings = Array.from({ length: 60 }, (_, f) => (f >= 20 && f < 40 ? stentReading(1.6, undefined, 0.2 * f) : nativeReading(1.7)));
const drawn = (radiusMm: number) => Array.from({ length: 16 }, (_, i) => ({ x: 256 + (radiusMm / 0.01) * Math.cos(i / 2.55), y: 256 + (radiusMm / 0.01) * Math.sin(i / 2.55) }));
const GEOMETRY = { centreX: 256, centreY: 256, pixelSpacingMm: 0.01 };
const areas = { frameCount: 60, framesPerMm: 10, lumenAreasMm2: readings.map(() => 9), vesselAreasMm2: readings.map(() => 14) };

function shown(corrections: { frame: number; controlPoints: { x: number; y: number }[] }[]) {
  const detection = correctedStentDetection(readings, 10, corrections, GEOMETRY);
  return { results: stentResults(detection), figures: stentFigures(detection, areas), manualSlices: [] as number[] };
}

describe('the stent results with borders corrected by hand', () => {
  it('name the corrected slices at the MSA, which reads the drawn border, and say how in the tooltips', () => {
    const stent = shown([24, 30].map((frame) => ({ frame, controlPoints: drawn(frame === 24 ? 1.2 : 1.5) })));
    renderApp(<StentResultsBlock {...stent} cursor={new SliceCursor(imageStoreFor({ bmodeCount: 60 }))} />);
    expect(screen.getByTestId('stent-msa').textContent).toContain('slice 25');
    expect(screen.getByTestId('stent-msa').textContent).toContain('stent border corrected by hand: slices 25, 31');
    const said = 'Stent border corrected by hand on slices 25, 31: the stent area there is the drawn one.';
    expect(screen.getByTestId('stent-msa').getAttribute('title')).toBe(`${STENT_FIGURE_HELP.msa} ${said}`);
    expect(screen.getByTestId('stent-expansion').getAttribute('title')).toContain(said);
    expect(stentMarkers(stent).find((m) => m.testId === 'stent-msa-marker')!.title).toContain(said);
  });

  it('say nothing of corrections where there are none', () => {
    const stent = shown([]);
    renderApp(<StentResultsBlock {...stent} cursor={new SliceCursor(imageStoreFor({ bmodeCount: 60 }))} />);
    expect(screen.getByTestId('stent-msa').textContent).not.toContain('corrected');
    expect(screen.getByTestId('stent-msa').getAttribute('title')).toBe(STENT_FIGURE_HELP.msa);
    expect(stentMarkers(stent).find((m) => m.testId === 'stent-msa-marker')!.title).not.toContain('Stent border corrected');
  });
});
