import { assign, emit, setup } from 'xstate';
import type { ContourBorder } from '../../../domain/annotations/contour-set.ts';
import type { ImagePoint } from '../view/view-transform.ts';
import type { PointerInput, ToolInput } from './tool-input.ts';

/**
 * Dragging a lumen or vessel border line on an L-mode view (the panel or the strip under it), with
 * the tool input every tool takes (tool-input.ts). A primary press on a line holds that border of
 * the frame under the pointer; while held, moves preview where it goes; the release drops it there
 * (the layer turns the drop into a key frame: lmode/lmode-border-drag.ts); a cancel or Escape drops
 * nothing. A press off every line is not this tool's: the view's own input (the slice) takes it.
 */

/** Which line was pressed: a border of one frame, on one side of the catheter (`toward` the cut angle, or `away`). */
export interface BorderHit {
  readonly slice: number;
  readonly border: ContourBorder;
  readonly side: 'toward' | 'away';
}

export interface LmodeBorderToolInput {
  /** The line under an image point, or null (lmode/border-lines.ts pickBorderLine, within a few screen pixels). */
  pick: (image: ImagePoint) => BorderHit | null;
}

export type LmodeBorderToolEmitted =
  | { type: 'border.preview'; hit: BorderHit; image: ImagePoint }
  | { type: 'border.drop'; hit: BorderHit; image: ImagePoint }
  | { type: 'border.cancel' };

interface LmodeBorderToolContext {
  pick: LmodeBorderToolInput['pick'];
  pointerId: number | null;
  hit: BorderHit | null;
  /** Where the border was last dragged to; a release without a placed point (no image yet) drops it here. */
  last: ImagePoint | null;
}

const isPointer = (event: ToolInput): event is PointerInput => 'pointerId' in event;

export const lmodeBorderToolMachine = setup({
  types: {
    context: {} as LmodeBorderToolContext,
    events: {} as ToolInput,
    input: {} as LmodeBorderToolInput,
    emitted: {} as LmodeBorderToolEmitted,
  },
  guards: {
    pressOnLine: ({ context, event }) => event.type === 'pointer.down' && event.button === 0 && event.image !== null && context.pick(event.image) !== null,
    holdingPointer: ({ context, event }) => isPointer(event) && event.pointerId === context.pointerId,
    movedHeldPointer: ({ context, event }) => event.type === 'pointer.move' && event.pointerId === context.pointerId && event.image !== null,
    escape: ({ event }) => event.type === 'key' && event.key === 'Escape',
  },
  actions: {
    hold: assign(({ context, event }) => {
      const pointer = event as PointerInput;
      return { pointerId: pointer.pointerId, hit: context.pick(pointer.image!), last: pointer.image };
    }),
    follow: assign({ last: ({ event }) => (event as PointerInput).image }),
    preview: emit(({ context, event }) => ({ type: 'border.preview' as const, hit: context.hit!, image: (event as PointerInput).image! })),
    drop: emit(({ context, event }) => ({ type: 'border.drop' as const, hit: context.hit!, image: (event as PointerInput).image ?? context.last! })),
    cancel: emit({ type: 'border.cancel' as const }),
    release: assign({ pointerId: null, hit: null, last: null }),
  },
}).createMachine({
  id: 'lmodeBorderTool',
  context: ({ input }) => ({ pick: input.pick, pointerId: null, hit: null, last: null }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'pointer.down': { guard: 'pressOnLine', target: 'dragging', actions: 'hold' } },
    },
    dragging: {
      on: {
        'pointer.move': { guard: 'movedHeldPointer', actions: ['follow', 'preview'] },
        'pointer.up': { guard: 'holdingPointer', target: 'idle', actions: ['drop', 'release'] },
        'pointer.cancel': { guard: 'holdingPointer', target: 'idle', actions: ['cancel', 'release'] },
        key: { guard: 'escape', target: 'idle', actions: ['cancel', 'release'] },
      },
    },
  },
});
