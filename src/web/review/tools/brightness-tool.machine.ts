import { assign, emit, setup } from 'xstate';
import { passedDragThreshold, DRAG_THRESHOLD_PX } from '../../../domain/annotations/drag.ts';
import { DEFAULT_BRIGHTNESS_CONTRAST, dragBrightnessContrast, type BrightnessContrast } from '../view/brightness-contrast.ts';

/**
 * The brightness tool's drag, with the same threshold as the annotation tools: a press and release
 * within DRAG_THRESHOLD_PX is a click and changes nothing; past it, vertical movement sets brightness
 * and horizontal movement contrast. Escape puts back the values the drag started from; `reset` (the
 * panel's double-click or its Reset button) puts the defaults back and ends any drag.
 * One actor per panel: its values are that panel's only. Points are screen pixels of the panel.
 */
export type BrightnessToolEvent =
  | { type: 'pointer.down'; point: { x: number; y: number }; start: BrightnessContrast }
  | { type: 'pointer.move'; point: { x: number; y: number } }
  | { type: 'pointer.up' }
  | { type: 'key.escape' }
  | { type: 'reset' };

export type BrightnessToolEmitted = { type: 'brightness.set'; value: BrightnessContrast };

interface BrightnessToolContext {
  from: { x: number; y: number };
  start: BrightnessContrast;
}

export const brightnessToolMachine = setup({
  types: {
    context: {} as BrightnessToolContext,
    events: {} as BrightnessToolEvent,
    emitted: {} as BrightnessToolEmitted,
  },
  guards: {
    passedThreshold: ({ context, event }) => event.type === 'pointer.move' && passedDragThreshold(context.from, event.point, DRAG_THRESHOLD_PX),
  },
  actions: {
    press: assign(({ event }) => (event.type === 'pointer.down' ? { from: event.point, start: event.start } : {})),
    emitDragged: emit(({ context, event }) => {
      const point = event.type === 'pointer.move' ? event.point : context.from;
      return { type: 'brightness.set' as const, value: dragBrightnessContrast(context.start, point.x - context.from.x, point.y - context.from.y) };
    }),
    emitStart: emit(({ context }) => ({ type: 'brightness.set' as const, value: context.start })),
    emitDefault: emit({ type: 'brightness.set' as const, value: DEFAULT_BRIGHTNESS_CONTRAST }),
  },
}).createMachine({
  id: 'brightnessTool',
  context: { from: { x: 0, y: 0 }, start: DEFAULT_BRIGHTNESS_CONTRAST },
  initial: 'idle',
  on: { reset: { target: '.idle', actions: 'emitDefault' } },
  states: {
    idle: {
      on: { 'pointer.down': { target: 'pointing', actions: 'press' } },
    },
    pointing: {
      on: {
        'pointer.move': { guard: 'passedThreshold', target: 'adjusting', actions: 'emitDragged' },
        'pointer.up': 'idle',
        'key.escape': 'idle',
      },
    },
    adjusting: {
      on: {
        'pointer.move': { actions: 'emitDragged' },
        'pointer.up': 'idle',
        'key.escape': { target: 'idle', actions: 'emitStart' },
      },
    },
  },
});
