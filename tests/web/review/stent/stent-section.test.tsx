/**
 * Issue 28: from the pullback drawer, one button reads the stent from the loaded frames and shows
 * its results; frames not loaded are not read.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis } from '../../../../src/domain/contours/corrected-analysis.ts';
import { createBmodeRenderer } from '../../../../src/domain/synthetic/bmode-frame.ts';
import { stentCase } from '../../../../src/domain/synthetic/stent-cases.ts';
import { truthStentFrames } from '../../../../src/domain/synthetic/stent-truth.ts';
import { SliceCursor } from '../../../../src/web/review/frames/slice-cursor.ts';
import { StentSection } from '../../../../src/web/review/stent/stent-section.tsx';
import { renderApp } from '../../render.tsx';
import { imageStoreFor } from '../playback/image-store-fixture.ts';
import { detectedContours } from '../contours/contours-fixture.ts';

/** A stented pullback of the generator, one slice every 0.2 mm from 1.6 mm before the stent to 1.6 mm after it. */
function stentedSlices() {
  const model = stentCase(1104).model;
  const span = truthStentFrames(model)!;
  const stride = 12;
  const first = span.first - 8 * stride;
  const count = Math.ceil((span.last + 8 * stride - first) / stride);
  const renderer = createBmodeRenderer(model);
  const frameAt = (slice: number) => {
    if (slice === 3) return null; // not loaded yet
    const frame = first + (slice - 1) * stride;
    return frame < model.frameCount ? { width: model.frameSizePx, height: model.frameSizePx, pixels: renderer.renderFrame(frame) } : null;
  };
  return { model, count, frameAt, framesPerMm: 60 / stride, edges: { distal: Math.round((span.first - first) / stride) + 1, proximal: Math.round((span.last - first) / stride) + 1 } };
}

describe('the stent section', () => {
  it('reads the stent when asked and shows its edges and MSA', async () => {
    const { model, count, frameAt, framesPerMm, edges } = stentedSlices();
    const result = correctedAnalysis(detectedContours(count), emptyManifest(), { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 });
    const cursor = new SliceCursor(imageStoreFor({ bmodeCount: count }));
    const told: unknown[] = [];
    renderApp(<StentSection result={result} cursor={cursor} frameAt={frameAt} pixelSpacingMm={model.pixelSpacingMm} framesPerMm={framesPerMm} onResults={(s) => told.push(s)} />);
    expect(screen.queryByTestId('stent-results')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Stent analysis' }));
    const segment = await screen.findByTestId('stent-segment', {}, { timeout: 60_000 });
    const distal = Number(/distal edge slice (\d+)/.exec(segment.textContent ?? '')![1]);
    const proximal = Number(/proximal edge slice (\d+)/.exec(segment.textContent ?? '')![1]);
    expect(Math.abs(distal - edges.distal)).toBeLessThanOrEqual(1);
    expect(Math.abs(proximal - edges.proximal)).toBeLessThanOrEqual(1);
    expect(screen.getByTestId('stent-msa-value').textContent).toMatch(/^\d+\.\d\d mm²$/);
    expect(screen.getByRole('button', { name: 'Read the stent again' })).toBeTruthy();
    // The plot and the CSV are told the results (the stent area by slice, the figures): by an effect
    // after the render that shows them, which the query above can see first on a loaded machine.
    await waitFor(() => expect(told.at(-1)).toMatchObject({ results: { segment: { distalSlice: distal, proximalSlice: proximal } } }));
  }, 90_000);
});
