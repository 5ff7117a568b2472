import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStore } from '../../src/server/storage/blob-store.ts';
import { LocalDirectoryStore } from '../../src/server/storage/local-directory-store.ts';
import { S3Store } from '../../src/server/storage/s3-store.ts';

/**
 * A minimal S3-compatible server (path-style GET, PUT, DELETE and ListObjectsV2) that
 * refuses unsigned requests, standing in for S3 or MinIO.
 */
function fakeS3() {
  const objects = new Map<string, Buffer>();
  const server = http.createServer((request, response) => {
    if (!String(request.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256 Credential=test-key/')) {
      return void response.writeHead(403).end('<Error><Code>AccessDenied</Code></Error>');
    }
    const url = new URL(request.url!, 'http://s3');
    const [, bucket, ...rest] = url.pathname.split('/');
    const key = rest.map(decodeURIComponent).join('/');
    if (bucket !== 'frames') return void response.writeHead(404).end('<Error><Code>NoSuchBucket</Code></Error>');
    if (request.method === 'GET' && !key && url.searchParams.get('list-type') === '2') {
      const prefix = url.searchParams.get('prefix') ?? '';
      const keys = [...objects.keys()].filter((k) => k.startsWith(prefix));
      return void response.end(`<ListBucketResult>${keys.map((k) => `<Contents><Key>${k}</Key></Contents>`).join('')}<IsTruncated>false</IsTruncated></ListBucketResult>`);
    }
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      if (request.method === 'PUT') objects.set(key, Buffer.concat(chunks));
      else if (request.method === 'DELETE') objects.delete(key);
      else if (!objects.has(key)) return void response.writeHead(404).end('<Error><Code>NoSuchKey</Code></Error>');
      else return void response.end(objects.get(key));
      response.end();
    });
  });
  return { server, objects };
}

const s3 = fakeS3();
let endpoint = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => s3.server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(s3.server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => s3.server.close(() => resolve())));

const stores: [string, () => BlobStore][] = [
  ['local directory', () => new LocalDirectoryStore(fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-blob-')))],
  ['S3-compatible bucket', () => new S3Store({ endpoint, bucket: 'frames', region: 'us-east-1', accessKeyId: 'test-key', secretAccessKey: 'test-secret' })],
];

describe.each(stores)('blob store: %s', (_name, open) => {
  it('keeps bytes under a key and answers null for a key it does not have', async () => {
    const store = open();
    expect(await store.get('demo/r1/v1/bmode/00000.u8.gz')).toBeNull();
    await store.put('demo/r1/v1/bmode/00000.u8.gz', Uint8Array.from([1, 2, 3]));
    expect([...(await store.get('demo/r1/v1/bmode/00000.u8.gz'))!]).toEqual([1, 2, 3]);
    await store.put('demo/r1/v1/bmode/00000.u8.gz', Uint8Array.from([4]));
    expect([...(await store.get('demo/r1/v1/bmode/00000.u8.gz'))!]).toEqual([4]);
  });

  it('deletes everything under a prefix and nothing else', async () => {
    const store = open();
    await store.put('demo/r1/v1/a', Uint8Array.from([1]));
    await store.put('demo/r1/v1/b/c', Uint8Array.from([2]));
    await store.put('demo/r10/v1/a', Uint8Array.from([3]));
    await store.deletePrefix('demo/r1');
    expect(await store.get('demo/r1/v1/a')).toBeNull();
    expect(await store.get('demo/r1/v1/b/c')).toBeNull();
    expect(await store.get('demo/r10/v1/a')).not.toBeNull();
  });

  it('refuses keys that could escape the store', async () => {
    const store = open();
    await expect(store.get('../etc/passwd')).rejects.toThrow(/unsafe storage key/);
    await expect(store.put('demo/../../x', Uint8Array.from([1]))).rejects.toThrow(/unsafe storage key/);
  });
});

describe('S3 store errors', () => {
  it('reports a refused request instead of treating it as missing', async () => {
    const store = new S3Store({ endpoint, bucket: 'frames', region: 'us-east-1', accessKeyId: 'wrong-key', secretAccessKey: 'x' });
    await expect(store.get('demo/r1/v1/a')).rejects.toThrow(/HTTP 403/);
  });

  it('gives up on a store that stops answering, headers or body, instead of waiting forever', async () => {
    // One server that never answers, one that sends its headers and then stalls in the body.
    const stalled = http.createServer((request, response) => {
      if (request.method === 'GET' && request.url?.includes('half')) {
        response.writeHead(200, { 'content-length': '1000' });
        response.write('x');
      }
    });
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    const store = new S3Store({
      endpoint: `http://127.0.0.1:${(stalled.address() as { port: number }).port}`,
      bucket: 'frames',
      region: 'us-east-1',
      accessKeyId: 'k',
      secretAccessKey: 's',
      timeoutMs: 300,
    });
    try {
      await expect(store.get('demo/r1/v1/silent')).rejects.toThrow(/object storage GET demo\/r1\/v1\/silent timed out after 0.3 s/);
      await expect(store.get('demo/r1/v1/half')).rejects.toThrow(/timed out after 0.3 s/);
      await expect(store.put('demo/r1/v1/silent', new Uint8Array(4))).rejects.toThrow(/PUT .* timed out/);
    } finally {
      stalled.closeAllConnections();
      await new Promise<void>((resolve) => stalled.close(() => resolve()));
    }
  });
});
