/**
 * The part of XMLHttpRequest that dicomweb-client uses, on Node's fetch. dicomweb-client (the
 * DICOMweb client of OHIF and Slim) is written for browsers: Node has no XMLHttpRequest, and the
 * registry's polyfills throw from their event handlers on an empty error body (a 401 with
 * responseType 'json'), which would take the server down. This one never throws: a network failure or
 * a timeout ends as readyState 4 with status 0, as in a browser, and dicomweb-client rejects.
 *
 * Every request goes through the PacsTransport its client hands it (PacsClient sets it in a request
 * hook), which vets the address connected to and follows no redirect; an instance without one sends
 * nothing.
 */

import { Headers, type Response } from 'undici';
import { isForbiddenAddressFailure, RedirectRefusedError, type PacsTransport } from './pacs-transport.ts';

/** Why a request ended without an answer, when the transport refused it rather than the network failing. */
export type TransportRefusal = 'forbidden-address' | 'redirect' | null;

export function transportRefusal(error: unknown): TransportRefusal {
  return error instanceof RedirectRefusedError ? 'redirect' : isForbiddenAddressFailure(error) ? 'forbidden-address' : null;
}

type ResponseType = '' | 'text' | 'json' | 'arraybuffer';

/** Longest a PACS may take to answer one query or store (headers and body). */
export const PACS_REQUEST_TIMEOUT_MS = 60_000;
/** Largest response kept in memory (query results, thumbnails); instances are streamed to disk elsewhere. */
export const MAX_BUFFERED_RESPONSE_BYTES = 32 * 1024 * 1024;

export class FetchXhr {
  readyState = 0;
  status = 0;
  statusText = '';
  responseType: ResponseType = '';
  response: unknown = null;
  withCredentials = false;
  onreadystatechange: (() => void) | null = null;
  onloadstart: (() => void) | null = null;
  onloadend: (() => void) | null = null;
  onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null = null;
  /** The vetted transport; null sends nothing (status 0). */
  transport: PacsTransport | null = null;
  refusal: TransportRefusal = null;
  private method = 'GET';
  private url = '';
  private readonly requestHeaders = new Headers();
  private responseHeaders = new Headers();

  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
    this.readyState = 1;
  }

  setRequestHeader(name: string, value: string): void {
    this.requestHeaders.set(name, value);
  }

  getResponseHeader(name: string): string | null {
    return this.responseHeaders.get(name);
  }

  getAllResponseHeaders(): string {
    return [...this.responseHeaders].map(([name, value]) => `${name}: ${value}\r\n`).join('');
  }

  send(body?: ArrayBuffer | Uint8Array | string | null): void {
    this.onloadstart?.();
    void this.run(body ?? undefined);
  }

  private async run(body: ArrayBuffer | Uint8Array | string | undefined): Promise<void> {
    try {
      if (!this.transport) throw new Error('no vetted transport');
      const response = await this.transport.fetch(this.url, {
        method: this.method,
        headers: this.requestHeaders,
        body: body as ArrayBuffer | Uint8Array | string | undefined,
        signal: AbortSignal.timeout(PACS_REQUEST_TIMEOUT_MS),
      });
      this.responseHeaders = response.headers;
      this.status = response.status;
      this.statusText = response.statusText;
      const bytes = await readLimited(response, MAX_BUFFERED_RESPONSE_BYTES);
      this.response = this.decode(bytes);
    } catch (error) {
      // Unreachable, refused, timed out, too large, redirected or a forbidden address: a browser's XHR reports status 0.
      this.refusal = transportRefusal(error);
      this.status = 0;
      this.statusText = '';
      this.response = null;
    }
    this.readyState = 4;
    try {
      this.onreadystatechange?.();
    } finally {
      this.onloadend?.();
    }
  }

  private decode(bytes: Uint8Array): unknown {
    if (this.responseType === 'arraybuffer') return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const text = new TextDecoder().decode(bytes);
    if (this.responseType !== 'json') return text;
    try {
      return text ? JSON.parse(text) : null;
    } catch {
      return null;
    }
  }
}

/** The body, refusing one past `limit` bytes (the PACS is not trusted to be small). */
export async function readLimited(response: Response, limit: number): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body) {
    total += chunk.byteLength;
    if (total > limit) {
      await response.body.cancel().catch(() => undefined);
      throw new Error(`response over ${limit} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Lets dicomweb-client run in Node (it constructs `new XMLHttpRequest()` itself). */
export function installFetchXhr(): void {
  const global = globalThis as { XMLHttpRequest?: unknown };
  global.XMLHttpRequest ??= FetchXhr;
}
