import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordImages } from '../../src/domain/images.ts';
import { FRAME_PACK_MEDIA_TYPE } from '../../src/domain/pixels/frame-pack.ts';
import { findRecord } from '../../src/server/db/records.ts';
import { generateFrames } from '../../src/server/imaging/demo-pullback.ts';
import { pullbackModelOf } from '../../src/server/imaging/record-imaging.ts';
import { signCdnUrl } from '../../src/server/storage/cdn-url.ts';
import { frameCorsOriginPattern } from '../../src/server/storage/frame-cors.ts';
import { cdnAvailable, startCdn, type CdnHandle } from '../support/cdn-server.ts';
import { decodePack } from '../support/frame-chunks.ts';
import { s3StorageEnv, startS3Server, type S3ServerHandle } from '../support/s3-server.ts';
import { clinicianAuthorization, createTestServer, hostOf, originOf, postgresUnavailable, PORT, type TestServer } from './test-server.ts';

type Location = { url: string; expiresAt: string };

/**
 * Issue 27 at the static server's rate: a CDN (the shipped deploy/cdn config, Debian's nginx + njs)
 * in front of the bucket checks the URLs the app signs and serves every chunk from its cache.
 */
describe.skipIf(postgresUnavailable || !cdnAvailable())('frame chunks through the CDN in front of the store', () => {
  const key = randomBytes(32).toString('base64');
  let s3: S3ServerHandle;
  let cdn: CdnHandle;
  let server: TestServer;
  let get: (url: string, tenant?: 'demo' | 'acme') => Promise<{ statusCode: number; headers: Record<string, unknown>; json(): unknown }>;
  let demo: RecordImages;
  let acme: RecordImages;

  beforeAll(async () => {
    s3 = await startS3Server();
    cdn = await startCdn({ origin: s3.origin, bucket: s3.bucket, allowedOriginPattern: frameCorsOriginPattern(`http://{tenant}.localhost:${PORT}`), key });
    server = await createTestServer({ ...s3StorageEnv(s3), FRAME_CDN_URL: cdn.url, FRAME_CDN_KEY: key });
    const authorization = { demo: await clinicianAuthorization(server, 'demo'), acme: await clinicianAuthorization(server, 'acme') };
    get = (url, tenant = 'demo') => server.app.inject({ url, headers: { host: hostOf(tenant), authorization: authorization[tenant] } });
    const imagesOf = async (tenant: 'demo' | 'acme', patient: string) => {
      const list = (await get(`/api/${tenant}/patients/${patient}/records`, tenant)).json() as { records: { recordId: string; bmodeFrameCount: number }[] };
      const recordId = list.records.find((r) => r.bmodeFrameCount >= 48)!.recordId;
      return (await get(`/api/${tenant}/records/${recordId}/images`, tenant)).json() as RecordImages;
    };
    demo = await imagesOf('demo', 'DEM-001');
    acme = await imagesOf('acme', 'ACM-001');
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await cdn?.stop();
    await s3?.stop();
  });

  /** The chunk route's answer for one chunk (made now if it is not yet). */
  async function locationOf(images: RecordImages, chunk: number, tenant: 'demo' | 'acme' = 'demo'): Promise<Location> {
    const answer = await get(`/api/${tenant}/${images.bmode.chunks[chunk]}`, tenant);
    expect(answer.statusCode).toBe(200);
    return answer.json() as Location;
  }
  const cdnGet = (url: string, origin = originOf('demo')) => fetch(url, { headers: { origin } });

  it('hands out CDN URLs from the chunk and batch routes, allowed by the pages, that give exactly the frames', async () => {
    const single = await get(`/api/demo/${demo.bmode.chunks[1]}`);
    expect(single.headers['content-security-policy']).toContain(`connect-src 'self' ${cdn.url};`);
    const { url, expiresAt } = single.json() as Location;
    expect(url).toMatch(new RegExp(`^${cdn.url}/demo/${demo.recordId}/[^/]+/bmode/[^/?]+\\?e=\\d+&s=[A-Za-z0-9_-]{43}$`));
    expect(url).not.toMatch(/X-Amz|Bearer/);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(250_000);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(300_000);

    const response = await cdnGet(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(FRAME_PACK_MEDIA_TYPE);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const frames = Buffer.concat(await decodePack(new Uint8Array(await response.arrayBuffer())));
    const record = (await findRecord(server.database.db, 'demo', demo.recordId))!;
    expect(frames.equals(Buffer.from(generateFrames(pullbackModelOf(record), 16, 32)))).toBe(true);

    // Chunk 1 is stored now (chunk 2 is not yet, and is listed as not ready).
    const path = `/api/demo/${demo.bmode.chunks[0]!.replace(/\/frames\/bmode\/\d+\?/, '/frame-locations/bmode?')}&from=1&count=1`;
    const batch = (await get(path)).json() as { locations: Location[] };
    expect(batch.locations.map((l) => new URL(l.url).origin)).toEqual([cdn.url]);
    // The same chunk by either route and in the bucket: the same object, the same bytes.
    const [fromBatch, fromStore] = await Promise.all([cdnGet(batch.locations[0]!.url), fetch(`${s3.origin}/${s3.bucket}${new URL(url).pathname}`)]);
    expect(Buffer.from(await fromBatch.arrayBuffer()).equals(Buffer.from(await fromStore.arrayBuffer()))).toBe(true);
  });

  it('fetches a chunk from the store once: every later GET, by any URL signed for it, is a cache hit', async () => {
    const first = await locationOf(demo, 2);
    const answers = [await cdnGet(first.url), await cdnGet(first.url), await cdnGet((await locationOf(demo, 2)).url)];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.map((a) => a.headers.get('x-cache-status'))).toEqual(['MISS', 'HIT', 'HIT']);
    const bodies = await Promise.all(answers.map(async (a) => Buffer.from(await a.arrayBuffer())));
    expect(bodies[1]!.equals(bodies[0]!) && bodies[2]!.equals(bodies[0]!)).toBe(true);
  });

  it("refuses tampered, borrowed, expired and unsigned URLs with 403, and caches nothing for them", async () => {
    const own = new URL((await locationOf(demo, 3)).url);
    // Stored in the bucket, never fetched through the CDN yet: the targets of the forgeries.
    const otherChunk = new URL((await locationOf(demo, 4)).url);
    const otherRecordImages = (await get(`/api/demo/records/${await otherRecordOf('demo', demo.recordId)}/images`)).json() as RecordImages;
    const otherRecord = new URL((await locationOf(otherRecordImages, 0)).url);
    const otherTenant = new URL((await locationOf(acme, 0, 'acme')).url);
    const signature = own.search;
    const expired = signCdnUrl(cdn.url, key, own.pathname.slice(1), 60, Date.now() - 120_000);
    const wrongKey = signCdnUrl(cdn.url, randomBytes(32).toString('base64'), own.pathname.slice(1), 60);
    const farFuture = signCdnUrl(cdn.url, key, own.pathname.slice(1), 7 * 24 * 3600, Date.now() + 3600_000);
    const [, e, s] = /e=(\d+)&s=(.+)$/.exec(signature)!;
    const flipped = `${s!.slice(0, -2)}${s!.at(-2) === 'A' ? 'B' : 'A'}${s!.at(-1)}`;
    const forged = {
      'another chunk, this signature': `${cdn.url}${otherChunk.pathname}${signature}`,
      "another record's chunk, this signature": `${cdn.url}${otherRecord.pathname}${signature}`,
      "another tenant's chunk, this signature": `${cdn.url}${otherTenant.pathname}${signature}`,
      'a tampered signature': `${cdn.url}${own.pathname}?e=${e}&s=${flipped}`,
      'a later expiry, the same signature': `${cdn.url}${own.pathname}?e=${Number(e) + 3600}&s=${s}`,
      'no signature': `${cdn.url}${own.pathname}?e=${e}`,
      'no expiry': `${cdn.url}${own.pathname}?s=${s}`,
      'no query': `${cdn.url}${own.pathname}`,
      'an expired URL': expired.url,
      'signed with another key': wrongKey.url,
      'past the longest lifetime the app signs': farFuture.url,
      'the signature given twice': `${cdn.url}${own.pathname}${signature}&s=${s}`,
      'an extra parameter': `${cdn.url}${own.pathname}${signature}&response-content-type=text/html`,
      'a dot segment in the path': `${cdn.url}${own.pathname.replace(/\/[^/]+\/bmode\//, '/x/../bmode/')}${signature}`,
      'an escaped path': `${cdn.url}${own.pathname.replace('/bmode/', '/%62mode/')}${signature}`,
    };
    for (const [name, url] of Object.entries(forged)) expect([name, (await cdnGet(url)).status]).toEqual([name, 403]);
    expect((await fetch(own, { method: 'POST', body: 'x' })).status).toBe(405);
    // None of them filled the cache: the first good GET of each target goes to the store.
    for (const target of [otherChunk, otherRecord, otherTenant]) expect((await cdnGet(target.href, originOf(target === otherTenant ? 'acme' : 'demo'))).headers.get('x-cache-status')).toBe('MISS');
  });

  it("answers CORS for the tenants' pages only", async () => {
    const { url } = await locationOf(demo, 5);
    const allowed = await cdnGet(url, originOf('acme'));
    expect(allowed.headers.get('access-control-allow-origin')).toBe(originOf('acme'));
    expect(allowed.headers.get('vary')).toContain('Origin');
    for (const origin of ['http://evil.example.org', `http://demo.localhost:${PORT}.evil.example.org`, `https://demo.localhost:${PORT}`, `http://a.b.localhost:${PORT}`, 'null']) {
      const refused = await cdnGet(url, origin);
      expect([origin, refused.status, refused.headers.get('access-control-allow-origin')]).toEqual([origin, 200, null]);
    }
  });

  async function otherRecordOf(tenant: 'demo', recordId: string): Promise<string> {
    const list = (await get(`/api/${tenant}/patients/DEM-001/records`)).json() as { records: { recordId: string; bmodeFrameCount: number }[] };
    return list.records.find((r) => r.recordId !== recordId && r.bmodeFrameCount > 0)!.recordId;
  }
});
