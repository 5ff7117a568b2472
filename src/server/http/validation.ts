import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';

/** A 400 whose message says which parameter was wrong and why. */
export class BadRequestError extends Error {
  readonly statusCode = 400;
}

export class NotFoundError extends Error {
  readonly statusCode = 404;
}

export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const message = result.error.issues
    .map((issue) => {
      if (issue.code === 'unrecognized_keys') return `unknown parameter ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
      const where = issue.path.join('.');
      return where ? `${where}: ${issue.message}` : issue.message;
    })
    .join('; ');
  throw new BadRequestError(message);
}

/**
 * Text PostgreSQL cannot store, or that is not text at all (issue 24): a NUL character (PostgreSQL
 * refuses it in text, which was a 500) and an unpaired UTF-16 surrogate ("\ud800", which JSON may
 * carry but UTF-8 cannot encode: silently stored as U+FFFD, or refused). Where the first such string
 * is, as `body.name`, `query.q`, or null.
 */
export function unstorableTextAt(value: unknown, where: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') || !value.isWellFormed() ? where : null;
  // Bodies are at most 1 MiB; nesting deeper than this is not ours to read.
  if (value === null || typeof value !== 'object' || depth > 32) return null;
  for (const [key, item] of Object.entries(value)) {
    const at = `${where}.${key}`;
    if (key.includes('\u0000') || !key.isWellFormed()) return at;
    const found = unstorableTextAt(item, at, depth + 1);
    if (found) return found;
  }
  return null;
}

/** Throws a 400 naming where, if `value` holds text that cannot be stored (a form read by a route itself). */
export function refuseUnstorableText(value: unknown, where: string): void {
  const found = unstorableTextAt(value, where);
  if (found) throw new BadRequestError(`${found}: must not contain a NUL character or an unpaired surrogate (broken Unicode text).`);
}

/**
 * Refuses, with 400, any request whose query, path parameters or parsed body hold a string that
 * cannot be stored as text, before any route sees it: one check for every route (the API, the
 * sign-in forms, the provider's query parameters), rather than one refinement per schema.
 */
export function installTextCheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    refuseUnstorableText(request.query, 'query');
    refuseUnstorableText(request.params, 'path');
    refuseUnstorableText(request.body, 'body');
  });
}
