import { describe, expect, it } from 'vitest';
import { candidatePositions, HANDLE_CLEARANCE_PX, LINE_CLEARANCE_PX, NO_OBSTACLES, placeLabel, placeLabels, type HandleCircle, type LabelObstacles, type ScreenRect } from '../../../../src/web/review/annotations/label-placement.ts';

const CARD = { width: 80, height: 20 };
const PANEL = { width: 600, height: 400 };
const handle = (x: number, y: number): HandleCircle => ({ x, y, radius: 5.75 });
const handlesOnly = (...handles: HandleCircle[]): LabelObstacles => ({ ...NO_OBSTACLES, handles });

/** Whether a card covers a handle (or comes closer to it than the clearance). */
function covers(rect: ScreenRect, h: HandleCircle): boolean {
  const nx = Math.max(rect.x, Math.min(h.x, rect.x + rect.width));
  const ny = Math.max(rect.y, Math.min(h.y, rect.y + rect.height));
  return Math.hypot(h.x - nx, h.y - ny) < h.radius + HANDLE_CLEARANCE_PX;
}
const inside = (rect: ScreenRect) => rect.x >= 0 && rect.y >= 0 && rect.x + rect.width <= PANEL.width && rect.y + rect.height <= PANEL.height;

describe('label placement: cards off every handle, inside the panel', () => {
  it('with nothing in the way, a card goes where cards always went: right of its anchor, a little above', () => {
    const anchor = { x: 200, y: 200 };
    expect(placeLabel({ id: 'a', anchor, size: CARD }, handlesOnly(handle(200, 200)), [], PANEL)).toEqual({ x: 210, y: 188, ...CARD });
    expect(candidatePositions(anchor, CARD)[0]).toEqual({ x: 210, y: 188 });
  });

  it("a handle of another annotation where the card would go sends the card to the next free place", () => {
    const anchor = { x: 200, y: 200 };
    const other = handle(240, 195); // inside the default place
    const rect = placeLabel({ id: 'a', anchor, size: CARD }, handlesOnly(handle(200, 200), other), [], PANEL);
    expect(covers(rect, other)).toBe(false);
    expect(covers(rect, handle(200, 200))).toBe(false);
    expect(rect).toEqual({ x: 210, y: 210, ...CARD }); // the next candidate: right, below
  });

  it('at the right edge the card goes left of its anchor, inside the panel', () => {
    const rect = placeLabel({ id: 'a', anchor: { x: 580, y: 200 }, size: CARD }, handlesOnly(handle(580, 200)), [], PANEL);
    expect(inside(rect)).toBe(true);
    expect(rect.x + rect.width).toBeLessThan(580);
  });

  it('at the top-left corner the card stays inside the panel and off the handle', () => {
    const h = handle(4, 4);
    const rect = placeLabel({ id: 'a', anchor: { x: 4, y: 4 }, size: CARD }, handlesOnly(h), [], PANEL);
    expect(inside(rect)).toBe(true);
    expect(covers(rect, h)).toBe(false);
  });

  it('surrounded by handles near the anchor, the card moves further out rather than over one', () => {
    const anchor = { x: 300, y: 200 };
    const crowd = [anchor, ...candidatePositions(anchor, CARD).slice(0, 8).map((p) => ({ x: p.x + CARD.width / 2, y: p.y + CARD.height / 2 }))].map((p) => handle(p.x, p.y));
    const rect = placeLabel({ id: 'a', anchor, size: CARD }, handlesOnly(...crowd), [], PANEL);
    expect(crowd.some((h) => covers(rect, h))).toBe(false);
    expect(inside(rect)).toBe(true);
  });

  it('two cards with the same anchor do not lie on each other', () => {
    const handles = [handle(300, 200)];
    const placed = placeLabels(
      [
        { id: 'a', anchor: { x: 300, y: 200 }, size: CARD },
        { id: 'b', anchor: { x: 300, y: 200 }, size: CARD },
      ],
      handlesOnly(...handles),
      PANEL,
    );
    const [a, b] = [placed.get('a')!, placed.get('b')!];
    const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    expect(overlap).toBe(false);
  });

  it('a panel not measured yet (0 x 0) bounds nothing: the default place', () => {
    expect(placeLabel({ id: 'a', anchor: { x: 10, y: 5 }, size: CARD }, NO_OBSTACLES, [], { width: 0, height: 0 })).toEqual({ x: 20, y: -7, ...CARD });
  });
});

/** A closed border of `radius` px round (cx, cy), as a polyline of many points (as the B-mode draws it). */
const ring = (cx: number, cy: number, radius: number) => Array.from({ length: 128 }, (_, i) => ({ x: cx + radius * Math.cos((i * Math.PI) / 64), y: cy + radius * Math.sin((i * Math.PI) / 64) }));
/** Whether any point along the closed line (every half pixel) comes within the clearance of the card. */
function touchesLine(rect: ScreenRect, line: readonly { x: number; y: number }[]): boolean {
  const c = LINE_CLEARANCE_PX - 0.01;
  return line.some((a, i) => {
    const b = line[(i + 1) % line.length]!;
    const steps = Math.max(1, Math.ceil(2 * Math.hypot(b.x - a.x, b.y - a.y)));
    for (let s = 0; s <= steps; s++) {
      const x = a.x + ((b.x - a.x) * s) / steps;
      const y = a.y + ((b.y - a.y) * s) / steps;
      if (x > rect.x - c && x < rect.x + rect.width + c && y > rect.y - c && y < rect.y + rect.height + c) return true;
    }
    return false;
  });
}

describe('label placement: cards off the borders and the boxes on the frame', () => {
  const anchor = { x: 200, y: 200 };

  it('a card whose usual place lies on the lumen border moves off the border, and off its control points', () => {
    // The border passes through the usual place (x 210–290, y 188–208): its right edge is at x 250.
    const lumen = ring(160, 200, 90);
    expect(touchesLine({ x: 210, y: 188, ...CARD }, lumen)).toBe(true);
    const controlPoints = lumen.filter((_, i) => i % 8 === 0).map((p) => ({ ...p, radius: 5.5 }));
    const rect = placeLabel({ id: 'a', anchor, size: CARD }, { handles: controlPoints, lines: [lumen], boxes: [] }, [], PANEL);
    expect(touchesLine(rect, lumen)).toBe(false);
    expect(controlPoints.some((h) => covers(rect, h))).toBe(false);
    expect(inside(rect)).toBe(true);
  });

  it('a card keeps off the boxes on the frame (the readout, the scale bar, the contour card)', () => {
    const readout = { x: 190, y: 150, width: 150, height: 50 }; // over the usual place
    const rect = placeLabel({ id: 'a', anchor, size: CARD }, { ...NO_OBSTACLES, boxes: [readout] }, [], PANEL);
    const overlap = rect.x < readout.x + readout.width && readout.x < rect.x + rect.width && rect.y < readout.y + readout.height && readout.y < rect.y + rect.height;
    expect(overlap).toBe(false);
  });

  it('when every place crosses a border, the card takes the one crossing the least of it', () => {
    // Horizontal lines every 24 px across the panel: every card crosses one, some (the usual place among them) two.
    const lines = Array.from({ length: 16 }, (_, i) => [
      { x: 0, y: 18 + 24 * i },
      { x: PANEL.width, y: 18 + 24 * i },
    ]);
    const crossed = (r: ScreenRect) => lines.filter(([a]) => a!.y > r.y - LINE_CLEARANCE_PX && a!.y < r.y + r.height + LINE_CLEARANCE_PX).length;
    const rect = placeLabel({ id: 'a', anchor, size: CARD }, { ...NO_OBSTACLES, lines }, [], PANEL);
    const fewest = Math.min(...candidatePositions(anchor, CARD).map((p) => crossed({ ...p, ...CARD })));
    expect(fewest).toBeGreaterThan(0);
    expect(crossed(rect)).toBe(fewest);
    expect(crossed({ x: 210, y: 188, ...CARD })).toBeGreaterThan(fewest);
  });

  it('when no place is free, a card covers a border rather than a handle', () => {
    // A handle in every place but the last tried (furthest out, below); a border crosses that one.
    const places = candidatePositions(anchor, CARD).map((p) => ({ ...p, ...CARD }));
    const target = places[places.length - 1]!;
    const corners = (r: ScreenRect) => [0, 0.5, 1].flatMap((fx) => [0, 0.5, 1].map((fy) => handle(r.x + fx * r.width, r.y + fy * r.height)));
    const others = places.slice(0, -1).map((r) => corners(r).find((h) => !covers(target, h))!);
    expect(others.every((h, i) => h !== undefined && covers(places[i]!, h))).toBe(true);
    const border = [
      { x: target.x - 50, y: target.y + 5 },
      { x: target.x + target.width + 50, y: target.y + 5 },
    ];
    const rect = placeLabel({ id: 'a', anchor, size: CARD }, { handles: others, lines: [border], boxes: [] }, [], PANEL);
    expect(others.some((h) => covers(rect, h))).toBe(false);
    expect(touchesLine(rect, border)).toBe(true);
  });
});
