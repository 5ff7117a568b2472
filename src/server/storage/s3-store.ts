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
 * A BlobStore in S3-compatible object storage (AWS S3, MinIO, Ceph...), for running several
 * stateless replicas. Path-style requests signed with AWS Signature V4; an object PUT is atomic.
 */
export class S3Store implements BlobStore {
  private readonly client: AwsClient;
  private readonly base: string;
  private readonly timeoutMs: number;

  constructor(options: S3Options) {
    this.client = new AwsClient({ accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey, region: options.region, service: 's3' });
    this.base = `${options.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(options.bucket)}`;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_S3_TIMEOUT_MS;
  }

  /** A signed request that gives up after timeoutMs, its response body included. */
  private async send(what: string, url: string, init: RequestInit = {}): Promise<Response> {
    try {
      const response = await this.client.fetch(url, { ...init, signal: AbortSignal.timeout(this.timeoutMs) });
      return new Response(await response.arrayBuffer(), { status: response.status, headers: response.headers });
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
    if (response.status === 404) return null;
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
