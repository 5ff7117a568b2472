import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { navigateToolMachine, type NavigateToolEmitted } from '../../../../src/web/review/tools/navigate-tool.machine.ts';
import type { PointerInputType, ToolInput } from '../../../../src/web/review/tools/tool-input.ts';
import { screenPoint, type ImagePoint } from '../../../../src/web/review/view/view-transform.ts';

const image = (x: number, y: number) => ({ x, y }) as ImagePoint;
const press = (type: PointerInputType, x: number, y: number, { button = 0, pointerId = 1, onImage = true } = {}): ToolInput => ({
  type,
  pointerId,
  button,
  screen: screenPoint(x, y),
  image: onImage ? image(x / 2, y / 2) : null,
});
const wheel = (deltaY: number, { ctrlKey = false, deltaMode = 0 } = {}): ToolInput => ({ type: 'wheel', deltaY, deltaMode, ctrlKey, screen: screenPoint(40, 30), image: image(20, 15) });

function navigate(panel: 'bmode' | 'lmode' | 'angio') {
  const actor = createActor(navigateToolMachine, { input: { slicesByPointer: panel === 'lmode', wheelMovesSlice: panel === 'bmode' } }).start();
  const emitted: NavigateToolEmitted[] = [];
  for (const type of ['view.pan', 'view.zoom', 'view.reset', 'slice.at', 'slice.step'] as const) actor.on(type, (event) => emitted.push(event));
  return { actor, emitted, send: (...events: ToolInput[]) => events.forEach((event) => actor.send(event)) };
}

describe('the navigate tool', () => {
  it('pans by the pointer’s screen movement while the middle button is held, and only for that pointer', () => {
    const { actor, emitted, send } = navigate('bmode');
    send(press('pointer.down', 100, 100, { button: 1 }), press('pointer.move', 110, 95, { button: 1 }), press('pointer.move', 500, 500, { pointerId: 2 }), press('pointer.move', 130, 95));
    expect(emitted).toEqual([
      { type: 'view.pan', dx: 10, dy: -5 },
      { type: 'view.pan', dx: 20, dy: 0 },
    ]);
    send(press('pointer.up', 130, 95));
    expect(actor.getSnapshot().value).toBe('idle');
    send(press('pointer.move', 200, 200));
    expect(emitted).toHaveLength(2);
  });

  it('picks the slice under the pointer on the L-mode (its image point), and follows the drag', () => {
    const { emitted, send } = navigate('lmode');
    send(press('pointer.down', 40, 10), press('pointer.move', 60, 10), press('pointer.up', 60, 10), press('pointer.move', 80, 10));
    expect(emitted).toEqual([
      { type: 'slice.at', image: { x: 20, y: 5 } },
      { type: 'slice.at', image: { x: 30, y: 5 } },
    ]);
  });

  it('does not take a primary press on the B-mode or angio (that belongs to the annotation tools), nor pick a slice without an image', () => {
    for (const panel of ['bmode', 'angio'] as const) {
      const { actor, emitted, send } = navigate(panel);
      send(press('pointer.down', 40, 10));
      expect(actor.getSnapshot().value).toBe('idle');
      expect(emitted).toEqual([]);
    }
    const lmode = navigate('lmode');
    lmode.send(press('pointer.down', 40, 10, { onImage: false }));
    expect(lmode.emitted).toEqual([]);
  });

  it('steps one slice a wheel notch on the B-mode, adding up a trackpad’s small deltas; nothing on the other panels', () => {
    const bmode = navigate('bmode');
    bmode.send(wheel(100), wheel(-100), wheel(30), wheel(30), wheel(45), wheel(3, { deltaMode: 1 }));
    expect(bmode.emitted).toEqual([
      { type: 'slice.step', steps: 1 },
      { type: 'slice.step', steps: -1 },
      { type: 'slice.step', steps: 1 },
      { type: 'slice.step', steps: 1 },
    ]);
    const angio = navigate('angio');
    angio.send(wheel(100));
    expect(angio.emitted).toEqual([]);
  });

  it('zooms about the pointer with Ctrl+wheel on every panel, even during a drag, and a double-click puts the view back', () => {
    const { emitted, send } = navigate('lmode');
    send(press('pointer.down', 40, 10), wheel(-100, { ctrlKey: true }), { type: 'double-click', screen: screenPoint(1, 2), image: image(0.5, 1) });
    expect(emitted.slice(1)).toEqual([{ type: 'view.zoom', at: { x: 40, y: 30 }, factor: Math.exp(0.2) }, { type: 'view.reset' }]);
  });
});
