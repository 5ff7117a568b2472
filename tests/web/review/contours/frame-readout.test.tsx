/**
 * The frame's readout during playback (issue 27): its numbers are written into it frame after
 * frame without its Chakra shell rendering again, and must still be those of the frame shown,
 * with the test ids, units and notes of that frame's kind (figures, dashes, no border).
 */
import { act, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis, type SliceMeasurement } from '../../../../src/domain/contours/corrected-analysis.ts';
import { FrameReadout } from '../../../../src/web/review/contours/frame-readout.tsx';
import { renderApp } from '../../render.tsx';
import { detectedContours } from './contours-fixture.ts';

const analysis = correctedAnalysis(detectedContours(10, {}, [4]), emptyManifest(), { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 });

function renderPlayback() {
  const show: { slice: (slice: number | null) => void } = { slice: () => undefined };
  function Playing() {
    const [slice, setSlice] = useState<number | null>(3);
    show.slice = setSlice;
    const measurement: SliceMeasurement | null = slice === null ? null : analysis.slices[slice - 1]!;
    return <FrameReadout measurement={measurement} pending="Loading lumen and vessel contours…" at={{ x: slice ?? 0, y: 5, width: 220, height: 120 }} layout="wide" />;
  }
  renderApp(<Playing />);
  const moveTo = (slice: number | null) => act(() => show.slice(slice));
  return { moveTo };
}

const readout = () => screen.getByTestId('frame-readout');
const value = (testId: string) => screen.queryByTestId(testId)?.textContent ?? null;

describe('the frame readout while frames change', () => {
  it("shows each frame's own number, figures and place, whatever the frame before it was", () => {
    const { moveTo } = renderPlayback();
    for (const slice of [3, 5, 4, 6, 3]) {
      moveTo(slice);
      const m = analysis.slices[slice - 1]!;
      expect(readout().dataset.slice).toBe(String(slice));
      expect(readout().style.transform).toBe(`translate(${slice}px, 5px)`);
      expect(readout().textContent).toContain(`Frame ${slice}`);
      if (slice === 4) {
        // The unreadable frame: the note and dashes, never a number nor a unit, nor a stale frame's value.
        expect(screen.getByTestId('no-border')).toBeTruthy();
        expect(value('contour-area')).toBeNull();
        expect(value('plaque-burden')).toBeNull();
        expect(readout().textContent).not.toMatch(/mm²|\d+\.\d\d/);
      } else {
        expect(screen.queryByTestId('no-border')).toBeNull();
        expect(value('contour-area')).toBe(m.areaMm2!.toFixed(2));
        expect(value('vessel-area')).toBe(m.vessel!.areaMm2!.toFixed(2));
        expect(value('min-diameter')).toBe(m.minDiameterMm!.toFixed(2));
        expect(value('max-diameter')).toBe(m.maxDiameterMm!.toFixed(2));
        expect(value('plaque-burden')).toBe((100 * m.plaqueBurden!).toFixed(0));
        expect(screen.getByTestId('contour-area').parentElement!.textContent).toBe(`${m.areaMm2!.toFixed(2)} mm²`);
      }
    }
    moveTo(null);
    expect(readout().dataset.slice).toBeUndefined();
    expect(readout().textContent).toContain('Borders');
    expect(screen.getByTestId('readout-pending').textContent).toBe('Loading lumen and vessel contours…');
  });

  it('keeps the same elements from frame to frame of the same kind, writing only the numbers into them', () => {
    const { moveTo } = renderPlayback();
    const area = screen.getByTestId('contour-area');
    const name = screen.getByText('Lumen area');
    moveTo(5);
    moveTo(6);
    expect(screen.getByTestId('contour-area')).toBe(area);
    expect(screen.getByText('Lumen area')).toBe(name);
    expect(area.textContent).toBe(analysis.slices[5]!.areaMm2!.toFixed(2));
  });

  it('moves with the frame by its inline transform, not by a new style class per frame (no restyle of the box)', () => {
    const { moveTo } = renderPlayback();
    moveTo(5);
    const box = readout();
    const styleClass = box.className;
    moveTo(6);
    moveTo(7);
    expect(readout()).toBe(box);
    expect(readout().style.transform).toBe('translate(7px, 5px)');
    expect(readout().className).toBe(styleClass);
  });
});
