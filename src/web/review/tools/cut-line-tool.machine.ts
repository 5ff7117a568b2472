import { assign, emit, setup } from 'xstate';
import type { ImagePoint } from '../view/view-transform.ts';
import type { KeyInput, PointerInput, ToolInput } from './tool-input.ts';

/**
 * Turning the L-mode cut line by its handle, with the tool input every tool takes (tool-input.ts):
 * a primary press on the handle holds it, and while held the line turns towards the pointer's
 * image point; the arrow keys on the focused handle turn it by steps. What the line's angle becomes
 * is the cut-angle store's arithmetic (lmode/cut-angle.ts), applied by the handle's layer.
 */
export type CutLineToolEmitted = { type: 'turn.towards'; image: ImagePoint } | { type: 'turn.key'; key: string; shiftKey: boolean };

interface CutLineToolContext {
  pointerId: number | null;
}

const isPointer = (event: ToolInput): event is PointerInput => 'pointerId' in event;

export const cutLineToolMachine = setup({
  types: {
    context: {} as CutLineToolContext,
    events: {} as ToolInput,
    emitted: {} as CutLineToolEmitted,
  },
  guards: {
    primaryPress: ({ event }) => event.type === 'pointer.down' && event.button === 0,
    holdingPointer: ({ context, event }) => isPointer(event) && event.pointerId === context.pointerId,
  },
  actions: {
    hold: assign(({ event }) => ({ pointerId: isPointer(event) ? event.pointerId : null })),
    release: assign({ pointerId: null }),
    turnTowards: emit(({ event }) => ({ type: 'turn.towards' as const, image: (event as PointerInput).image! })),
    turnByKey: emit(({ event }) => ({ type: 'turn.key' as const, key: (event as KeyInput).key, shiftKey: (event as KeyInput).shiftKey })),
  },
}).createMachine({
  id: 'cutLineTool',
  context: { pointerId: null },
  initial: 'idle',
  on: { key: { actions: 'turnByKey' } },
  states: {
    idle: {
      on: { 'pointer.down': { guard: 'primaryPress', target: 'turning', actions: 'hold' } },
    },
    turning: {
      on: {
        // Before the panel can draw there is no image point to turn towards.
        'pointer.move': { guard: ({ context, event }) => event.type === 'pointer.move' && event.pointerId === context.pointerId && event.image !== null, actions: 'turnTowards' },
        'pointer.up': { guard: 'holdingPointer', target: 'idle', actions: 'release' },
        'pointer.cancel': { guard: 'holdingPointer', target: 'idle', actions: 'release' },
      },
    },
  },
});
