import { assign, emit, setup } from 'xstate';
import { newAngle, newArea, newRuler, newText, moveHandle, translateAnnotation } from '../../../domain/annotations/drag.ts';
import { hitTest, type Hit } from '../../../domain/annotations/hit-test.ts';
import type { AnnotationManifest, Point, TypedAnnotation } from '../../../domain/annotations/manifest.ts';
import type { ToolId } from '../tools/tools.ts';

/**
 * The annotation tools' interaction (spec section 4): idle, drawing, moving, resizing, selecting.
 * Pure: every pointer event carries what the decision needs (the manifest, the slice, the hit
 * radius in image pixels), and changes leave the machine as emitted events that the overlay
 * hands to the annotation store.
 */
export interface PointerDown {
  type: 'pointer.down';
  point: Point;
  tool: ToolId | null;
  manifest: AnnotationManifest;
  /** The annotations of the current slice, in drawing order. */
  annotations: readonly TypedAnnotation[];
  slice: number;
  /** HIT_RADIUS_PX screen pixels expressed in image pixels at the current zoom. */
  hitRadius: number;
  /** Where a new angle goes: the image's centre, with arms of this length. */
  center: Point;
  armLength: number;
}

export type AnnotationToolEvent =
  | PointerDown
  | { type: 'pointer.move'; point: Point }
  | { type: 'pointer.up'; point: Point }
  | { type: 'key.escape' }
  | { type: 'key.delete' }
  /** The store's selection changed elsewhere (a card's menu, undo). */
  | { type: 'selection.sync'; id: string | null };

export type AnnotationToolEmitted =
  | { type: 'add'; annotation: TypedAnnotation; focusText: boolean }
  | { type: 'preview'; annotation: TypedAnnotation }
  | { type: 'replace'; annotation: TypedAnnotation }
  | { type: 'cancelPreview' }
  | { type: 'select'; id: string | null }
  | { type: 'remove'; id: string };

export interface AnnotationToolContext {
  selectedId: string | null;
  /** The annotation being drawn (ruler or area), shown by the overlay. */
  draft: TypedAnnotation | null;
  /** Freehand points of an area being drawn. */
  path: Point[];
  manifest: AnnotationManifest | null;
  slice: number;
  /** What a drag started from: the annotation, the handle and the pointer position. */
  grab: { original: TypedAnnotation; hit: Hit; from: Point; current: TypedAnnotation } | null;
}

function hitOf(event: PointerDown): { hit: Hit; annotation: TypedAnnotation } | null {
  const hit = hitTest(event.annotations, event.point, event.hitRadius);
  const annotation = hit && event.annotations.find((a) => a.id === hit.id);
  return hit && annotation ? { hit, annotation } : null;
}

const asDown = (event: AnnotationToolEvent) => event as PointerDown;

/** A drag previews on every move, commits once on release (if anything moved), and Escape puts it back. */
const dragging = {
  on: {
    'pointer.move': { actions: ['drag', 'emitPreview'] },
    'pointer.up': [
      { guard: 'grabMoved', target: 'selecting', actions: ['emitReplace', 'release'] },
      { target: 'selecting', actions: 'release' },
    ],
    'key.escape': { target: 'selecting', actions: ['emitCancelPreview', 'release'] },
  },
} as const;

export const annotationToolMachine = setup({
  types: {
    context: {} as AnnotationToolContext,
    events: {} as AnnotationToolEvent,
    emitted: {} as AnnotationToolEmitted,
  },
  guards: {
    hitsHandle: ({ event }) => hitOf(asDown(event))?.hit.handle !== undefined && hitOf(asDown(event))?.hit.handle !== 'body',
    hitsBody: ({ event }) => hitOf(asDown(event))?.hit.handle === 'body',
    drawsRuler: ({ event }) => asDown(event).tool === 'ruler',
    drawsArea: ({ event }) => asDown(event).tool === 'area',
    placesText: ({ event }) => asDown(event).tool === 'text',
    placesAngle: ({ event }) => asDown(event).tool === 'angle',
    hasSelection: ({ context }) => context.selectedId !== null,
    selects: ({ event }) => event.type === 'selection.sync' && event.id !== null,
    areaHasShape: ({ context }) => context.path.length >= 3,
    grabMoved: ({ context }) => context.grab !== null && context.grab.current !== context.grab.original,
  },
  actions: {
    grab: assign(({ event }) => {
      const down = asDown(event);
      const found = hitOf(down)!;
      return {
        selectedId: found.annotation.id,
        grab: { original: found.annotation, hit: found.hit, from: down.point, current: found.annotation },
      };
    }),
    emitSelection: emit(({ context }) => ({ type: 'select' as const, id: context.selectedId })),
    startRuler: assign(({ event }) => {
      const down = asDown(event);
      return { manifest: down.manifest, slice: down.slice, draft: newRuler(down.manifest, down.slice, down.point, down.point) };
    }),
    startArea: assign(({ event }) => {
      const down = asDown(event);
      return { manifest: down.manifest, slice: down.slice, path: [down.point], draft: null };
    }),
    followPointer: assign(({ context, event }) => {
      if (event.type !== 'pointer.move' && event.type !== 'pointer.down') return {};
      const draft = context.draft;
      if (draft?.type !== 'ruler') return {};
      return { draft: { ...draft, endX: event.point.x, endY: event.point.y } };
    }),
    extendPath: assign(({ context, event }) => {
      if (event.type !== 'pointer.move' || !context.manifest) return {};
      const path = [...context.path, event.point];
      return { path, draft: path.length >= 3 ? newArea(context.manifest, context.slice, path) : null };
    }),
    commitDraft: emit(({ context }) => ({ type: 'add' as const, annotation: context.draft!, focusText: false })),
    selectDraft: assign(({ context }) => ({ selectedId: context.draft?.id ?? null })),
    clearDraft: assign({ draft: null, path: [], manifest: null }),
    placeText: emit(({ event }) => {
      const down = asDown(event);
      return { type: 'add' as const, annotation: newText(down.manifest, down.slice, down.point), focusText: true };
    }),
    placeAngle: emit(({ event }) => {
      const down = asDown(event);
      return { type: 'add' as const, annotation: newAngle(down.manifest, down.slice, down.center, down.armLength), focusText: false };
    }),
    selectPlaced: assign(({ event }) => {
      const down = asDown(event);
      const { label, color } = newText(down.manifest, down.slice, down.point);
      const type = down.tool === 'text' ? 'text' : 'angle';
      return { selectedId: `${down.slice}-${type}-${label}-${color}` };
    }),
    deselect: assign({ selectedId: null }),
    syncSelection: assign(({ event }) => (event.type === 'selection.sync' ? { selectedId: event.id } : {})),
    drag: assign(({ context, event }) => {
      if (event.type !== 'pointer.move' || !context.grab) return {};
      const { original, hit, from } = context.grab;
      const current =
        hit.handle === 'body'
          ? translateAnnotation(original, event.point.x - from.x, event.point.y - from.y)
          : moveHandle(original, hit.handle, event.point);
      return { grab: { ...context.grab, current } };
    }),
    emitPreview: emit(({ context }) => ({ type: 'preview' as const, annotation: context.grab!.current })),
    emitReplace: emit(({ context }) => ({ type: 'replace' as const, annotation: context.grab!.current })),
    emitCancelPreview: emit({ type: 'cancelPreview' as const }),
    emitRemove: emit(({ context }) => ({ type: 'remove' as const, id: context.selectedId! })),
    release: assign({ grab: null }),
  },
}).createMachine({
  id: 'annotationTool',
  context: { selectedId: null, draft: null, path: [], manifest: null, slice: 1, grab: null },
  initial: 'idle',
  on: {
    'selection.sync': [{ guard: 'selects', target: '.selecting', actions: 'syncSelection' }, { target: '.idle', actions: 'syncSelection' }],
  },
  states: {
    // The draft goes on entering a resting state (not on leaving drawing: exit actions run before
    // the transition's own, which commit the draft).
    idle: {
      entry: 'clearDraft',
      on: {
        'pointer.down': [
          { guard: 'hitsHandle', target: 'resizing', actions: ['grab', 'emitSelection'] },
          { guard: 'hitsBody', target: 'moving', actions: ['grab', 'emitSelection'] },
          { guard: 'drawsRuler', target: 'drawing.ruler', actions: 'startRuler' },
          { guard: 'drawsArea', target: 'drawing.area', actions: 'startArea' },
          { guard: 'placesText', target: 'selecting', actions: ['placeText', 'selectPlaced'] },
          { guard: 'placesAngle', target: 'selecting', actions: ['placeAngle', 'selectPlaced'] },
        ],
      },
    },
    selecting: {
      entry: 'clearDraft',
      on: {
        'pointer.down': [
          { guard: 'hitsHandle', target: 'resizing', actions: ['grab', 'emitSelection'] },
          { guard: 'hitsBody', target: 'moving', actions: ['grab', 'emitSelection'] },
          { guard: 'drawsRuler', target: 'drawing.ruler', actions: ['deselect', 'emitSelection', 'startRuler'] },
          { guard: 'drawsArea', target: 'drawing.area', actions: ['deselect', 'emitSelection', 'startArea'] },
          { guard: 'placesText', target: 'selecting', reenter: true, actions: ['placeText', 'selectPlaced'] },
          { guard: 'placesAngle', target: 'selecting', reenter: true, actions: ['placeAngle', 'selectPlaced'] },
          { target: 'idle', actions: ['deselect', 'emitSelection'] },
        ],
        'key.delete': { guard: 'hasSelection', target: 'idle', actions: ['emitRemove', 'deselect'] },
        'key.escape': { target: 'idle', actions: ['deselect', 'emitSelection'] },
      },
    },
    drawing: {
      // Entered only through drawing.ruler or drawing.area; XState still wants a default.
      initial: 'ruler',
      on: { 'key.escape': 'idle' },
      states: {
        ruler: {
          on: {
            'pointer.move': { actions: 'followPointer' },
            // The second click sets the end and commits the ruler.
            'pointer.down': { target: '#annotationTool.selecting', actions: ['followPointer', 'commitDraft', 'selectDraft'] },
          },
        },
        area: {
          on: {
            'pointer.move': { actions: 'extendPath' },
            'pointer.up': [
              { guard: 'areaHasShape', target: '#annotationTool.selecting', actions: ['commitDraft', 'selectDraft'] },
              { target: '#annotationTool.idle' },
            ],
          },
        },
      },
    },
    // Moving (by the body) and resizing (by a handle) differ only in what `drag` does with the grab.
    moving: dragging,
    resizing: dragging,
  },
});
