import { AwsClient } from 'aws4fetch';
import { assertSafeKey, type BlobStore } from './blob-store.ts';

export type S3Options = {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Each call, its body included, must finish within this (S3_TIMEOUT_MS): a stalled store must not hold requests forever. */
  timeoutMs?: number;
};

export const DEFAULT_S3_TIMEOUT_MS = 30_000;

/**
 * How often a 5xx or 429 answer is retried (aws4fetch waits a random 0-50 ms, then 0-100, then 0-200).
 * aws4fetch's default, 10, waits up to 51 s in all: a failing store then held each call until the
 * timeout and was reported as "timed out" instead of by its own error.
 */
const S3_RETRIES = 3;

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

  constructor(options: S3Options) {
    this.client = new AwsClient({ accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey, region: options.region, service: 's3', retries: S3_RETRIES });
    this.base = `${options.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(options.bucket)}`;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_S3_TIMEOUT_MS;
  }

  /** A signed request that gives up after timeoutMs, its response body included. */
  private async send(what: string, url: string, init: RequestInit = {}): Promise<Response> {
    try {
      const response = await this.client.fetch(url, { ...init, signal: AbortSignal.timeout(this.timeoutMs) });
      const body = await response.arrayBuffer();
      // S3 answers a DELETE with 204 No Content.
      return new Response(NULL_BODY_STATUSES.has(response.status) ? null : body, { status: response.status, headers: response.headers });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'TimeoutError') throw new Error(`object storage ${what} timed out after ${this.timeoutMs / 1000} s`, { cause: error });
      throw error;
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
    const response = await this.send(`GET ${key}`, this.url(key));
    // 404 is also S3's answer for a bucket that does not exist (NoSuchBucket): that is an error, not a missing key.
    if (response.status === 404 && !(await response.clone().text()).includes('<Code>NoSuchBucket</Code>')) return null;
    await this.check(response, `GET ${key}`);
    return Buffer.from(await response.arrayBuffer());
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    await this.check(await this.send(`PUT ${key}`, this.url(key), { method: 'PUT', body: new Uint8Array(data) }), `PUT ${key}`);
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
  }
}

function decodeXml(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos);/g, (_, name: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[name]!);
}
