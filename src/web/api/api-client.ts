import type { z } from 'zod';
import { ApiErrorSchema } from '../../domain/patients.ts';
import { DEFAULT_TOKEN_TYPE } from '../../domain/constants.ts';
import { FRAME_LOCATION_TYPE } from '../../domain/frame-location.ts';
import { STREAMED_FRAME_HEADER, URGENT_FRAME_HEADER } from '../../domain/images.ts';
import { createFrameLocationBook } from './frame-location-book.ts';
import { followFrameLocation } from './follow-frame-location.ts';

/** Every API address starts here; the tenant follows (spec section 7). */
export const API_ROOT = '/api';

export type QueryValue = string | number | boolean | null | undefined;
export type QueryParams = Record<string, QueryValue>;

export interface ApiCredentials {
  idToken: string;
  tokenType?: string | null;
}

/** A failed API call: the HTTP status (0 when the server was not reached) and a sentence a person can read. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** The whole JSON answer, for callers that read more than the message (a conflict's latest version). */
  readonly details: unknown;

  constructor(status: number, code: string, message: string, details: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export interface ApiRequest<T> {
  /** e.g. 'patients', or a path the server handed out such as 'records/r1/previews/bmode'. */
  resource: string;
  /** Appended to the resource, each one URL-encoded. */
  pathParams?: readonly (string | number)[];
  query?: QueryParams;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON, or as multipart when it is a FormData. */
  body?: unknown;
  schema: z.ZodType<T>;
  signal?: AbortSignal;
}

/** A request whose answer is NDJSON (`application/x-ndjson`): one JSON value a line, each checked against `schema`. */
export interface ApiLinesRequest<T> {
  resource: string;
  pathParams?: readonly (string | number)[];
  query?: QueryParams;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH';
  /** Sent as JSON. */
  body?: unknown;
  /** The schema of every line. */
  schema: z.ZodType<T>;
  signal?: AbortSignal;
}

export const NDJSON_TYPE = 'application/x-ndjson';

/** Where a body's bytes go as they arrive (a frame pack's decode worker). */
export interface ByteSink {
  /** A body starts: anything given before belonged to an answer that broke off. */
  begin(): void;
  part(bytes: Uint8Array): void;
}

/**
 * A frame chunk's answer that sends nothing more for this long, once it has begun, has stalled: a
 * proxy or store that stopped mid-answer without closing the connection. fetch has no read
 * timeout, and the page would show "Loading … 95%" for ever; the answer is dropped and asked again
 * (BYTES_RETRY_DELAYS_MS), and then reported missing. Before the answer begins the server may
 * still be making the chunk, which is not a stall.
 */
export const BODY_STALL_MS = 30_000;

/** The next part of a body, or a rejection once none came for BODY_STALL_MS (the rest is then cancelled). */
async function readOrStall(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<ReadableStreamReadResult<Uint8Array>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no bytes for ${BODY_STALL_MS / 1000} s`)), BODY_STALL_MS);
  });
  try {
    return await Promise.race([reader.read(), stalled]);
  } catch (error) {
    reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** A body handed to `sink` part by part as it arrives. */
async function streamBody(response: Response, sink: ByteSink): Promise<void> {
  sink.begin();
  if (!response.body) return sink.part(new Uint8Array(await response.arrayBuffer()));
  const reader = response.body.getReader();
  for (let read = await readOrStall(reader); !read.done; read = await readOrStall(reader)) sink.part(read.value);
}

/** The whole body, read as streamBody reads it (so a stalled one is given up too). */
async function wholeBody(response: Response): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  await streamBody(response, { begin: () => void (parts.length = 0), part: (bytes) => void parts.push(bytes) });
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  parts.reduce((at, part) => (whole.set(part, at), at + part.length), 0);
  return whole;
}

export interface ApiClient {
  request<T>(request: ApiRequest<T>): Promise<T>;
  /**
   * The lines of an NDJSON answer as they arrive, with the authorization and error answers of
   * `request`: a non-2xx answer (a plain JSON error) throws its ApiError before any line; a
   * connection lost while reading throws a network_error (status 0); a line that cannot be read
   * throws invalid_response. Leaving the loop early cancels the rest of the answer.
   */
  requestLines<T>(request: ApiLinesRequest<T>): AsyncGenerator<T, void, undefined>;
  get<T>(schema: z.ZodType<T>, resource: string, options?: Omit<ApiRequest<T>, 'schema' | 'resource' | 'method'>): Promise<T>;
  /** Binary content (preview images) fetched with the same authorization. */
  getBlob(resource: string, options?: { signal?: AbortSignal }): Promise<Blob>;
  /**
   * Binary content (frame chunks) with the same authorization; `null` while the server answers 202
   * (still being made). With `body`, the bytes go there as they arrive (begun again when a request
   * is retried) and the answer holds none of them.
   */
  getBytes(resource: string, options?: { signal?: AbortSignal; urgent?: boolean; body?: ByteSink }): Promise<Uint8Array | null>;
  /** The Authorization header of the signed-in user (handed to the frames service worker), or null. */
  authorization(): string | null;
  /** The absolute path of an API resource, e.g. for the service worker to fetch. */
  url(resource: string): string;
}

export interface ApiClientOptions {
  tenant: string;
  /** The signed-in user's tokens, read at every call so renewed tokens are used at once. */
  getCredentials: () => ApiCredentials | null;
  /** Called on 401: the session is no longer valid. */
  onUnauthorized: () => void;
  fetch?: typeof fetch;
}

/** `/api/{tenant}/{resource}[/pathParams][?queryParams]`; empty query values are left out. */
export function buildApiUrl(
  tenant: string,
  resource: string,
  pathParams: readonly (string | number)[] = [],
  query: QueryParams = {},
): string {
  const path = [encodeURIComponent(tenant), resource.replace(/^\/+|\/+$/g, ''), ...pathParams.map((p) => encodeURIComponent(String(p)))]
    .filter((segment) => segment !== '')
    .join('/');
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== null && value !== undefined && value !== '') search.append(name, String(value));
  }
  const queryString = search.toString();
  return `${API_ROOT}/${path}${queryString ? `?${queryString}` : ''}`;
}

export function authorizationHeader(credentials: ApiCredentials): string {
  return `${credentials.tokenType || DEFAULT_TOKEN_TYPE} ${credentials.idToken}`;
}

/** The ApiError of a failed answer from its status and JSON body (null when it had none), as `request` throws it. */
export function apiErrorOf(status: number, body: unknown): ApiError {
  const parsed = ApiErrorSchema.safeParse(body);
  if (parsed.success) return new ApiError(status, parsed.data.error, parsed.data.message, body);
  return new ApiError(status, 'http_error', `The server answered with HTTP ${status}.`, body);
}

async function errorFromResponse(response: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // Not every failure has a JSON body (a proxy's 502 page, for instance).
  }
  return apiErrorOf(response.status, body);
}

const unreadable = (status: number) => new ApiError(status, 'invalid_response', 'The server sent an answer that could not be read.');
const NETWORK_MESSAGE = 'The server could not be reached. Check the connection and try again.';

/**
 * A frame chunk is asked again after these pauses when its answer came from a proxy whose server
 * was gone (502, 503, 504) or the connection broke: what a replica that dies under a balancer
 * looks like, for a second or so, and the page never asks for a chunk it failed to load again.
 * A GET of stored bytes is safe to repeat; nothing that changes data is ever retried here.
 */
export const BYTES_RETRY_DELAYS_MS: readonly number[] = [300, 1000];
const isTransient = (error: unknown) => error instanceof ApiError && (error.status === 0 || error.status === 502 || error.status === 503 || error.status === 504);

export function createApiClient({ tenant, getCredentials, onUnauthorized, fetch: fetchImpl }: ApiClientOptions): ApiClient {
  const doFetch = fetchImpl ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  // Frame chunks without the service worker: store locations in batches once the store delivers.
  const frameFetch = createFrameLocationBook(doFetch);

  async function send(
    method: string,
    resource: string,
    accept: string,
    options: { pathParams?: readonly (string | number)[]; query?: QueryParams; body?: unknown; signal?: AbortSignal; urgent?: boolean; streamed?: boolean; frames?: boolean },
  ): Promise<Response> {
    const headers: Record<string, string> = { Accept: accept };
    if (options.urgent) headers[URGENT_FRAME_HEADER] = '1';
    if (options.streamed) headers[STREAMED_FRAME_HEADER] = '1';
    const credentials = getCredentials();
    if (credentials) headers.Authorization = authorizationHeader(credentials);
    const multipart = options.body instanceof FormData;
    // A FormData body sets its own multipart Content-Type (with the boundary).
    if (options.body !== undefined && !multipart) headers['Content-Type'] = 'application/json';

    let response: Response;
    try {
      response = await (options.frames ? frameFetch : doFetch)(buildApiUrl(tenant, resource, options.pathParams, options.query), {
        method,
        headers,
        body: options.body === undefined ? undefined : multipart ? (options.body as FormData) : JSON.stringify(options.body),
        signal: options.signal,
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new ApiError(0, 'network_error', NETWORK_MESSAGE);
    }
    if (response.status === 401) onUnauthorized();
    if (!response.ok) throw await errorFromResponse(response);
    return response;
  }

  async function request<T>({ resource, pathParams, query, method = 'GET', body, schema, signal }: ApiRequest<T>): Promise<T> {
    const response = await send(method, resource, 'application/json', { pathParams, query, body, signal });
    let json: unknown;
    try {
      json = response.status === 204 ? null : await response.json();
    } catch {
      throw unreadable(response.status);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      console.error(`Unexpected answer from ${method} ${resource}`, parsed.error.issues);
      throw unreadable(response.status);
    }
    return parsed.data;
  }

  async function* requestLines<T>({ resource, pathParams, query, method = 'POST', body, schema, signal }: ApiLinesRequest<T>): AsyncGenerator<T, void, undefined> {
    const response = await send(method, resource, NDJSON_TYPE, { pathParams, query, body, signal });
    if (!response.body) return;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const parseLine = (line: string): T => {
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        throw unreadable(response.status);
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        console.error(`Unexpected line from ${method} ${resource}`, parsed.error.issues);
        throw unreadable(response.status);
      }
      return parsed.data;
    };
    /** What came after the last line break: the start of a line the next chunk ends. */
    let pending = '';
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          if (signal?.aborted) throw error;
          throw new ApiError(0, 'network_error', NETWORK_MESSAGE);
        }
        pending += chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
        const lines = pending.split('\n');
        pending = chunk.done ? '' : (lines.pop() ?? '');
        for (const line of lines) {
          if (line.trim() !== '') yield parseLine(line);
        }
        if (chunk.done) return;
      }
    } finally {
      // Left early (the caller has what it needs, or a line could not be read): the rest is not wanted.
      reader.cancel().catch(() => undefined);
    }
  }

  return {
    request,
    requestLines,
    get: (schema, resource, options = {}) => request({ ...options, schema, resource, method: 'GET' }),
    async getBlob(resource, options = {}) {
      const response = await send('GET', resource, 'image/*, application/json', options);
      return response.blob();
    },
    async getBytes(resource, options = {}) {
      for (let attempt = 0; ; attempt++) {
        try {
          // Not `options` itself: its `body` is where the answer goes, not a request body.
          const answer = await send('GET', resource, `application/octet-stream, ${FRAME_LOCATION_TYPE}, application/json`, {
            signal: options.signal,
            urgent: options.urgent,
            streamed: options.body !== undefined,
            frames: true,
          });
          if (answer.status === 202) return null;
          // Without the frames service worker (not installed yet, or not in this browser) the page follows a location itself.
          let response: Response;
          try {
            response = await followFrameLocation(answer, doFetch, options.signal);
          } catch (error) {
            if (options.signal?.aborted) throw error;
            throw new ApiError(0, 'network_error', NETWORK_MESSAGE);
          }
          if (!response.ok) throw await errorFromResponse(response);
          try {
            if (!options.body) return await wholeBody(response);
            await streamBody(response, options.body);
            return new Uint8Array(0);
          } catch (error) {
            if (options.signal?.aborted) throw error;
            throw new ApiError(0, 'network_error', NETWORK_MESSAGE);
          }
        } catch (error) {
          const delay = BYTES_RETRY_DELAYS_MS[attempt];
          // An abort is not an ApiError: it ends the loop at once.
          if (!isTransient(error) || delay === undefined) throw error;
          await new Promise((resolve) => setTimeout(resolve, delay));
        }
      }
    },
    authorization() {
      const credentials = getCredentials();
      return credentials ? authorizationHeader(credentials) : null;
    },
    url: (resource) => buildApiUrl(tenant, resource),
  };
}
