import { gzipSync } from 'node:zlib';
import { AwsClient } from 'aws4fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRAY8_CHUNK_HEADERS } from '../../../src/server/imaging/record-imaging.ts';
import type { BlobStore } from '../../../src/server/storage/blob-store.ts';
import { frameCorsConfiguration } from '../../../src/server/storage/frame-cors.ts';
import { LocalDirectoryStore } from '../../../src/server/storage/local-directory-store.ts';
import { S3Store, type S3Options } from '../../../src/server/storage/s3-store.ts';
import { objectPath, presignGet } from '../../../src/server/storage/signed-url.ts';
import { checkSignatureV4, startS3Server, type S3ServerHandle } from '../../support/s3-server.ts';

/** Browsers fetch frame chunks from the bucket with URLs the app signed (issue 27); s3rver behind a Signature V4 check plays the bucket. */
let s3: S3ServerHandle;
beforeAll(async () => {
  s3 = await startS3Server({ corsConfiguration: frameCorsConfiguration('http://{tenant}.localhost:8163') });
});
afterAll(() => s3?.stop());

const options = (overrides: Partial<S3Options> = {}): S3Options => ({
  endpoint: s3.endpoint,
  bucket: s3.bucket,
  region: s3.region,
  accessKeyId: s3.accessKeyId,
  secretAccessKey: s3.secretAccessKey,
  ...overrides,
});
const clientOf = () => new AwsClient({ accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, region: s3.region, service: 's3' });
const bucketUrl = () => `${s3.endpoint}/${s3.bucket}`;
const frames = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7) % 256);

describe('signed GET URLs', () => {
  it("signs exactly as AWS's published presigned-URL example, and the store's check agrees", async () => {
    // "Authenticating Requests: Using Query Parameters (AWS Signature Version 4)", GET examplebucket/test.txt.
    const example = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', region: 'us-east-1' };
    const client = new AwsClient({ ...example, service: 's3' });
    const at = new Date('2013-05-24T00:00:00Z');
    const signed = await presignGet(client, 'https://examplebucket.s3.amazonaws.com', 'test.txt', 86400, at);
    const url = new URL(signed.url);
    expect(url.searchParams.get('X-Amz-Signature')).toBe('aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404');
    expect(signed.expiresAt.toISOString()).toBe('2013-05-25T00:00:00.000Z');
    const request = { method: 'GET', url: url.pathname + url.search, headers: { host: url.host }, body: new Uint8Array(0) };
    expect(checkSignatureV4(request, example, at)).toBeNull();
    expect(checkSignatureV4(request, example, new Date('2013-05-25T00:00:01Z'))?.message).toBe('Request has expired');
    expect(checkSignatureV4({ ...request, url: request.url.replace('test.txt', 'test.txu') }, example, at)?.code).toBe('SignatureDoesNotMatch');
    expect(checkSignatureV4({ ...request, url: request.url.replace('X-Amz-Expires=86400', 'X-Amz-Expires=86401') }, example, at)?.code).toBe('SignatureDoesNotMatch');
  });

  it('hands a browser the chunk with gzip, its type and immutable caching, to no one once expired or tampered with', async () => {
    const store = new S3Store(options());
    const gz = gzipSync(frames);
    await store.put('demo/r1/v1/bmode/00000.u8.gz', gz, GRAY8_CHUNK_HEADERS);

    const signed = await store.signedGetUrl('demo/r1/v1/bmode/00000.u8.gz');
    expect(signed.url.startsWith(`${bucketUrl()}/demo/r1/v1/bmode/00000.u8.gz?`)).toBe(true);
    expect(new URL(signed.url).searchParams.get('X-Amz-Expires')).toBe('300');
    expect(signed.expiresAt.getTime() - Date.now()).toBeGreaterThan(290_000);
    // No credential of ours: a plain GET, as the browser sends it.
    const response = await fetch(signed.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(frames);
    // The app's own read still gets the stored gzip bytes, not fetch's gunzipped copy.
    expect((await store.get('demo/r1/v1/bmode/00000.u8.gz'))!.equals(gz)).toBe(true);
    // Before signing, the app looks for the object without reading it.
    expect(await store.has('demo/r1/v1/bmode/00000.u8.gz')).toBe(true);
    expect(await store.has('demo/r1/v1/bmode/00099.u8.gz')).toBe(false);

    const expired = await presignGet(clientOf(), bucketUrl(), 'demo/r1/v1/bmode/00000.u8.gz', 300, new Date(Date.now() - 301_000));
    const late = await fetch(expired.url);
    expect(late.status).toBe(403);
    expect(await late.text()).toMatch(/Request has expired/);
    // The same signature for another record's chunk, or a longer life, is refused.
    for (const tampered of [signed.url.replace('/r1/', '/r2/'), signed.url.replace('X-Amz-Expires=300', 'X-Amz-Expires=3000')]) {
      const refused = await fetch(tampered);
      expect(refused.status).toBe(403);
      expect(await refused.text()).toMatch(/SignatureDoesNotMatch/);
    }
  });

  it('lives as long as configured, and names the public endpoint browsers reach (a CDN) when there is one', async () => {
    const store = new S3Store(options({ signedUrlSeconds: 60, publicEndpoint: 'https://frames-cdn.example.org/' }));
    const signed = await store.signedGetUrl('demo/r1/v1/bmode/00001.u8.gz');
    const url = new URL(signed.url);
    expect(url.origin).toBe('https://frames-cdn.example.org');
    expect(url.pathname).toBe(`/${s3.bucket}/demo/r1/v1/bmode/00001.u8.gz`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('60');
    // Signed for the host the browser addresses, which the CDN passes on to the store.
    const credentials = { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, region: s3.region };
    const request = { method: 'GET', url: url.pathname + url.search, body: new Uint8Array(0) };
    expect(checkSignatureV4({ ...request, headers: { host: url.host } }, credentials)).toBeNull();
    expect(checkSignatureV4({ ...request, headers: { host: new URL(s3.endpoint).host } }, credentials)?.code).toBe('SignatureDoesNotMatch');
  });

  it('escapes any Unicode key and refuses NUL, unpaired surrogates and keys outside the store', async () => {
    const key = 'démo/ü 1/файл+%#?&=影像.gz';
    expect(objectPath(key)).toBe('d%C3%A9mo/%C3%BC%201/%D1%84%D0%B0%D0%B9%D0%BB%2B%25%23%3F%26%3D%E5%BD%B1%E5%83%8F.gz');
    await clientOf().fetch(`${bucketUrl()}/${objectPath(key)}`, { method: 'PUT', body: frames });
    const signed = await presignGet(clientOf(), bucketUrl(), key, 60);
    const response = await fetch(signed.url);
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(frames);

    await expect(presignGet(clientOf(), bucketUrl(), 'demo/a\0b', 60)).rejects.toThrow(/NUL/);
    await expect(presignGet(clientOf(), bucketUrl(), 'demo/\uD800', 60)).rejects.toThrow(/surrogate/);
    await expect(presignGet(clientOf(), bucketUrl(), 'demo/a', 0)).rejects.toThrow(/1 s to 7 days/);
    await expect(new S3Store(options()).signedGetUrl('demo/../acme/r1')).rejects.toThrow(/unsafe storage key/);
  });

  it('is a capability of S3 only: a local directory has no URL a browser could use', () => {
    const local: BlobStore = new LocalDirectoryStore('/nonexistent');
    expect(local.signedGetUrl).toBeUndefined();
    expect(frameCorsConfiguration('https://{tenant}.example.org/')).toContain('<AllowedOrigin>https://*.example.org</AllowedOrigin>');
  });

  it("lets the tenants' origins read the bucket from a page, and no other origin", async () => {
    const store = new S3Store(options());
    await store.put('demo/r1/v1/bmode/00002.u8.gz', gzipSync(frames), GRAY8_CHUNK_HEADERS);
    const { url } = await store.signedGetUrl('demo/r1/v1/bmode/00002.u8.gz');
    const tenant = await fetch(url, { headers: { origin: 'http://acme.localhost:8163' } });
    expect(tenant.headers.get('access-control-allow-origin')).toBe('http://acme.localhost:8163');
    const stranger = await fetch(url, { headers: { origin: 'http://evil.example:8163' } });
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
  });
});
