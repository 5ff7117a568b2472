/**
 * Issue 28: the stent's distal and proximal references on the plot, moved by hand (dragged along
 * the plot, or with the arrow keys once focused): expansion and the flags follow, the moved
 * reference is named as moved in the results block and its tooltip, and it can be put back.
 */
import { act, fireEvent, screen } from '@testing-library/react';
import { useMemo } from 'react';
import { describe, expect, it } from 'vitest';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis } from '../../../../src/domain/contours/corrected-analysis.ts';
import { detectStent, type BorderAreas } from '../../../../src/domain/stent/stent-analysis.ts';
import { stentResults } from '../../../../src/domain/stent/stent-results.ts';
import { PLOT_MARGIN, PullbackPlot } from '../../../../src/web/review/contours/pullback-plot.tsx';
import { stentMarkers } from '../../../../src/web/review/contours/stent-markers.ts';
import { SliceCursor } from '../../../../src/web/review/frames/slice-cursor.ts';
import { StentResultsBlock } from '../../../../src/web/review/stent/stent-results-block.tsx';
import { useStentReferences } from '../../../../src/web/review/stent/use-stent-references.ts';
import { renderApp } from '../../render.tsx';
import { imageStoreFor } from '../playback/image-store-fixture.ts';
import { detectedContours } from '../contours/contours-fixture.ts';
import { nativeReading, stentReading } from '../../../domain/stent/stent-fixtures.ts';

/** 60 frames at 10 frames/mm: a stent of radius 1.6 mm on frames 20-39, narrowed on frames 28-32. */
const readings = Array.from({ length: 60 }, (_, f) => (f >= 20 && f < 40 ? stentReading(f >= 28 && f <= 32 ? 1.3 : 1.6, undefined, 0.2 * f) : nativeReading(1.7)));
const detection = detectStent(readings, 10);
/** The lumen grows away from the stent on both sides: the further a reference, the larger it is. */
const lumen = readings.map((_, f) => (f < 20 ? 6 + 0.2 * (20 - f) : f >= 40 ? 6 + 0.2 * (f - 39) : 8));
const areas: BorderAreas = { frameCount: 60, framesPerMm: 10, lumenAreasMm2: lumen, vesselAreasMm2: lumen.map((a) => 2 * a), referenceFrames: { distal: 15, proximal: 45 } };
const plotResult = correctedAnalysis(detectedContours(60), emptyManifest(), { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 });
const WIDTH = 600;

function Review({ cursor }: { cursor: SliceCursor }) {
  const { figures, moveReference, stepReference, resetReference } = useStentReferences(detection, areas);
  const results = useMemo(() => stentResults(detection), []);
  const stent = { results, figures: figures!, manualSlices: [], moveReference, stepReference, resetReference };
  return (
    <>
      <PullbackPlot result={plotResult} cursor={cursor} width={WIDTH} height={200} assumedNote={null} extraMarkers={stentMarkers(stent, 60)} />
      <StentResultsBlock results={results} figures={figures} cursor={cursor} manualSlices={[]} onResetReference={resetReference} />
    </>
  );
}

function renderReview() {
  renderApp(<Review cursor={new SliceCursor(imageStoreFor({ bmodeCount: 60 }))} />);
}

const expansion = () => screen.getByTestId('stent-expansion-value').textContent;
const marker = (side: 'distal' | 'proximal') => screen.getByTestId(`stent-${side}-reference-marker`);
const label = (side: 'distal' | 'proximal') => marker(side).querySelector('[data-testid="plot-marker-label"]')!.textContent;

describe('the stent references on the plot', () => {
  it('shows both references at the analysis’s frames as sliders kept beyond their edges', () => {
    renderReview();
    expect(marker('distal').getAttribute('role')).toBe('slider');
    expect(marker('distal').getAttribute('aria-valuenow')).toBe('16');
    expect(marker('distal').getAttribute('aria-valuemax')).toBe(String(detection.segment!.distalFrame));
    expect(marker('proximal').getAttribute('aria-valuenow')).toBe('46');
    expect(marker('proximal').getAttribute('aria-valuemin')).toBe(String(detection.segment!.proximalFrame + 2));
    expect(label('distal')).toBe('Stent D ref');
    expect(marker('distal').querySelector('title')!.textContent).toContain('taken by default');
    expect(screen.queryByTestId('stent-reset-distal-reference')).toBeNull();
  });

  it('moves a reference with the arrow keys; expansion follows and the reference is named as moved by hand', () => {
    renderReview();
    const before = expansion();
    fireEvent.keyDown(marker('distal'), { key: 'ArrowLeft', shiftKey: true });
    expect(marker('distal').getAttribute('aria-valuenow')).toBe('6');
    expect(label('distal')).toBe('Stent D ref moved');
    expect(marker('distal').querySelector('title')!.textContent).toContain('distal reference moved by hand to slice 6');
    expect(screen.getByTestId('stent-expansion').textContent).toContain('distal reference moved by hand to slice 6');
    expect(screen.getByTestId('stent-msa-marker').querySelector('title')!.textContent).toContain('The distal reference moved by hand to slice 6.');
    // A larger distal reference: a smaller expansion.
    expect(parseInt(expansion()!)).toBeLessThan(parseInt(before!));
    // End: the last slice before the distal edge.
    fireEvent.keyDown(marker('distal'), { key: 'End' });
    expect(marker('distal').getAttribute('aria-valuenow')).toBe(String(detection.segment!.distalFrame));
    fireEvent.click(screen.getByTestId('stent-reset-distal-reference'));
    expect(marker('distal').getAttribute('aria-valuenow')).toBe('16');
    expect(expansion()).toBe(before);
  });

  it('drags a reference along the plot, and never into the stent', () => {
    renderReview();
    const plotWidth = WIDTH - PLOT_MARGIN.left - PLOT_MARGIN.right;
    const xOf = (slice: number) => PLOT_MARGIN.left + ((slice - 1) / 59) * plotWidth;
    const proximal = marker('proximal');
    act(() => {
      fireEvent.pointerDown(proximal, { pointerId: 1, button: 0, clientX: xOf(46) });
      fireEvent.pointerMove(proximal, { pointerId: 1, clientX: xOf(55) });
    });
    expect(marker('proximal').getAttribute('aria-valuenow')).toBe('55');
    // Dragged into the stent: it stops at the first slice beyond the proximal edge.
    act(() => {
      fireEvent.pointerMove(proximal, { pointerId: 1, clientX: xOf(30) });
      fireEvent.pointerUp(proximal, { pointerId: 1, clientX: xOf(30) });
    });
    expect(marker('proximal').getAttribute('aria-valuenow')).toBe(String(detection.segment!.proximalFrame + 2));
    expect(screen.getByTestId('stent-expansion').textContent).toContain(`proximal reference moved by hand to slice ${detection.segment!.proximalFrame + 2}`);
    // Once the pointer is up, moving over the marker moves nothing.
    fireEvent.pointerMove(proximal, { pointerId: 1, clientX: xOf(58) });
    expect(marker('proximal').getAttribute('aria-valuenow')).toBe(String(detection.segment!.proximalFrame + 2));
  });
});
