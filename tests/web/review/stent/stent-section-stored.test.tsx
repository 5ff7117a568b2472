/**
 * Issue 28: a stent the server read with the borders is shown at once, without reading the frames
 * (no frame is asked for); where the server found none, the button still reads the loaded frames.
 * Issue 23: while the server still reads it (the borders came first), the section says so and shows
 * nothing of a stent, then the stent once it comes.
 */
import { act, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis } from '../../../../src/domain/contours/corrected-analysis.ts';
import type { StentResults } from '../../../../src/domain/stent/stent-results.ts';
import { SliceCursor } from '../../../../src/web/review/frames/slice-cursor.ts';
import { StentSection } from '../../../../src/web/review/stent/stent-section.tsx';
import { renderApp } from '../../render.tsx';
import { imageStoreFor } from '../playback/image-store-fixture.ts';
import { detectedContours } from '../contours/contours-fixture.ts';

const COUNT = 60;
const STORED: StentResults = {
  segment: { distalSlice: 11, proximalSlice: 50, lengthMm: 7.8 },
  slices: Array.from({ length: 40 }, (_, k) => ({ slice: 11 + k, border: [1.4 - (k === 20 ? 0.1 : 0), 0, 0, 0, 0], areaMm2: Math.PI * (1.4 - (k === 20 ? 0.1 : 0)) ** 2 })),
  msa: { slice: 31, areaMm2: Math.round(Math.PI * 1.3 * 1.3 * 1000) / 1000 },
  malapposition: [{ firstSlice: 40, lastSlice: 44, lengthMm: 1, maxArcDeg: 75, maxArcSlice: 42 }],
};

describe('the stent section with the server’s stent', () => {
  const result = correctedAnalysis(detectedContours(COUNT), emptyManifest(), { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 });

  it('shows the stored stent without reading a frame, and tells the plot and exports', () => {
    const cursor = new SliceCursor(imageStoreFor({ bmodeCount: COUNT }));
    const asked: number[] = [];
    const told: unknown[] = [];
    const frameAt = (slice: number) => {
      asked.push(slice);
      return null;
    };
    renderApp(<StentSection result={result} stored={STORED} cursor={cursor} frameAt={frameAt} pixelSpacingMm={0.02} framesPerMm={5} onResults={(s) => told.push(s)} />);
    expect(screen.getByTestId('stent-segment').textContent).toContain('distal edge slice 11');
    expect(screen.getByTestId('stent-msa-value').textContent).toBe('5.31 mm²');
    expect(screen.getByRole('button', { name: 'Read the stent again' })).toBeTruthy();
    expect(asked).toEqual([]);
    expect(told.at(-1)).toMatchObject({ results: STORED, figures: { flags: expect.arrayContaining(['malapposition']) } });
  });

  it('offers the reading from the frames where the server found no stent', () => {
    const cursor = new SliceCursor(imageStoreFor({ bmodeCount: COUNT }));
    renderApp(<StentSection result={result} stored={{ segment: null, slices: [], msa: null, malapposition: [] }} cursor={cursor} frameAt={() => null} pixelSpacingMm={0.02} framesPerMm={5} />);
    expect(screen.queryByTestId('stent-segment')).toBeNull();
    expect(screen.getByRole('button', { name: 'Stent analysis' })).toBeTruthy();
  });

  it('says the stent is being read while the server reads it, with no figure, no "no stent" and nothing told, then shows it when it comes', () => {
    const cursor = new SliceCursor(imageStoreFor({ bmodeCount: COUNT }));
    const asked: number[] = [];
    const told: unknown[] = [];
    const frameAt = (slice: number) => (asked.push(slice), null);
    // The stent comes with a later answer of the contours' poll.
    let stentIn: () => void = () => {};
    function Polled() {
      const [stored, setStored] = useState<StentResults | undefined>(undefined);
      stentIn = () => setStored(STORED);
      return <StentSection result={result} stored={stored} pending={stored === undefined} cursor={cursor} frameAt={frameAt} pixelSpacingMm={0.02} framesPerMm={5} onResults={(s) => told.push(s)} />;
    }
    renderApp(<Polled />);
    expect(screen.getByTestId('stent-pending').textContent).toBe('Reading the stent…');
    expect(screen.queryByTestId('stent-segment')).toBeNull();
    expect(screen.queryByText(/no stent/i)).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    expect(told.every((s) => s === null)).toBe(true);

    act(() => stentIn());
    expect(screen.queryByTestId('stent-pending')).toBeNull();
    expect(screen.getByTestId('stent-msa-value').textContent).toBe('5.31 mm²');
    expect(told.at(-1)).toMatchObject({ results: STORED });
    expect(asked).toEqual([]);
  });
});
