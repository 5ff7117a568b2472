import { describe, expect, it } from 'vitest';
import { candidatePositions, HANDLE_CLEARANCE_PX, placeLabel, placeLabels, type HandleCircle, type ScreenRect } from '../../../../src/web/review/annotations/label-placement.ts';

const CARD = { width: 80, height: 20 };
const PANEL = { width: 600, height: 400 };
const handle = (x: number, y: number): HandleCircle => ({ x, y, radius: 5.75 });

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
    expect(placeLabel({ id: 'a', anchor, size: CARD }, [handle(200, 200)], [], PANEL)).toEqual({ x: 210, y: 188, ...CARD });
    expect(candidatePositions(anchor, CARD)[0]).toEqual({ x: 210, y: 188 });
  });

  it("a handle of another annotation where the card would go sends the card to the next free place", () => {
    const anchor = { x: 200, y: 200 };
    const other = handle(240, 195); // inside the default place
    const rect = placeLabel({ id: 'a', anchor, size: CARD }, [handle(200, 200), other], [], PANEL);
    expect(covers(rect, other)).toBe(false);
    expect(covers(rect, handle(200, 200))).toBe(false);
    expect(rect).toEqual({ x: 210, y: 210, ...CARD }); // the next candidate: right, below
  });

  it('at the right edge the card goes left of its anchor, inside the panel', () => {
    const rect = placeLabel({ id: 'a', anchor: { x: 580, y: 200 }, size: CARD }, [handle(580, 200)], [], PANEL);
    expect(inside(rect)).toBe(true);
    expect(rect.x + rect.width).toBeLessThan(580);
  });

  it('at the top-left corner the card stays inside the panel and off the handle', () => {
    const h = handle(4, 4);
    const rect = placeLabel({ id: 'a', anchor: { x: 4, y: 4 }, size: CARD }, [h], [], PANEL);
    expect(inside(rect)).toBe(true);
    expect(covers(rect, h)).toBe(false);
  });

  it('surrounded by handles near the anchor, the card moves further out rather than over one', () => {
    const anchor = { x: 300, y: 200 };
    const crowd = [anchor, ...candidatePositions(anchor, CARD).slice(0, 8).map((p) => ({ x: p.x + CARD.width / 2, y: p.y + CARD.height / 2 }))].map((p) => handle(p.x, p.y));
    const rect = placeLabel({ id: 'a', anchor, size: CARD }, crowd, [], PANEL);
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
      handles,
      PANEL,
    );
    const [a, b] = [placed.get('a')!, placed.get('b')!];
    const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    expect(overlap).toBe(false);
  });

  it('a panel not measured yet (0 x 0) bounds nothing: the default place', () => {
    expect(placeLabel({ id: 'a', anchor: { x: 10, y: 5 }, size: CARD }, [], [], { width: 0, height: 0 })).toEqual({ x: 20, y: -7, ...CARD });
  });
});
