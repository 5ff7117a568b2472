import { assign, emit, setup } from 'xstate';
import { newAngle, newArea, newRuler, newText, moveHandle, passedDragThreshold, translateAnnotation } from '../../../domain/annotations/drag.ts';
import { hitTest, type Hit } from '../../../domain/annotations/hit-test.ts';
import type { AnnotationManifest, Point, TypedAnnotation } from '../../../domain/annotations/manifest.ts';
import type { ContourBorder } from '../../../domain/annotations/contour-set.ts';
import type { ToolId } from './tools.ts';

/**
 * The pointer tools' interaction (spec section 4), tldraw's way: a press on something goes to
 * `pointing`, and only a pointer that then passes the drag threshold starts `moving`, `resizing`,
 * `drawing.area` or `contouring`. A press and release within the threshold is a click: it selects
 * at most, and changes nothing. Pure: every pointer-down carries what the decision needs (the
 * manifest, the slice, the hit radius and drag threshold in image pixels), and changes leave the
 * machine as emitted events that the overlay hands to the annotation store.
 */
interface PressGeometry {
  point: Point;
  /** DRAG_THRESHOLD_PX screen pixels expressed in image pixels at the current zoom. */
  dragThreshold: number;
}

export interface PointerDown extends PressGeometry {
  type: 'pointer.down';
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

/** A press on a note card's grip: the note moves as a whole once the pointer passes the threshold. */
export interface GripDown extends PressGeometry {
  type: 'grip.down';
  annotation: TypedAnnotation;
}

/** A press on control point `index` of the slice's lumen or vessel contour (contour tool). */
export interface ContourDown extends PressGeometry {
  type: 'contour.down';
  slice: number;
  border: ContourBorder;
  controlPoints: readonly Point[];
  index: number;
}

export type AnnotationToolEvent =
  | PointerDown
  | GripDown
  | ContourDown
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
  | { type: 'remove'; id: string }
  | { type: 'contour.commit'; slice: number; border: ContourBorder; controlPoints: Point[] };

export interface ContourGrab {
  slice: number;
  border: ContourBorder;
  index: number;
  /** The contour's control points as dragged so far. */
  points: Point[];
}

export interface AnnotationToolContext {
  selectedId: string | null;
  /** The annotation being drawn (ruler or area), shown by the overlay. */
  draft: TypedAnnotation | null;
  /** Freehand points of an area being drawn. */
  path: Point[];
  manifest: AnnotationManifest | null;
  slice: number;
  /** Where the pointer went down, and how far it must go from there to drag. */
  press: { from: Point; threshold: number } | null;
  /** What a drag started from: the annotation, the handle and the pointer position. */
  grab: { original: TypedAnnotation; hit: Hit; from: Point; current: TypedAnnotation } | null;
  /** The contour control point (lumen or vessel) being pressed or dragged. */
  contour: ContourGrab | null;
}

function hitOf(event: PointerDown): { hit: Hit; annotation: TypedAnnotation } | null {
  const hit = hitTest(event.annotations, event.point, event.hitRadius);
  const annotation = hit && event.annotations.find((a) => a.id === hit.id);
  return hit && annotation ? { hit, annotation } : null;
}

const asDown = (event: AnnotationToolEvent) => event as PointerDown;
const pressOf = (event: AnnotationToolEvent) => {
  const { point, dragThreshold } = event as PressGeometry;
  return { from: point, threshold: dragThreshold };
};

/** A drag previews on every move, commits once on release, and Escape puts it back. */
const dragging = {
  on: {
    'pointer.move': { actions: ['drag', 'emitPreview'] },
    'pointer.up': { target: 'selecting', actions: ['drag', 'emitReplace', 'release'] },
    'key.escape': { target: 'selecting', actions: ['emitCancelPreview', 'release'] },
  },
} as const;

/** Pressed on an annotation: a move past the threshold drags it, a release is a click (selection only). */
const pointingAt = <T extends '#annotationTool.moving' | '#annotationTool.resizing'>(target: T) =>
  ({
    on: {
      'pointer.move': { guard: 'passedThreshold', target, actions: ['drag', 'emitPreview'] },
      'pointer.up': { target: '#annotationTool.selecting', actions: 'release' },
      'key.escape': { target: '#annotationTool.selecting', actions: 'release' },
    },
  }) as const;

export const annotationToolMachine = setup({
  types: {
    context: {} as AnnotationToolContext,
    events: {} as AnnotationToolEvent,
    emitted: {} as AnnotationToolEmitted,
  },
  guards: {
    hitsHandle: ({ event }) => {
      const handle = hitOf(asDown(event))?.hit.handle;
      return handle !== undefined && handle !== 'body';
    },
    hitsBody: ({ event }) => hitOf(asDown(event))?.hit.handle === 'body',
    drawsRuler: ({ event }) => asDown(event).tool === 'ruler',
    drawsArea: ({ event }) => asDown(event).tool === 'area',
    placesText: ({ event }) => asDown(event).tool === 'text',
    placesAngle: ({ event }) => asDown(event).tool === 'angle',
    hasSelection: ({ context }) => context.selectedId !== null,
    selects: ({ event }) => event.type === 'selection.sync' && event.id !== null,
    areaHasShape: ({ context }) => context.path.length >= 3,
    passedThreshold: ({ context, event }) =>
      event.type === 'pointer.move' && context.press !== null && passedDragThreshold(context.press.from, event.point, context.press.threshold),
  },
  actions: {
    press: assign(({ event }) => ({ press: pressOf(event) })),
    grab: assign(({ event }) => {
      const down = asDown(event);
      const found = hitOf(down)!;
      return {
        selectedId: found.annotation.id,
        grab: { original: found.annotation, hit: found.hit, from: down.point, current: found.annotation },
      };
    }),
    grabGrip: assign(({ event }) => {
      if (event.type !== 'grip.down') return {};
      const { annotation, point } = event;
      return { selectedId: annotation.id, grab: { original: annotation, hit: { id: annotation.id, handle: 'body' as const }, from: point, current: annotation } };
    }),
    grabContour: assign(({ event }) => {
      if (event.type !== 'contour.down') return {};
      return { contour: { slice: event.slice, border: event.border, index: event.index, points: event.controlPoints.map(({ x, y }) => ({ x, y })) } };
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
    clearDraft: assign({ draft: null, path: [], manifest: null, press: null }),
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
      if ((event.type !== 'pointer.move' && event.type !== 'pointer.up') || !context.grab) return {};
      const { original, hit, from } = context.grab;
      const current =
        hit.handle === 'body'
          ? translateAnnotation(original, event.point.x - from.x, event.point.y - from.y)
          : moveHandle(original, hit.handle, event.point);
      return { grab: { ...context.grab, current } };
    }),
    dragContour: assign(({ context, event }) => {
      if ((event.type !== 'pointer.move' && event.type !== 'pointer.up') || !context.contour) return {};
      const { index, points } = context.contour;
      return { contour: { ...context.contour, points: points.map((p, i) => (i === index ? event.point : p)) } };
    }),
    emitPreview: emit(({ context }) => ({ type: 'preview' as const, annotation: context.grab!.current })),
    emitReplace: emit(({ context }) => ({ type: 'replace' as const, annotation: context.grab!.current })),
    emitCancelPreview: emit({ type: 'cancelPreview' as const }),
    emitRemove: emit(({ context }) => ({ type: 'remove' as const, id: context.selectedId! })),
    emitContour: emit(({ context }) => ({ type: 'contour.commit' as const, slice: context.contour!.slice, border: context.contour!.border, controlPoints: context.contour!.points })),
    release: assign({ grab: null, press: null }),
    releaseContour: assign({ contour: null, press: null }),
  },
}).createMachine({
  id: 'annotationTool',
  context: { selectedId: null, draft: null, path: [], manifest: null, slice: 1, press: null, grab: null, contour: null },
  initial: 'idle',
  on: {
    'selection.sync': [{ guard: 'selects', target: '.selecting', actions: 'syncSelection' }, { target: '.idle', actions: 'syncSelection' }],
    'grip.down': { target: '.pointing.body', actions: ['press', 'grabGrip', 'emitSelection'] },
    'contour.down': { target: '.pointing.contour', actions: ['press', 'grabContour'] },
  },
  states: {
    // The draft goes on entering a resting state (not on leaving drawing: exit actions run before
    // the transition's own, which commit the draft).
    idle: {
      entry: 'clearDraft',
      on: {
        'pointer.down': [
          { guard: 'hitsHandle', target: 'pointing.handle', actions: ['press', 'grab', 'emitSelection'] },
          { guard: 'hitsBody', target: 'pointing.body', actions: ['press', 'grab', 'emitSelection'] },
          { guard: 'drawsRuler', target: 'drawing.ruler', actions: 'startRuler' },
          { guard: 'drawsArea', target: 'pointing.area', actions: ['press', 'startArea'] },
          { guard: 'placesText', target: 'selecting', actions: ['placeText', 'selectPlaced'] },
          { guard: 'placesAngle', target: 'selecting', actions: ['placeAngle', 'selectPlaced'] },
        ],
      },
    },
    selecting: {
      entry: 'clearDraft',
      on: {
        'pointer.down': [
          { guard: 'hitsHandle', target: 'pointing.handle', actions: ['press', 'grab', 'emitSelection'] },
          { guard: 'hitsBody', target: 'pointing.body', actions: ['press', 'grab', 'emitSelection'] },
          { guard: 'drawsRuler', target: 'drawing.ruler', actions: ['deselect', 'emitSelection', 'startRuler'] },
          { guard: 'drawsArea', target: 'pointing.area', actions: ['deselect', 'emitSelection', 'press', 'startArea'] },
          { guard: 'placesText', target: 'selecting', reenter: true, actions: ['placeText', 'selectPlaced'] },
          { guard: 'placesAngle', target: 'selecting', reenter: true, actions: ['placeAngle', 'selectPlaced'] },
          { target: 'idle', actions: ['deselect', 'emitSelection'] },
        ],
        'key.delete': { guard: 'hasSelection', target: 'idle', actions: ['emitRemove', 'deselect'] },
        'key.escape': { target: 'idle', actions: ['deselect', 'emitSelection'] },
      },
    },
    // The pointer is down and has not yet passed the drag threshold.
    pointing: {
      // Entered only through one of its children; XState still wants a default.
      initial: 'body',
      states: {
        handle: pointingAt('#annotationTool.resizing'),
        body: pointingAt('#annotationTool.moving'),
        area: {
          on: {
            'pointer.move': [{ guard: 'passedThreshold', target: '#annotationTool.drawing.area', actions: 'extendPath' }, { actions: 'extendPath' }],
            'pointer.up': '#annotationTool.idle',
            'key.escape': '#annotationTool.idle',
          },
        },
        contour: {
          on: {
            'pointer.move': { guard: 'passedThreshold', target: '#annotationTool.contouring', actions: 'dragContour' },
            'pointer.up': { target: '#annotationTool.idle', actions: 'releaseContour' },
            'key.escape': { target: '#annotationTool.idle', actions: 'releaseContour' },
          },
        },
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
    // Dragging a control point of the lumen or vessel contour: the release stores it as a manual correction of that border.
    contouring: {
      on: {
        'pointer.move': { actions: 'dragContour' },
        'pointer.up': { target: 'idle', actions: ['dragContour', 'emitContour', 'releaseContour'] },
        'key.escape': { target: 'idle', actions: 'releaseContour' },
      },
    },
  },
});
