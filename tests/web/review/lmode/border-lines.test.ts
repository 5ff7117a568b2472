/**
 * Issue 25: the borders drawn on the L-mode views, picked under the pointer and dragged into a key
 * frame. The fixture's frames are 512 x 512 px with a 100 px lumen and a 200 px vessel round the
 * centre, so along a cut the lumen lies 100 px each side of the catheter and the vessel 200 px.
 */
import { describe, expect, it } from 'vitest';
import { setKeyFrame } from '../../../../src/domain/annotations/contour-edits.ts';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis, measurementsCsv } from '../../../../src/domain/contours/corrected-analysis.ts';
import { radiusAlong } from '../../../../src/domain/contours/polar-border.ts';
import { measuredOutline } from '../../../../src/domain/contours/measurements.ts';
import { borderLinesFor, pickBorderLine } from '../../../../src/web/review/lmode/border-lines.ts';
import { keyFrameForDrop } from '../../../../src/web/review/lmode/lmode-border-drag.ts';
import type { ImagePoint } from '../../../../src/web/review/view/view-transform.ts';
import { detectedContours } from '../contours/contours-fixture.ts';

const geometry = { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };
const frame = { width: 512, height: 512 };
const detected = detectedContours(300, {}, [40]);
const analysis = correctedAnalysis(detected, emptyManifest(), geometry);
const point = (x: number, y: number) => ({ x, y }) as ImagePoint;
// Row k of the 512-row column is at signed distance k + 0.5 − 256; the line goes through its middle, image y = 256 + d.
const yOf = (distance: number) => 256 + distance;

describe('the border lines along the L-mode cut', () => {
  it('put the lumen and vessel of every frame on both sides of the catheter, with a gap where a frame has no border', () => {
    const lines = borderLinesFor(analysis, frame, 0);
    expect(lines.frameCount).toBe(300);
    const line = (border: string, side: string) => lines.lines.find((l) => l.border === border && l.side === side)!.y;
    expect(line('lumen', 'toward')[9]).toBeCloseTo(yOf(100), 0);
    expect(line('lumen', 'away')[9]).toBeCloseTo(yOf(-100), 0);
    expect(line('vessel', 'toward')[9]).toBeCloseTo(yOf(200), 0);
    expect(line('vessel', 'away')[9]).toBeCloseTo(yOf(-200), 0);
    expect(line('lumen', 'toward')[39]).toBeNaN();
  });

  it('are built once per analysis and angle: both views draw the same lines', () => {
    expect(borderLinesFor(analysis, frame, 0)).toBe(borderLinesFor(analysis, frame, 0));
    expect(borderLinesFor(analysis, frame, 1)).not.toBe(borderLinesFor(analysis, frame, 0));
  });

  it('pick the border of the frame under the pointer within the tolerance, and nothing elsewhere', () => {
    const lines = borderLinesFor(analysis, frame, 0);
    expect(pickBorderLine(lines, point(5.5, yOf(102)), 4)).toEqual({ slice: 6, border: 'lumen', side: 'toward' });
    expect(pickBorderLine(lines, point(5.5, yOf(-198)), 4)).toEqual({ slice: 6, border: 'vessel', side: 'away' });
    expect(pickBorderLine(lines, point(5.5, yOf(150)), 4)).toBeNull();
    expect(pickBorderLine(lines, point(39.5, yOf(100)), 4)).toBeNull();
    expect(pickBorderLine(lines, point(-1, yOf(100)), 4)).toBeNull();
  });
});

describe('a border dropped on the L-mode', () => {
  const radiusOf = (points: readonly { x: number; y: number }[], angle: number) => radiusAlong(measuredOutline(points), { x: 256, y: 256 }, angle);

  it('makes a key frame of the pressed frame with the border at the dropped radius, which propagates', () => {
    const keyFrame = keyFrameForDrop(analysis, { slice: 150, border: 'lumen', side: 'toward' }, yOf(130), frame, 0, 0.01);
    expect(keyFrame).toMatchObject({ slice: 150, border: 'lumen', source: 'manual', reachMm: 2 });
    expect(radiusOf(keyFrame.controlPoints, 0)).toBeCloseTo(130, 0);
    // Opposite the drag the border is the detected one.
    expect(radiusOf(keyFrame.controlPoints, Math.PI)).toBeCloseTo(100, 0);
    const corrected = correctedAnalysis(detected, setKeyFrame(emptyManifest(), keyFrame.slice, keyFrame.controlPoints, keyFrame.border, keyFrame.reachMm), geometry);
    // The detected lumen, a 100 px circle at 0.01 mm/px, measures π mm² (the fixture's stated areas are not measured); the dragged one more.
    expect(corrected.slices[149]!.areaMm2!).toBeGreaterThan(Math.PI + 0.1);
    expect(corrected.slices[159]!.source).toBe('propagated');
    // The export says which slices were corrected and which carry the correction.
    const rows = measurementsCsv(corrected).split('\n');
    const sourceColumn = rows[0]!.split(',').indexOf('lumen_source');
    expect(rows[150]!.split(',')[sourceColumn]).toBe('manual');
    expect(rows[160]!.split(',')[sourceColumn]).toBe('propagated');
  });

  it('on the far side of the catheter moves the border there; a lumen dragged past the vessel stops inside it', () => {
    const away = keyFrameForDrop(analysis, { slice: 150, border: 'vessel', side: 'away' }, yOf(-170), frame, 0, 0.01);
    expect(radiusOf(away.controlPoints, Math.PI)).toBeCloseTo(170, 0);
    const past = keyFrameForDrop(analysis, { slice: 150, border: 'lumen', side: 'toward' }, yOf(240), frame, 0, 0.01);
    // 0.1 mm of wall (10 px at 0.01 mm/px) is kept inside the 200 px vessel.
    expect(radiusOf(past.controlPoints, 0)).toBeLessThanOrEqual(191);
  });
});
