/**
 * Slow and hostile requests (issue 16). Fastify's own timeouts are 0 (none), so a client could hold
 * a connection open as long as it liked by sending its headers or its body a byte at a time:
 * - request headers must arrive within HEADERS_TIMEOUT_MS;
 * - a body other than an upload must arrive within BODY_TIMEOUT_SECONDS (a JSON body is at most
 *   1 MiB), else 408 and the connection is closed;
 * - a whole request, uploads included, within REQUEST_TIMEOUT_SECONDS;
 * - an idle keep-alive connection is closed after KEEP_ALIVE_TIMEOUT_MS.
 * Authentication runs in onRequest (auth/authenticate.ts), so no body is read for a request that is
 * not signed in. The identity provider's protocol endpoints (token, revocation) read their small
 * bodies themselves and are bound by the whole-request timeout only.
 */
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';

export const HEADERS_TIMEOUT_MS = 30_000;
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export class BodyTimeoutError extends Error {
  readonly statusCode = 408;
}

/** Fastify options for the whole server's timeouts. */
export function serverTimeouts(requestTimeoutSeconds: number) {
  return { requestTimeout: requestTimeoutSeconds * 1000, keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS, connectionTimeout: 0 };
}

/** `readsOwnBody(url)`: routes whose handler reads the raw body itself (the identity provider's protocol endpoints). */
export function installRequestLimits(app: FastifyInstance, bodyTimeoutSeconds: number, readsOwnBody: (url: string) => boolean): void {
  app.server.headersTimeout = HEADERS_TIMEOUT_MS;
  app.addHook('preParsing', async (request, reply, payload) => {
    // Uploads stream to disk for as long as they take, within the whole-request timeout; a route that
    // reads the raw body itself must get it untouched.
    if (String(request.headers['content-type'] ?? '').startsWith('multipart/') || readsOwnBody(request.url)) return payload;
    if (request.headers['content-length'] === '0' || (!request.headers['content-length'] && !request.headers['transfer-encoding'])) return payload;
    const guarded = new PassThrough();
    // Fastify's body reader listens for the timeout's error and answers 408; when nothing reads the
    // body any more (the request was answered or abandoned), the error must not become an uncaught
    // exception that stops the server.
    guarded.on('error', () => {});
    const timer = setTimeout(() => {
      // Answered with 408, then the connection goes: the rest of a trickled body is not waited for.
      reply.header('connection', 'close');
      guarded.destroy(new BodyTimeoutError(`The request body did not arrive within ${bodyTimeoutSeconds} s.`));
      payload.unpipe(guarded);
    }, bodyTimeoutSeconds * 1000);
    timer.unref();
    payload.on('end', () => clearTimeout(timer));
    payload.on('close', () => clearTimeout(timer));
    payload.on('error', (error) => {
      clearTimeout(timer);
      guarded.destroy(error);
    });
    payload.pipe(guarded);
    return guarded;
  });
}
