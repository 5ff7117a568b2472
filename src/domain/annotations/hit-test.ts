/**
 * Which annotation, and which part of it, a pointer is on. Everything is in image pixels: the caller
 * converts HIT_RADIUS_PX (10 screen pixels, spec section 9) with the current zoom, e.g.
 * `hitTest(annotations, point, HIT_RADIUS_PX / screenPixelsPerImagePixel)`, so that the reach is
 * 10 px on screen at any zoom.
 */
import type { Point, TypedAnnotation } from './manifest.ts';
import type { Handle, HitHandle } from './kinds/annotation-kind.ts';
import { kindOf } from './kinds/index.ts';

export type Hit = { id: string; handle: HitHandle };

type Candidate = Hit & { distance: number };

/** The draggable handles of an annotation (its kind's). Text notes have none (they move as a whole). */
export function annotationHandles(annotation: TypedAnnotation): Handle[] {
  return kindOf(annotation).handles(annotation);
}

/** The nearest candidate; on a tie the later one (drawn on top) wins. */
function nearest(candidates: Candidate[]): Hit | null {
  let best: Candidate | null = null;
  for (const candidate of candidates) if (!best || candidate.distance <= best.distance) best = candidate;
  return best && { id: best.id, handle: best.handle };
}

/**
 * The handle or body within `radiusImagePx` of the point. Handles of every annotation are tested
 * before any body, so a handle of one annotation wins over the body of another; among handles (then
 * among bodies) the nearest wins, and on a tie the annotation later in the list (drawn on top).
 */
export function hitTest(annotations: readonly TypedAnnotation[], point: Point, radiusImagePx: number): Hit | null {
  const handles: Candidate[] = [];
  for (const annotation of annotations) {
    for (const { handle, point: at } of annotationHandles(annotation)) {
      const distance = Math.hypot(point.x - at.x, point.y - at.y);
      if (distance <= radiusImagePx) handles.push({ id: annotation.id, handle, distance });
    }
  }
  if (handles.length > 0) return nearest(handles);
  const bodies: Candidate[] = [];
  for (const annotation of annotations) {
    const distance = kindOf(annotation).distance(annotation, point);
    if (distance <= radiusImagePx) bodies.push({ id: annotation.id, handle: 'body', distance });
  }
  return nearest(bodies);
}
