import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AwsClient } from 'aws4fetch';
import { assertSafeKey, type BlobStore, type SignedUrl, type StoredObjectHeaders } from './blob-store.ts';
import { DEFAULT_SIGNED_URL_SECONDS, presignGet } from './signed-url.ts';

export type S3Options = {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Each call, its body included, must finish within this (S3_TIMEOUT_MS): a stalled store must not hold requests forever. */
  timeoutMs?: number;
  /** How long a signed GET URL handed to a browser works (S3_SIGNED_URL_SECONDS). */
  signedUrlSeconds?: number;
  /**
   * The address browsers reach the store by, when it is not `endpoint` (a CDN or a proxy in front of
   * the bucket, S3_PUBLIC_ENDPOINT). It must pass the Host it was addressed by on to the store, which checks it against the signature.
   */
  publicEndpoint?: string;
};

export const DEFAULT_S3_TIMEOUT_MS = 30_000;

/**
 * How often a 5xx or 429 answer is retried (aws4fetch waits a random 0-50 ms, then 0-100, then 0-200).
 * aws4fetch's default, 10, waits up to 51 s in all: a failing store then held each call until the
 * timeout and was reported as "timed out" instead of by its own error.
 */
const S3_RETRIES = 3;

/** Tries again of a call whose connection broke before an answer. */
const NETWORK_RETRIES = 1;

/** A whole file's transfer may take its size at this pace, on top of the timeout of a call. */
const FILE_BYTES_PER_SECOND = 5 * 1024 * 1024;

/** Statuses whose response has no body: `new Response(body, { status })` refuses a body for them. */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * A BlobStore in S3-compatible object storage (AWS S3, MinIO, Ceph...), for running several
 * stateless replicas. Path-style requests signed with AWS Signature V4; an object PUT is atomic.
 */
export class S3Store implements BlobStore {
  private readonly client: AwsClient;
  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly publicBase: string;
  private readonly signedUrlSeconds: number;

  constructor(options: S3Options) {
    this.client = new AwsClient({ accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey, region: options.region, service: 's3', retries: S3_RETRIES });
    this.base = `${options.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(options.bucket)}`;
    this.publicBase = `${(options.publicEndpoint ?? options.endpoint).replace(/\/+$/, '')}/${encodeURIComponent(options.bucket)}`;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_S3_TIMEOUT_MS;
    this.signedUrlSeconds = options.signedUrlSeconds ?? DEFAULT_SIGNED_URL_SECONDS;
  }

  /** Signed locally (no call to the store): the browser fetches the object itself, with no credential of ours. */
  async signedGetUrl(key: string): Promise<SignedUrl> {
    assertSafeKey(key);
    return presignGet(this.client, this.publicBase, key, this.signedUrlSeconds);
  }

  /**
   * A signed request that gives up after timeoutMs, its response body included. A connection the
   * store closed as it was reused ("other side closed": a keep-alive race any S3 server can cause)
   * is tried once more on a new one: every call here (GET, PUT of whole bytes, DELETE, LIST) may be repeated.
   */
  private async send(what: string, url: string, init: RequestInit = {}): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await this.client.fetch(url, { ...init, signal: AbortSignal.timeout(this.timeoutMs) });
        const body = await response.arrayBuffer();
        // S3 answers a DELETE with 204 No Content.
        return new Response(NULL_BODY_STATUSES.has(response.status) ? null : body, { status: response.status, headers: response.headers });
      } catch (error) {
        if (error instanceof DOMException && error.name === 'TimeoutError') throw new Error(`object storage ${what} timed out after ${this.timeoutMs / 1000} s`, { cause: error });
        // fetch's network failure is a TypeError; anything else is not the connection's.
        if (attempt >= NETWORK_RETRIES || !(error instanceof TypeError)) throw error;
      }
    }
  }

  private url(key: string): string {
    assertSafeKey(key);
    return `${this.base}/${key.split('/').map(encodeURIComponent).join('/')}`;
  }

  private async check(response: Response, what: string): Promise<Response> {
    if (!response.ok) throw new Error(`object storage ${what} failed: HTTP ${response.status} ${(await response.text()).slice(0, 200)}`);
    return response;
  }

  async get(key: string): Promise<Buffer | null> {
    // An object stored with Content-Encoding gzip (a frame chunk, for browsers) is answered with it, and
    // fetch would gunzip it on the way in: asking the store to answer `identity` instead (a signed
    // response-* override, as S3 allows) keeps the bytes exactly as they were put.
    const response = await this.send(`GET ${key}`, `${this.url(key)}?response-content-encoding=identity`);
    // 404 is also S3's answer for a bucket that does not exist (NoSuchBucket): that is an error, not a missing key.
    if (response.status === 404 && !(await response.clone().text()).includes('<Code>NoSuchBucket</Code>')) return null;
    await this.check(response, `GET ${key}`);
    return Buffer.from(await response.arrayBuffer());
  }

  /** The headers are kept as the object's metadata (S3 keeps Content-Type, -Encoding, Cache-Control) and sent with every GET of it. */
  /** A HEAD: before handing out a URL, the app checks the object is there without reading its bytes. */
  async has(key: string): Promise<boolean> {
    const response = await this.send(`HEAD ${key}`, this.url(key), { method: 'HEAD' });
    if (response.status === 404) return false;
    await this.check(response, `HEAD ${key}`);
    return true;
  }

  async put(key: string, data: Uint8Array, headers?: StoredObjectHeaders): Promise<void> {
    const init = { method: 'PUT', body: new Uint8Array(data), headers: headers ? objectHeaders(headers) : undefined };
    await this.check(await this.send(`PUT ${key}`, this.url(key), init), `PUT ${key}`);
  }

  /**
   * Streams the file up. Its SHA-256 is read first and signed (X-Amz-Content-Sha256), so the store
   * refuses bytes that changed on the way; a streamed body cannot be sent twice, so a failure is the
   * caller's to retry.
   */
  async putFile(key: string, filePath: string): Promise<void> {
    const url = this.url(key);
    const { size } = await fsp.stat(filePath);
    const hash = createHash('sha256');
    await pipeline(fs.createReadStream(filePath), hash);
    const timer = this.transferTimer(`PUT ${key}`, size);
    try {
      const body = Readable.toWeb(fs.createReadStream(filePath)) as ReadableStream<Uint8Array>;
      const init = { method: 'PUT', body, duplex: 'half', signal: timer.signal, headers: { 'content-length': String(size), 'x-amz-content-sha256': hash.digest('hex') } };
      const response = await fetch(await this.client.sign(url, init as RequestInit));
      await this.check(new Response(await response.arrayBuffer(), { status: response.status }), `PUT ${key}`);
    } catch (error) {
      throw timer.explain(error);
    } finally {
      timer.clear();
    }
  }

  async getFile(key: string, filePath: string): Promise<boolean> {
    const timer = this.transferTimer(`GET ${key}`, 0);
    const temporary = `${filePath}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      const response = await fetch(await this.client.sign(this.url(key), { signal: timer.signal }));
      if (!response.ok) {
        const answer = new Response(await response.arrayBuffer(), { status: response.status });
        if (response.status === 404 && !(await answer.clone().text()).includes('<Code>NoSuchBucket</Code>')) return false;
        await this.check(answer, `GET ${key}`);
      }
      timer.extend(Number(response.headers.get('content-length') ?? 0));
      await fsp.mkdir(path.dirname(filePath), { recursive: true });
      await pipeline(Readable.fromWeb(response.body! as never), fs.createWriteStream(temporary));
      await fsp.rename(temporary, filePath);
      return true;
    } catch (error) {
      await fsp.rm(temporary, { force: true });
      throw timer.explain(error);
    } finally {
      timer.clear();
    }
  }

  /** A whole file's transfer: the timeout of a call, plus time for its bytes at FILE_BYTES_PER_SECOND. */
  private transferTimer(what: string, bytes: number) {
    const controller = new AbortController();
    let timeout: NodeJS.Timeout;
    let allowedMs = 0;
    const arm = (ms: number) => {
      clearTimeout(timeout);
      allowedMs = ms;
      timeout = setTimeout(() => controller.abort(), ms);
    };
    arm(this.timeoutMs + (bytes / FILE_BYTES_PER_SECOND) * 1000);
    return {
      signal: controller.signal,
      extend: (more: number) => arm(this.timeoutMs + (more / FILE_BYTES_PER_SECOND) * 1000),
      clear: () => clearTimeout(timeout),
      explain: (error: unknown) =>
        controller.signal.aborted ? new Error(`object storage ${what} timed out after ${(allowedMs / 1000).toFixed(0)} s`, { cause: error }) : error,
    };
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertSafeKey(prefix.replace(/\/+$/, ''));
    let token: string | undefined;
    do {
      const query = new URLSearchParams({ 'list-type': '2', prefix: `${prefix.replace(/\/+$/, '')}/` });
      if (token) query.set('continuation-token', token);
      const listing = await (await this.check(await this.send(`LIST ${prefix}`, `${this.base}?${query}`), `LIST ${prefix}`)).text();
      const keys = [...listing.matchAll(/<Key>([^<]+)<\/Key>/g)].map((m) => decodeXml(m[1]!));
      for (const key of keys) await this.check(await this.send(`DELETE ${key}`, this.url(key), { method: 'DELETE' }), `DELETE ${key}`);
      token = /<IsTruncated>true<\/IsTruncated>/.test(listing) ? decodeXml(/<NextContinuationToken>([^<]+)</.exec(listing)?.[1] ?? '') : undefined;
    } while (token);
    // A prefix without its slash may also name one object itself (a preview, a progress file), as a
    // path names a file in the local store. S3 answers 204 for a key it does not have.
    if (!prefix.endsWith('/')) await this.check(await this.send(`DELETE ${prefix}`, this.url(prefix), { method: 'DELETE' }), `DELETE ${prefix}`);
  }
}

function objectHeaders({ contentType, contentEncoding, cacheControl }: StoredObjectHeaders): Record<string, string> {
  return { 'content-type': contentType, ...(contentEncoding ? { 'content-encoding': contentEncoding } : {}), ...(cacheControl ? { 'cache-control': cacheControl } : {}) };
}

function decodeXml(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos);/g, (_, name: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[name]!);
}
