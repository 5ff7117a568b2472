import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { lmodeBorderToolMachine, type BorderHit, type LmodeBorderToolEmitted } from '../../../../src/web/review/tools/lmode-border-tool.machine.ts';
import type { PointerInputType, ToolInput } from '../../../../src/web/review/tools/tool-input.ts';
import { screenPoint, type ImagePoint } from '../../../../src/web/review/view/view-transform.ts';

const at = (type: PointerInputType, x: number, y: number, { button = 0, pointerId = 1, onImage = true } = {}): ToolInput => ({
  type,
  pointerId,
  button,
  screen: screenPoint(x, y),
  image: onImage ? ({ x, y } as ImagePoint) : null,
});
const escape: ToolInput = { type: 'key', key: 'Escape', shiftKey: false, ctrlKey: false, metaKey: false, altKey: false };

/** One lumen line at y = 50 over frames 1 to 10 (image x 0 to 10). */
const LINE: BorderHit = { slice: 3, border: 'lumen', side: 'toward' };
const pick = (image: ImagePoint): BorderHit | null => (image.x >= 0 && image.x < 10 && Math.abs(image.y - 50) <= 3 ? { ...LINE, slice: Math.floor(image.x) + 1 } : null);

function borderTool() {
  const actor = createActor(lmodeBorderToolMachine, { input: { pick } }).start();
  const emitted: LmodeBorderToolEmitted[] = [];
  for (const type of ['border.preview', 'border.drop', 'border.cancel'] as const) actor.on(type, (event) => emitted.push(event));
  return { actor, emitted, send: (...events: ToolInput[]) => events.forEach((event) => actor.send(event)) };
}

describe('the L-mode border tool', () => {
  it('holds the line pressed, previews the moves of that pointer and drops the border of the pressed frame where it is released', () => {
    const { actor, emitted, send } = borderTool();
    send(at('pointer.down', 2.5, 51));
    expect(actor.getSnapshot().value).toBe('dragging');
    // Another pointer, and a move with no image point, change nothing; the frame stays the one pressed.
    send(at('pointer.move', 6.5, 60, { pointerId: 2 }), at('pointer.move', 6.5, 60, { onImage: false }), at('pointer.move', 6.5, 70), at('pointer.up', 7.5, 72));
    expect(emitted).toEqual([
      { type: 'border.preview', hit: { slice: 3, border: 'lumen', side: 'toward' }, image: { x: 6.5, y: 70 } },
      { type: 'border.drop', hit: { slice: 3, border: 'lumen', side: 'toward' }, image: { x: 7.5, y: 72 } },
    ]);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('leaves a press off every line, or with another button, to the view (the slice): it does not hold it', () => {
    const { actor, emitted, send } = borderTool();
    send(at('pointer.down', 2.5, 80), at('pointer.move', 2.5, 90), at('pointer.up', 2.5, 90));
    send(at('pointer.down', 2.5, 50, { button: 2 }), at('pointer.up', 2.5, 60, { button: 2 }));
    send(at('pointer.down', 2.5, 50, { onImage: false }));
    expect(actor.getSnapshot().value).toBe('idle');
    expect(emitted).toEqual([]);
  });

  it('drops nothing when the drag is cancelled or Escape is pressed', () => {
    const { emitted, send } = borderTool();
    send(at('pointer.down', 1.5, 50), at('pointer.move', 1.5, 60), escape, at('pointer.up', 1.5, 60));
    send(at('pointer.down', 1.5, 50), at('pointer.cancel', 1.5, 60));
    expect(emitted.map((event) => event.type)).toEqual(['border.preview', 'border.cancel', 'border.cancel']);
  });
});
