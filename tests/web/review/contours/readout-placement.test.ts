import { describe, expect, it } from 'vitest';
import type { Point } from '../../../../src/domain/annotations/manifest.ts';
import { cornerRect, cutHandleRect, frameObstacles, placeBox, type Obstacles } from '../../../../src/web/review/contours/readout-placement.ts';

const panel = { width: 600, height: 400 };
const box = { width: 200, height: 120 };
const nothing = (over: Partial<Obstacles> = {}): Obstacles => ({ rects: [], points: [], pointPadding: 8, fieldOfView: null, ...over });
/** A border of `radius` px round (cx, cy) through 16 control points. */
const ring = (cx: number, cy: number, radius: number): Point[] => Array.from({ length: 16 }, (_, i) => ({ x: cx + radius * Math.cos((i * Math.PI) / 8), y: cy + radius * Math.sin((i * Math.PI) / 8) }));

describe('placeBox', () => {
  it('takes the top-left corner when nothing is there', () => {
    expect(placeBox(panel, box, nothing())).toMatchObject({ corner: 'top-left', rect: { x: 8, y: 8, width: 200, height: 120 }, covers: false });
  });

  it('moves to another corner when a border or its handles would be covered', () => {
    // A vessel reaching into the top-left corner, drawn through its control points.
    const placed = placeBox(panel, box, frameObstacles([ring(170, 110, 60)], null, []));
    expect(placed.corner).toBe('top-right');
    expect(placed.rect).toEqual(cornerRect('top-right', panel, box));
    expect(placed.covers).toBe(false);
  });

  it("ranks a box clear of everything below one over the field of view, so a narrower layout beside the image wins over a wide one on it", () => {
    // The 605 x 340 B-mode panel of a 1600 x 900 screen before any border is known: the image's circle in the middle.
    const wide = { width: 280, height: 90 };
    const narrow = { width: 120, height: 100 };
    const bmode = { width: 605, height: 340 };
    const fieldOfView = { cx: 302, cy: 170, r: 170 };
    const onImage = placeBox(bmode, wide, nothing({ fieldOfView }));
    const beside = placeBox(bmode, narrow, nothing({ fieldOfView }));
    expect(onImage.rank).toBe(1);
    expect(beside).toMatchObject({ corner: 'top-left', rank: 0, covers: false });
  });

  it('measures against the curve, not its bounding box: a round border leaves the corners of its square free', () => {
    // A border filling the panel's height: its bounding box reaches every corner box, the circle none.
    const border = ring(300, 200, 200);
    const small = { width: 90, height: 60 };
    expect(placeBox(panel, small, frameObstacles([border], null, []))).toMatchObject({ corner: 'top-left', covers: false });
  });

  it('prefers a corner outside the circular field of view, but never covers a border for it', () => {
    // The image sits left of centre: its circle reaches the top-left corner, not the top-right one.
    const fieldOfView = { cx: 250, cy: 200, r: 200 };
    const small = { width: 120, height: 80 };
    expect(placeBox(panel, small, nothing({ fieldOfView })).corner).toBe('top-right');
    // With a box in the top-right corner, the readout goes inside the field of view rather than over it.
    const scaleBar = { x: 400, y: 0, width: 200, height: 150 };
    expect(placeBox(panel, small, nothing({ fieldOfView, rects: [scaleBar] }), ['top-left', 'top-right']).corner).toBe('top-left');
  });

  it('covers as little as it can when every corner holds a border, and says it covers', () => {
    const everywhere = nothing({ rects: [{ x: 0, y: 0, width: 600, height: 400 }, { x: 0, y: 0, width: 300, height: 200 }] });
    const placed = placeBox(panel, box, everywhere);
    expect(placed.corner).not.toBe('top-left');
    expect(placed.covers).toBe(true);
  });

  it("keeps clear of the L-mode cut line's handle: a readout never hides the handle that turns the cut", () => {
    // The cut turned towards the top-left: its 16 px handle sits inside the top-left corner's box.
    const handle = cutHandleRect({ x: 150, y: 100 }, 16);
    const placed = placeBox(panel, box, frameObstacles([], null, [handle]));
    expect(placed).toMatchObject({ corner: 'top-right', covers: false });
    // With its focus ring: a box 2 px beside the handle's edge would hide the ring.
    expect(handle).toEqual({ x: 138, y: 88, width: 24, height: 24 });
  });
});
