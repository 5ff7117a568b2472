import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { cutLineToolMachine, type CutLineToolEmitted } from '../../../../src/web/review/tools/cut-line-tool.machine.ts';
import type { PointerInputType, ToolInput } from '../../../../src/web/review/tools/tool-input.ts';
import { screenPoint, type ImagePoint } from '../../../../src/web/review/view/view-transform.ts';

const at = (type: PointerInputType, x: number, { button = 0, pointerId = 1, onImage = true } = {}): ToolInput => ({
  type,
  pointerId,
  button,
  screen: screenPoint(x, 0),
  image: onImage ? ({ x: x / 2, y: 0 } as ImagePoint) : null,
});

function cutLineTool() {
  const actor = createActor(cutLineToolMachine).start();
  const turns: CutLineToolEmitted[] = [];
  actor.on('turn.towards', (event) => turns.push(event));
  actor.on('turn.key', (event) => turns.push(event));
  return { actor, turns, send: (...events: ToolInput[]) => events.forEach((event) => actor.send(event)) };
}

describe('the cut-line tool', () => {
  it('turns towards the image point of the pointer that holds the handle, until it lets go', () => {
    const { turns, send } = cutLineTool();
    send(at('pointer.move', 10), at('pointer.down', 20), at('pointer.move', 40), at('pointer.move', 60, { pointerId: 2 }), at('pointer.move', 80, { onImage: false }), at('pointer.up', 80), at('pointer.move', 100));
    expect(turns).toEqual([{ type: 'turn.towards', image: { x: 20, y: 0 } }]);
  });

  it('is not held by the middle or right button; a cancelled pointer lets go', () => {
    const { actor, send } = cutLineTool();
    send(at('pointer.down', 20, { button: 1 }));
    expect(actor.getSnapshot().value).toBe('idle');
    send(at('pointer.down', 20), at('pointer.cancel', 20));
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('hands the keys pressed on the handle on as turns (the cut angle decides which keys turn it)', () => {
    const { turns, send } = cutLineTool();
    send({ type: 'key', key: 'ArrowRight', shiftKey: true, ctrlKey: false, metaKey: false, altKey: false });
    expect(turns).toEqual([{ type: 'turn.key', key: 'ArrowRight', shiftKey: true }]);
  });
});
