/**
 * Which annotation, and which part of it, a pointer is on. Everything is in image pixels: the caller
 * converts HIT_RADIUS_PX (10 screen pixels, spec section 9) with the current zoom, e.g.
 * `hitTest(annotations, point, HIT_RADIUS_PX / screenPixelsPerImagePixel)`, so that the reach is
 * 10 px on screen at any zoom.
 */
import { smoothClosedCurve } from './curves.ts';
import type { Point, TypedAnnotation } from './manifest.ts';

/** 'start' | 'end' | 'origin' | `control-${i}` for handles, 'body' for the annotation itself. */
export type HitHandle = 'start' | 'end' | 'origin' | `control-${number}` | 'body';
export type Hit = { id: string; handle: HitHandle };

type Candidate = Hit & { distance: number };

/** Distance from p to the segment a-b. */
export function distanceToSegment(p: Point, a: Point, b: Point): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const lengthSquared = dx * dx + dy * dy;
  const t = lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/** Distance from p to a closed polyline (a single point when it has one). */
function distanceToClosedPolyline(p: Point, points: readonly Point[]): number {
  if (points.length === 1) return Math.hypot(p.x - points[0]!.x, p.y - points[0]!.y);
  let best = Infinity;
  for (let i = 0; i < points.length; i++) {
    best = Math.min(best, distanceToSegment(p, points[i]!, points[(i + 1) % points.length]!));
  }
  return best;
}

/** The draggable handles of an annotation. Text notes have none (they move as a whole). */
export function annotationHandles(annotation: TypedAnnotation): { handle: HitHandle; point: Point }[] {
  switch (annotation.type) {
    case 'ruler':
      return [
        { handle: 'start', point: { x: annotation.startX, y: annotation.startY } },
        { handle: 'end', point: { x: annotation.endX, y: annotation.endY } },
      ];
    case 'area':
      return annotation.controlPoints.map((point, i) => ({ handle: `control-${i}` as const, point }));
    case 'angle':
      return [
        { handle: 'origin', point: annotation.angle.origin },
        { handle: 'start', point: annotation.angle.startControl },
        { handle: 'end', point: annotation.angle.endControl },
      ];
    case 'text':
      return [];
  }
}

/** Distance from p to the annotation's body: its line, curve, arms, or the note's origin. */
export function distanceToBody(annotation: TypedAnnotation, p: Point): number {
  switch (annotation.type) {
    case 'ruler':
      return distanceToSegment(p, { x: annotation.startX, y: annotation.startY }, { x: annotation.endX, y: annotation.endY });
    case 'area':
      return annotation.controlPoints.length === 0 ? Infinity : distanceToClosedPolyline(p, smoothClosedCurve(annotation.controlPoints));
    case 'text':
      return Math.hypot(p.x - annotation.origin.x, p.y - annotation.origin.y);
    case 'angle': {
      const { origin, startControl, endControl } = annotation.angle;
      return Math.min(distanceToSegment(p, origin, startControl), distanceToSegment(p, origin, endControl));
    }
  }
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
    const distance = distanceToBody(annotation, point);
    if (distance <= radiusImagePx) bodies.push({ id: annotation.id, handle: 'body', distance });
  }
  return nearest(bodies);
}
