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
