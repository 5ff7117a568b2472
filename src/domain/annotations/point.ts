/**
 * Zod building blocks shared by the annotation manifest and the contour set: strict objects whose
 * messages name the problem, finite numbers, and points in image pixels.
 */
import { z } from 'zod';

/** An error option saying `missing` for an absent field and `text` for a wrong one. */
export function expected(text: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? `missing (${text})` : text);
}

/** Unknown fields are rejected with a message naming them. */
export function strict<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`
        : expected('expected an object')(issue),
  });
}

export const finite = () => z.number({ error: expected('expected a finite number') });

export const PointSchema = strict({ x: finite(), y: finite() });
/** A point in image pixels; structurally compatible with the branded ImagePoint of domain/image-point.ts. */
export type Point = { x: number; y: number };
export type ImagePointLike = Point;

