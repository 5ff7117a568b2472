import { assign, emit, enqueueActions, setup } from 'xstate';
import { wheelSteps } from '../view/lmode-mapping.ts';
import { wheelZoomFactor, type ImagePoint, type ScreenPoint } from '../view/view-transform.ts';
import type { ToolInput } from './tool-input.ts';

/**
 * Navigating a panel, with the tool input every tool takes (tool-input.ts): the middle button pans,
 * the primary button on the L-mode picks the slice under the pointer (and follows it while held),
 * the wheel moves one slice a notch on the B-mode, Ctrl+wheel zooms about the pointer, and a
 * double-click puts the view back. Pure: what to change leaves as emitted events, which the panel
 * applies (it owns its view) and the slice cursor carries out.
 */
export interface NavigateToolInput {
  /** The L-mode: its columns are slices, so a press and drag on it chooses the slice. */
  slicesByPointer: boolean;
  /** The B-mode: the wheel steps through the slices. */
  wheelMovesSlice: boolean;
}

interface NavigateToolContext extends NavigateToolInput {
  /** The pointer that holds the drag, and where it was last (for the pan's delta). */
  pointerId: number | null;
  last: ScreenPoint | null;
  /** Trackpads send fractions of a notch: what is left over from earlier wheel events. */
  wheelCarry: number;
}

export type NavigateToolEmitted =
  | { type: 'view.pan'; dx: number; dy: number }
  | { type: 'view.zoom'; at: ScreenPoint; factor: number }
  | { type: 'view.reset' }
  | { type: 'slice.at'; image: ImagePoint }
  | { type: 'slice.step'; steps: number };

const pointerOf = (event: ToolInput) => ('pointerId' in event ? event.pointerId : null);
const imageOf = (event: ToolInput) => ('image' in event ? event.image : null);

export const navigateToolMachine = setup({
  types: {
    context: {} as NavigateToolContext,
    events: {} as ToolInput,
    emitted: {} as NavigateToolEmitted,
    input: {} as NavigateToolInput,
  },
  guards: {
    middleButton: ({ event }) => event.type === 'pointer.down' && event.button === 1,
    slicePress: ({ context, event }) => event.type === 'pointer.down' && event.button === 0 && context.slicesByPointer,
    samePointer: ({ context, event }) => pointerOf(event) === context.pointerId,
    ctrlWheel: ({ event }) => event.type === 'wheel' && event.ctrlKey,
    sliceWheel: ({ context, event }) => event.type === 'wheel' && !event.ctrlKey && context.wheelMovesSlice,
  },
  actions: {
    hold: assign(({ event }) => ({ pointerId: pointerOf(event), last: event.type === 'pointer.down' ? event.screen : null })),
    release: assign({ pointerId: null, last: null }),
    pan: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'pointer.move' || !context.last) return;
      enqueue.emit({ type: 'view.pan', dx: event.screen.x - context.last.x, dy: event.screen.y - context.last.y });
      enqueue.assign({ last: event.screen });
    }),
    // Before the panel can draw there is no image under the pointer, and no slice to pick.
    sliceAt: enqueueActions(({ event, enqueue }) => {
      const image = imageOf(event);
      if (image) enqueue.emit({ type: 'slice.at', image });
    }),
    zoom: enqueueActions(({ event, enqueue }) => {
      if (event.type === 'wheel') enqueue.emit({ type: 'view.zoom', at: event.screen, factor: wheelZoomFactor(event.deltaY) });
    }),
    stepSlices: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'wheel') return;
      const { steps, carry } = wheelSteps(context.wheelCarry, event.deltaY, event.deltaMode);
      enqueue.assign({ wheelCarry: carry });
      if (steps) enqueue.emit({ type: 'slice.step', steps });
    }),
    resetView: emit({ type: 'view.reset' as const }),
  },
}).createMachine({
  id: 'navigateTool',
  context: ({ input }) => ({ ...input, pointerId: null, last: null, wheelCarry: 0 }),
  initial: 'idle',
  // The wheel and the double-click act whatever the pointer is doing.
  on: {
    wheel: [{ guard: 'ctrlWheel', actions: 'zoom' }, { guard: 'sliceWheel', actions: 'stepSlices' }],
    'double-click': { actions: 'resetView' },
  },
  states: {
    idle: {
      on: {
        'pointer.down': [
          { guard: 'middleButton', target: 'panning', actions: 'hold' },
          { guard: 'slicePress', target: 'slicing', actions: ['hold', 'sliceAt'] },
        ],
      },
    },
    panning: {
      on: {
        'pointer.move': { guard: 'samePointer', actions: 'pan' },
        'pointer.up': { guard: 'samePointer', target: 'idle', actions: 'release' },
        'pointer.cancel': { guard: 'samePointer', target: 'idle', actions: 'release' },
      },
    },
    slicing: {
      on: {
        'pointer.move': { guard: 'samePointer', actions: 'sliceAt' },
        'pointer.up': { guard: 'samePointer', target: 'idle', actions: 'release' },
        'pointer.cancel': { guard: 'samePointer', target: 'idle', actions: 'release' },
      },
    },
  },
});

