import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { DRAG_THRESHOLD_PX } from '../../../../src/domain/annotations/drag.ts';
import { BRIGHTNESS_RANGE, CONTRAST_RANGE, DEFAULT_BRIGHTNESS_CONTRAST, dragBrightnessContrast, type BrightnessContrast } from '../../../../src/web/review/view/brightness-contrast.ts';
import { brightnessToolMachine } from '../../../../src/web/review/tools/brightness-tool.machine.ts';

function harness(start: BrightnessContrast = { brightness: 0.2, contrast: 1.5 }) {
  const actor = createActor(brightnessToolMachine).start();
  const set: BrightnessContrast[] = [];
  actor.on('brightness.set', ({ value }) => set.push(value));
  return {
    actor,
    set,
    down: (x: number, y: number) => actor.send({ type: 'pointer.down', point: { x, y }, start }),
    move: (x: number, y: number) => actor.send({ type: 'pointer.move', point: { x, y } }),
    state: () => actor.getSnapshot().value,
  };
}

describe('brightness tool statechart', () => {
  it('a press is pointing; a release within the threshold is a click and changes nothing', () => {
    const h = harness();
    h.down(100, 100);
    expect(h.state()).toBe('pointing');
    h.move(100 + DRAG_THRESHOLD_PX - 1, 100);
    expect(h.state()).toBe('pointing');
    h.actor.send({ type: 'pointer.up' });
    expect(h.state()).toBe('idle');
    expect(h.set).toEqual([]);
  });

  it('past the threshold it adjusts from the start values, on every move', () => {
    const start = { brightness: 0.2, contrast: 1.5 };
    const h = harness(start);
    h.down(100, 100);
    h.move(100, 80);
    expect(h.state()).toBe('adjusting');
    h.move(130, 60);
    h.actor.send({ type: 'pointer.up' });
    expect(h.state()).toBe('idle');
    expect(h.set).toEqual([dragBrightnessContrast(start, 0, -20), dragBrightnessContrast(start, 30, -40)]);
  });

  it('Escape while adjusting puts the start values back', () => {
    const start = { brightness: -0.1, contrast: 2 };
    const h = harness(start);
    h.down(0, 0);
    h.move(0, 50);
    h.actor.send({ type: 'key.escape' });
    expect(h.state()).toBe('idle');
    expect(h.set.at(-1)).toEqual(start);
  });

  it('reset (double-click or the panel’s Reset) sets the defaults, and ends a drag in progress', () => {
    const h = harness({ brightness: 0.4, contrast: 3 });
    h.actor.send({ type: 'reset' });
    expect(h.set).toEqual([DEFAULT_BRIGHTNESS_CONTRAST]);
    h.down(0, 0);
    h.move(0, -60);
    h.actor.send({ type: 'reset' });
    expect(h.state()).toBe('idle');
    expect(h.set.at(-1)).toEqual(DEFAULT_BRIGHTNESS_CONTRAST);
    // The drag is over: a move before the next press changes nothing.
    h.move(0, -120);
    expect(h.set.at(-1)).toEqual(DEFAULT_BRIGHTNESS_CONTRAST);
  });

  it('a drag far past the ranges emits clamped values', () => {
    const h = harness(DEFAULT_BRIGHTNESS_CONTRAST);
    h.down(0, 0);
    h.move(100_000, -100_000);
    expect(h.set.at(-1)).toEqual({ brightness: BRIGHTNESS_RANGE[1], contrast: CONTRAST_RANGE[1] });
  });
});
