import { describe, expect, it, vi } from 'vitest';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis } from '../../../../src/domain/contours/corrected-analysis.ts';
import { cardObstacles } from '../../../../src/web/review/annotations/label-cards.tsx';
import { placeLabel } from '../../../../src/web/review/annotations/label-placement.ts';
import { createFrameBoxes } from '../../../../src/web/review/contours/frame-boxes.ts';
import { detectedContours } from '../contours/contours-fixture.ts';

const borders = correctedAnalysis(detectedContours(10, {}), emptyManifest(), { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 }).slices[1]!;
const identity = { scaleX: 1, scaleY: 1, x: 0, y: 0 };
const zoomed = { scaleX: 2, scaleY: 2, x: -100, y: -50 };

describe('what the annotation cards keep clear of on the B-mode frame', () => {
  it('the lumen and vessel borders as drawn, with no handle of theirs outside the contour tool', () => {
    const obstacles = cardObstacles([], identity, { borders, bordersShown: true, controlPoints: false }, []);
    expect(obstacles.lines).toHaveLength(2);
    expect(obstacles.handles).toEqual([]);
    // The lines pass through the control points, on screen (zoomed and panned).
    const onScreen = cardObstacles([], zoomed, { borders, bordersShown: true, controlPoints: false }, []);
    const first = borders.controlPoints[0]!;
    expect(onScreen.lines[0]).toContainEqual({ x: 2 * first.x - 100, y: 2 * first.y - 50 });
  });

  it("in the contour tool, every control point of both borders as a handle", () => {
    const obstacles = cardObstacles([], identity, { borders, bordersShown: true, controlPoints: true }, []);
    expect(obstacles.handles).toHaveLength(borders.controlPoints.length + (borders.vessel?.controlPoints.length ?? 0));
    expect(obstacles.handles[0]).toMatchObject({ ...borders.controlPoints[0], radius: 4.75 });
  });

  it('borders switched off are not in the way', () => {
    const obstacles = cardObstacles([], identity, { borders, bordersShown: false, controlPoints: true }, []);
    expect(obstacles.lines).toEqual([]);
    expect(obstacles.handles).toEqual([]);
  });

  it('a card whose usual place is on a drawn border goes elsewhere', () => {
    // Anchored just left of the lumen's rightmost control point: the usual place lies across it.
    const rightmost = borders.controlPoints.reduce((a, b) => (b.x > a.x ? b : a));
    const label = { id: 'a', anchor: { x: rightmost.x - 30, y: rightmost.y + 4 }, size: { width: 90, height: 22 } };
    const usual = placeLabel(label, { handles: [], lines: [], boxes: [] }, [], { width: 512, height: 512 });
    const placed = placeLabel(label, cardObstacles([], identity, { borders, bordersShown: true, controlPoints: true }, []), [], { width: 512, height: 512 });
    expect(placed).not.toEqual(usual);
    const covers = (r: typeof placed, p: { x: number; y: number }) => p.x > r.x && p.x < r.x + r.width && p.y > r.y && p.y < r.y + r.height;
    expect(covers(usual, rightmost)).toBe(true);
    expect(borders.controlPoints.some((p) => covers(placed, p))).toBe(false);
  });
});

describe('the frame boxes the readout, the contour card, the scale bar and the cut handle publish', () => {
  it('tells its listeners only when a box moves or goes', () => {
    const boxes = createFrameBoxes();
    const listener = vi.fn();
    boxes.subscribe(listener);
    boxes.set('readout', { x: 8, y: 8, width: 200, height: 120 });
    boxes.set('readout', { x: 8, y: 8, width: 200, height: 120 });
    expect(listener).toHaveBeenCalledTimes(1);
    boxes.set('cut-handle', { x: 300, y: 40, width: 24, height: 24 });
    expect(Object.keys(boxes.get())).toEqual(['readout', 'cut-handle']);
    boxes.set('readout', null);
    expect(boxes.get()).toEqual({ 'cut-handle': { x: 300, y: 40, width: 24, height: 24 } });
    expect(listener).toHaveBeenCalledTimes(3);
  });
});
