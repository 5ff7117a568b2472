import { assign, fromCallback, setup, type SnapshotFrom } from 'xstate';
import { newAngle, newArea, newRuler, newText, moveHandle, passedDragThreshold, translateAnnotation } from '../../../domain/annotations/drag.ts';
import { annotationsOnSlice } from '../../../domain/annotations/edits.ts';
import { hitTest, type Hit } from '../../../domain/annotations/hit-test.ts';
import type { AnnotationManifest, Point, TypedAnnotation } from '../../../domain/annotations/manifest.ts';
import { setStentCorrection, type EditableBorder } from '../../../domain/annotations/stent-corrections.ts';
import type { AnnotationStore } from '../manifest/annotation-store.ts';
import { commitBorderCorrection } from '../manifest/border-corrections.ts';
import type { ToolId } from './tools.ts';

/**
 * The pointer tools' interaction (spec section 4), tldraw's way: a press on something goes to
 * `pointing`, and only a pointer that then passes the drag threshold starts `moving`, `resizing`,
 * `drawing.area` or `contouring`. A press and release within the threshold is a click: it selects
 * at most, and changes nothing.
 *
 * The annotation store is the one owner of the manifest and of the selection (issue 25): the
 * machine is given the store and the current slice in its input, reads the slice's annotations
 * and the selection from the store when it decides, and writes every change (the selection
 * included) through the store. It keeps only what a gesture in progress needs (the draft, the
 * press, the grab), so nothing has to be kept in step by hand. At rest there is one state, `idle`;
 * "selecting" is that state while the store has a selection (`interactionOf`).
 */
export interface AnnotationToolInput {
  store: AnnotationStore;
  /** The slice shown (the review's slice cursor): new annotations go on it, presses hit its annotations. */
  slice: () => number;
}

interface PressGeometry {
  point: Point;
  /** DRAG_THRESHOLD_PX screen pixels expressed in image pixels at the current zoom. */
  dragThreshold: number;
}

export interface PointerDown extends PressGeometry {
  type: 'pointer.down';
  tool: ToolId | null;
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

/** A press on control point `index` of the slice's lumen, vessel or stent border (contour tool). */
export interface ContourDown extends PressGeometry {
  type: 'contour.down';
  slice: number;
  border: EditableBorder;
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
  /** From the store while drawing: something else was selected (only a drawing listens for it). */
  | { type: 'selection.elsewhere' };

export interface ContourGrab {
  slice: number;
  border: EditableBorder;
  index: number;
  /** The contour's control points as dragged so far. */
  points: Point[];
}

export interface AnnotationToolContext {
  store: AnnotationStore;
  currentSlice: () => number;
  /** The annotation being drawn (ruler or area), shown by the overlay. */
  draft: TypedAnnotation | null;
  /** Freehand points of an area being drawn. */
  path: Point[];
  /** The manifest a drawing started from (its labels), and the slice it is drawn on. */
  manifest: AnnotationManifest | null;
  slice: number;
  /** Where the pointer went down, and how far it must go from there to drag. */
  press: { from: Point; threshold: number } | null;
  /** What a drag started from: the annotation, the handle and the pointer position. */
  grab: { original: TypedAnnotation; hit: Hit; from: Point; current: TypedAnnotation } | null;
  /** The contour control point (lumen or vessel) being pressed or dragged. */
  contour: ContourGrab | null;
}

/** The slice's annotations as the store holds them now, with the one under the press. */
function hitOf(context: AnnotationToolContext, event: PointerDown): { hit: Hit; annotation: TypedAnnotation } | null {
  const annotations = annotationsOnSlice(context.store.getSnapshot().history.present, context.currentSlice());
  const hit = hitTest(annotations, event.point, event.hitRadius);
  const annotation = hit && annotations.find((a) => a.id === hit.id);
  return hit && annotation ? { hit, annotation } : null;
}

/** The machine's top-level state: `idle`, `pointing`, `drawing`, `moving`, `resizing` or `contouring`. */
export function topStateOf(snapshot: SnapshotFrom<typeof annotationToolMachine>): string {
  return typeof snapshot.value === 'string' ? snapshot.value : Object.keys(snapshot.value)[0]!;
}

/**
 * The interaction as the overlay and the developer overlay name it: the machine's top state, with
 * `selecting` for a machine at rest while the store has a selection.
 */
export function interactionOf(topState: string, selectedId: string | null): string {
  return topState === 'idle' && selectedId !== null ? 'selecting' : topState;
}

/**
 * While a drawing is under way, a selection made elsewhere (a card, redo) ends it, as a click
 * would. Only a drawing handles the event: the store's own selection of the drawing just committed
 * arrives once the machine is at rest, where it means nothing.
 */
const selectionElsewhere = fromCallback<{ type: 'never' }, { store: AnnotationStore }>(({ input, sendBack }) => {
  const before = input.store.getSnapshot().selectedId;
  return input.store.subscribe(() => {
    const now = input.store.getSnapshot().selectedId;
    if (now !== null && now !== before) sendBack({ type: 'selection.elsewhere' });
  });
});

const asDown = (event: AnnotationToolEvent) => event as PointerDown;
const pressOf = (event: AnnotationToolEvent) => {
  const { point, dragThreshold } = event as PressGeometry;
  return { from: point, threshold: dragThreshold };
};

/** A drag previews on every move, commits once on release, and Escape puts it back. */
const dragging = {
  on: {
    'pointer.move': { actions: ['drag', 'preview'] },
    'pointer.up': { target: 'idle', actions: ['drag', 'replace', 'release'] },
    'key.escape': { target: 'idle', actions: ['cancelPreview', 'release'] },
  },
} as const;

/** Pressed on an annotation: a move past the threshold drags it, a release is a click (selection only). */
const pointingAt = <T extends '#annotationTool.moving' | '#annotationTool.resizing'>(target: T) =>
  ({
    on: {
      'pointer.move': { guard: 'passedThreshold', target, actions: ['drag', 'preview'] },
      'pointer.up': { target: '#annotationTool.idle', actions: 'release' },
      'key.escape': { target: '#annotationTool.idle', actions: 'release' },
    },
  }) as const;

export const annotationToolMachine = setup({
  types: {
    context: {} as AnnotationToolContext,
    events: {} as AnnotationToolEvent,
    input: {} as AnnotationToolInput,
  },
  actors: { selectionElsewhere },
  guards: {
    hitsHandle: ({ context, event }) => {
      const handle = hitOf(context, asDown(event))?.hit.handle;
      return handle !== undefined && handle !== 'body';
    },
    hitsBody: ({ context, event }) => hitOf(context, asDown(event))?.hit.handle === 'body',
    drawsRuler: ({ event }) => asDown(event).tool === 'ruler',
    drawsArea: ({ event }) => asDown(event).tool === 'area',
    placesText: ({ event }) => asDown(event).tool === 'text',
    placesAngle: ({ event }) => asDown(event).tool === 'angle',
    hasSelection: ({ context }) => context.store.getSnapshot().selectedId !== null,
    areaHasShape: ({ context }) => context.path.length >= 3,
    passedThreshold: ({ context, event }) =>
      event.type === 'pointer.move' && context.press !== null && passedDragThreshold(context.press.from, event.point, context.press.threshold),
  },
  actions: {
    press: assign(({ event }) => ({ press: pressOf(event) })),
    grab: assign(({ context, event }) => {
      const down = asDown(event);
      const found = hitOf(context, down)!;
      return { grab: { original: found.annotation, hit: found.hit, from: down.point, current: found.annotation } };
    }),
    grabGrip: assign(({ event }) => {
      if (event.type !== 'grip.down') return {};
      const { annotation, point } = event;
      return { grab: { original: annotation, hit: { id: annotation.id, handle: 'body' as const }, from: point, current: annotation } };
    }),
    /** The grabbed annotation becomes the store's selection. */
    selectGrabbed: ({ context }) => context.store.select(context.grab!.original.id),
    grabContour: assign(({ event }) => {
      if (event.type !== 'contour.down') return {};
      return { contour: { slice: event.slice, border: event.border, index: event.index, points: event.controlPoints.map(({ x, y }) => ({ x, y })) } };
    }),
    startRuler: assign(({ context, event }) => {
      const down = asDown(event);
      const manifest = context.store.getSnapshot().history.present;
      const slice = context.currentSlice();
      return { manifest, slice, draft: newRuler(manifest, slice, down.point, down.point) };
    }),
    startArea: assign(({ context, event }) => {
      const down = asDown(event);
      return { manifest: context.store.getSnapshot().history.present, slice: context.currentSlice(), path: [down.point], draft: null };
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
    // The store adds and selects what was drawn or placed (with a fresh id if undo or redo took its label meanwhile).
    commitDraft: ({ context }) => context.store.add(context.draft!),
    clearDraft: assign({ draft: null, path: [], manifest: null, press: null }),
    placeText: ({ context, event }) => {
      const manifest = context.store.getSnapshot().history.present;
      context.store.add(newText(manifest, context.currentSlice(), asDown(event).point), { focusText: true });
    },
    placeAngle: ({ context, event }) => {
      const down = asDown(event);
      context.store.add(newAngle(context.store.getSnapshot().history.present, context.currentSlice(), down.center, down.armLength));
    },
    deselect: ({ context }) => {
      if (context.store.getSnapshot().selectedId !== null) context.store.select(null);
    },
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
    preview: ({ context }) => context.store.preview(context.grab!.current),
    replace: ({ context }) => context.store.replace(context.grab!.current),
    cancelPreview: ({ context }) => context.store.cancelPreview(),
    removeSelected: ({ context }) => context.store.remove(context.store.getSnapshot().selectedId!),
    // A lumen or vessel correction is a key frame: it propagates to the neighbouring slices (a stent one holds on its slice).
    commitContour: ({ context }) => {
      const { slice, points, border } = context.contour!;
      if (border === 'stent') context.store.commit(setStentCorrection(context.store.getSnapshot().history.present, slice, points));
      else commitBorderCorrection(context.store, slice, points, border);
    },
    release: assign({ grab: null, press: null }),
    releaseContour: assign({ contour: null, press: null }),
  },
}).createMachine({
  id: 'annotationTool',
  context: ({ input }) => ({ store: input.store, currentSlice: input.slice, draft: null, path: [], manifest: null, slice: 1, press: null, grab: null, contour: null }),
  initial: 'idle',
  on: {
    'grip.down': { target: '.pointing.body', actions: ['press', 'grabGrip', 'selectGrabbed'] },
    'contour.down': { target: '.pointing.contour', actions: ['press', 'grabContour'] },
  },
  states: {
    // At rest, with or without a selection (the store's). The draft goes on entering it (not on
    // leaving drawing: exit actions run before the transition's own, which commit the draft).
    idle: {
      entry: 'clearDraft',
      on: {
        'pointer.down': [
          { guard: 'hitsHandle', target: 'pointing.handle', actions: ['press', 'grab', 'selectGrabbed'] },
          { guard: 'hitsBody', target: 'pointing.body', actions: ['press', 'grab', 'selectGrabbed'] },
          { guard: 'drawsRuler', target: 'drawing.ruler', actions: ['deselect', 'startRuler'] },
          { guard: 'drawsArea', target: 'pointing.area', actions: ['deselect', 'press', 'startArea'] },
          { guard: 'placesText', target: 'idle', reenter: true, actions: 'placeText' },
          { guard: 'placesAngle', target: 'idle', reenter: true, actions: 'placeAngle' },
          { actions: 'deselect' },
        ],
        'key.delete': { guard: 'hasSelection', actions: ['removeSelected', 'deselect'] },
        'key.escape': { actions: 'deselect' },
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
          invoke: { src: 'selectionElsewhere', input: ({ context }) => ({ store: context.store }) },
          on: {
            'pointer.move': [{ guard: 'passedThreshold', target: '#annotationTool.drawing.area', actions: 'extendPath' }, { actions: 'extendPath' }],
            'pointer.up': '#annotationTool.idle',
            'key.escape': '#annotationTool.idle',
            'selection.elsewhere': '#annotationTool.idle',
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
      invoke: { src: 'selectionElsewhere', input: ({ context }) => ({ store: context.store }) },
      on: { 'key.escape': 'idle', 'selection.elsewhere': 'idle' },
      states: {
        ruler: {
          on: {
            'pointer.move': { actions: 'followPointer' },
            // The second click sets the end and commits the ruler.
            'pointer.down': { target: '#annotationTool.idle', actions: ['followPointer', 'commitDraft'] },
          },
        },
        area: {
          on: {
            'pointer.move': { actions: 'extendPath' },
            'pointer.up': [
              { guard: 'areaHasShape', target: '#annotationTool.idle', actions: 'commitDraft' },
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
        'pointer.up': { target: 'idle', actions: ['dragContour', 'commitContour', 'releaseContour'] },
        'key.escape': { target: 'idle', actions: 'releaseContour' },
      },
    },
  },
});
