/**
 * Slow and hostile requests (issues 16 and 24). Fastify's own timeouts are 0 (none), so a client
 * could hold a connection open as long as it liked by sending its headers or its body a byte at a time:
 * - request headers must arrive within HEADERS_TIMEOUT_MS;
 * - EVERY body (JSON, uploads and multipart saves, the identity provider's token endpoint and sign-in
 *   forms) is watched from the moment its headers arrive:
 *   - a request that is not signed in (the provider's endpoints and forms, or an API request about to
 *     be answered 401) must deliver its whole body within `unauthenticatedSeconds`;
 *   - a signed-in request's body must deliver at least `minBytesPerSecond` x `windowSeconds` bytes in
 *     every `windowSeconds` (so a body that delivers nothing for 30 s is cut), however long it is:
 *     a slow but steady upload goes on;
 *   a body that falls behind is answered 408 and its connection is closed, whoever reads it (Fastify's
 *   parser, the multipart reader, or oidc-provider reading the raw stream);
 * - a whole request, uploads included, within REQUEST_TIMEOUT_SECONDS;
 * - an idle keep-alive connection is closed after KEEP_ALIVE_TIMEOUT_MS.
 * Progress is read from the socket's byte count, not from whoever reads the body: a reader that is
 * slow itself (backpressure, bytes waiting in the request's buffer) never counts against the client.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export const HEADERS_TIMEOUT_MS = 30_000;
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export type BodyLimits = {
  /** A signed-in body's window, in seconds (BODY_TIMEOUT_SECONDS). */
  windowSeconds: number;
  /** The least a signed-in body must deliver per second, averaged over each window. */
  minBytesPerSecond: number;
  /** A body of a request that is not signed in must be complete within this many seconds. */
  unauthenticatedSeconds: number;
};

/** Fastify options for the whole server's timeouts. */
export function serverTimeouts(requestTimeoutSeconds: number) {
  return { requestTimeout: requestTimeoutSeconds * 1000, keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS, connectionTimeout: 0 };
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/** Answers 408 if nothing was answered yet, then closes the connection whatever was. */
function cutBody(raw: IncomingMessage, response: ServerResponse, message: string): void {
  const socket = raw.socket;
  if (!response.headersSent && !response.writableEnded) {
    // Written here, not through Fastify: the body's reader may be oidc-provider or the multipart
    // reader, which would answer a broken stream in their own ways (or not at all).
    const body = JSON.stringify({ error: 'request_timeout', message });
    response.writeHead(408, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
    response.end(body, () => socket.destroy());
    // Should the client not read the answer, the connection goes anyway.
    setTimeout(() => socket.destroy(), 1000).unref();
  } else {
    socket.destroy();
  }
}

class BodyWatch {
  private timer: NodeJS.Timeout | undefined;
  private readonly raw: IncomingMessage;
  private readonly response: ServerResponse;
  private readonly limits: BodyLimits;
  private readonly onSocketClose = () => this.stop();

  constructor(raw: IncomingMessage, response: ServerResponse, limits: BodyLimits) {
    this.raw = raw;
    this.response = response;
    this.limits = limits;
    this.timer = setTimeout(() => {
      if (!this.done()) cutBody(raw, response, `The request body did not arrive within ${limits.unauthenticatedSeconds} s.`);
    }, limits.unauthenticatedSeconds * 1000);
    this.timer.unref();
    // Until the body is in, or the connection has gone: a body left unread after an early answer
    // (401) is still drained by Node, and still watched.
    raw.once('end', () => this.stop());
    // Removed again once the body is in: a keep-alive socket carries many requests.
    raw.socket.once('close', this.onSocketClose);
  }

  /** The request is signed in: from now on the body need only keep up the minimum rate. */
  signedIn(): void {
    if (this.done()) return this.stop();
    clearTimeout(this.timer);
    const { windowSeconds, minBytesPerSecond } = this.limits;
    const required = Math.max(1, minBytesPerSecond * windowSeconds);
    let before = this.raw.socket.bytesRead;
    this.timer = setInterval(() => {
      if (this.done()) return this.stop();
      const now = this.raw.socket.bytesRead;
      // Bytes waiting in the request's buffer: our reader is behind, not the client.
      if (now - before < required && this.raw.readableLength === 0) {
        this.stop();
        cutBody(this.raw, this.response, `The request body arrived slower than ${minBytesPerSecond} bytes a second over ${windowSeconds} s.`);
      }
      before = now;
    }, windowSeconds * 1000);
    this.timer.unref();
  }

  private done(): boolean {
    return this.raw.complete || this.raw.socket.destroyed;
  }

  private stop(): void {
    clearTimeout(this.timer);
    clearInterval(this.timer);
    this.raw.socket.off('close', this.onSocketClose);
  }
}

const watches = new WeakMap<IncomingMessage, BodyWatch>();

/** Installs the body watch on every request of the server (call on the root instance). */
export function installRequestLimits(app: FastifyInstance, limits: BodyLimits): void {
  app.server.headersTimeout = HEADERS_TIMEOUT_MS;
  // The first hook of all: the clock starts once the headers are in, before any authentication.
  app.addHook('onRequest', async (request, reply) => {
    // Injected requests (tests, light-my-request) have no socket to watch or close.
    if (hasBody(request) && request.raw.socket instanceof Socket) watches.set(request.raw, new BodyWatch(request.raw, reply.raw, limits));
  });
  // preParsing runs after every onRequest hook, the API's authentication (auth/authenticate.ts) included.
  app.addHook('preParsing', async (request, _reply, payload) => {
    if (request.principal) watches.get(request.raw)?.signedIn();
    return payload;
  });
}
