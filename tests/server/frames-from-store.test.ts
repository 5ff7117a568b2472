import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAME_LOCATION_TYPE } from '../../src/domain/frame-location.ts';
import { FRAME_PACK_MEDIA_TYPE } from '../../src/domain/pixels/frame-pack.ts';
import type { RecordImages } from '../../src/domain/images.ts';
import { findRecord } from '../../src/server/db/records.ts';
import { generateFrames } from '../../src/server/imaging/demo-pullback.ts';
import { pullbackModelOf } from '../../src/server/imaging/record-imaging.ts';
import { frameCorsConfiguration } from '../../src/server/storage/frame-cors.ts';
import { chunkFrames, decodePack } from '../support/frame-chunks.ts';
import { startS3Server, type S3ServerHandle } from '../support/s3-server.ts';
import { clinicianAuthorization, createTestServer, hostOf, originOf, postgresUnavailable, type TestServer } from './test-server.ts';

/** With S3 storage the replicas authorise and the store delivers the frame chunks (issue 27). */
describe.skipIf(postgresUnavailable)('frame chunks from the object store', () => {
  let s3: S3ServerHandle;
  const servers: TestServer[] = [];
  /** One server for the tests of the default configuration (a test server takes a while to seed on a busy machine). */
  let signing: Awaited<ReturnType<typeof serverWith>>;
  beforeAll(async () => {
    s3 = await startS3Server({ corsConfiguration: frameCorsConfiguration('http://{tenant}.localhost:8080') });
    signing = await serverWith();
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await s3?.stop();
  });

  /** The first bucket has the CORS rule; those made later have none. */
  async function serverWith(env: Record<string, string> = {}, bucket = s3.bucket) {
    const server = await createTestServer({
      STORAGE: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: bucket,
      S3_REGION: s3.region,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      ...env,
    });
    servers.push(server);
    const authorization = await clinicianAuthorization(server, 'demo');
    const get = (url: string, headers: Record<string, string> = {}) => server.app.inject({ url, headers: { host: hostOf('demo'), authorization, 'accept-encoding': 'gzip', ...headers } });
    const list = (await get('/api/demo/patients/DEM-001/records')).json() as { records: { recordId: string; bmodeFrameCount: number }[] };
    const recordId = list.records.find((r) => r.bmodeFrameCount === 300)!.recordId;
    const images = (await get(`/api/demo/records/${recordId}/images`)).json() as RecordImages;
    return { server, get, images };
  }

  it('answers a signed store URL, never kept by a cache, from which the browser gets exactly the frames', async () => {
    const { server, get, images } = signing;
    const before = s3.presignedGets().served;
    const answer = await get(`/api/demo/${images.bmode.chunks[1]}`, { 'x-ivus-urgent': '1' });
    expect(answer.statusCode).toBe(200);
    expect(String(answer.headers['content-type']).split(';')[0]).toBe(FRAME_LOCATION_TYPE);
    expect(answer.headers['cache-control']).toBe('no-store');
    // The pages may fetch from the store (and only from it besides their own origin).
    expect(answer.headers['content-security-policy']).toContain(`connect-src 'self' ${s3.endpoint};`);
    const { url, expiresAt } = answer.json() as { url: string; expiresAt: string };
    expect(url.startsWith(`${s3.endpoint}/`)).toBe(true);
    expect(url).not.toContain('Bearer');
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(250_000);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(300_000);

    // The browser's request: no credential, from the tenant's origin.
    const response = await fetch(url, { headers: { origin: originOf('demo') } });
    expect(response.status).toBe(200);
    // A new record's chunk is a frame pack (issue 27): sent as it is, never content-encoded.
    expect(response.headers.get('content-type')).toBe(FRAME_PACK_MEDIA_TYPE);
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('access-control-allow-origin')).toBe(originOf('demo'));
    const frames = Buffer.concat(await decodePack(new Uint8Array(await response.arrayBuffer())));
    const record = (await findRecord(server.database.db, 'demo', images.recordId))!;
    expect(frames.equals(Buffer.from(generateFrames(pullbackModelOf(record), 16, 32)))).toBe(true);
    expect(s3.presignedGets().served).toBe(before + 1);
  });

  it("gives no URL for another tenant's record, without a token, or for a replaced version", async () => {
    const { server, get, images } = signing;
    const acme = await clinicianAuthorization(server, 'acme');
    const path = `/api/demo/${images.bmode.chunks[0]}`;
    const answers = [
      await server.app.inject({ url: path.replace('/api/demo/', '/api/acme/'), headers: { host: hostOf('acme'), authorization: acme } }),
      await server.app.inject({ url: path, headers: { host: hostOf('demo') } }),
      await get(path.replace('v=v1', 'v=v0')),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([404, 401, 404]);
    for (const answer of answers) expect(answer.body).not.toMatch(/X-Amz-Signature/);
  });

  /** The batch route's path for a chunk URL the images answer listed (`records/{id}/frames/{series}/{chunk}?v=...`). */
  const batchPath = (chunkUrl: string, query: string) => `/api/demo/${chunkUrl.replace(/\/frames\/(\w+)\/\d+\?v=([^&]+)$/, '/frame-locations/$1?v=$2')}&${query}`;

  it('signs many chunks in one request, each URL giving exactly the bytes the chunk route points to', async () => {
    const { get, images } = signing;
    // Asked for alone first: stored (made now when the background run has not reached them yet).
    const alone = [];
    for (const chunk of [4, 5, 6]) alone.push((await get(`/api/demo/${images.bmode.chunks[chunk]}`)).json() as { url: string });
    const answer = await get(batchPath(images.bmode.chunks[0]!, 'from=4&count=3'));
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    const batch = answer.json() as { from: number; locations: { chunk: number; url: string; expiresAt: string }[] };
    expect(batch.from).toBe(4);
    expect(batch.locations.map((l) => l.chunk)).toEqual([4, 5, 6]);
    for (const [i, location] of batch.locations.entries()) {
      expect(Date.parse(location.expiresAt) - Date.now()).toBeGreaterThan(250_000);
      const [fromBatch, fromChunk] = await Promise.all([fetch(location.url), fetch(alone[i]!.url)]);
      expect(fromBatch.status).toBe(200);
      expect(Buffer.from(await fromBatch.arrayBuffer()).equals(Buffer.from(await fromChunk.arrayBuffer()))).toBe(true);
    }
    // The count runs to the series' end at most: 300 frames are 19 chunks.
    const tail = (await get(batchPath(images.bmode.chunks[0]!, 'from=17&count=256'))).json() as { locations: { chunk: number }[] };
    expect(tail.locations.map((l) => l.chunk)).toEqual([17, 18]);
  });

  it("lists a demo record's chunks not made yet as not ready, without making them", async () => {
    const { server, get } = signing;
    // A record nobody opened: nothing of it is made until asked for.
    const list = (await get('/api/demo/patients/DEM-001/records')).json() as { records: { recordId: string; bmodeFrameCount: number }[] };
    const other = list.records.find((r) => r.recordId !== signing.images.recordId && r.bmodeFrameCount > 48)!;
    const record = (await findRecord(server.database.db, 'demo', other.recordId))!;
    const base = `/api/demo/records/${other.recordId}`;
    const v = encodeURIComponent(record.imagingVersion);
    const before = (await get(`${base}/frame-locations/bmode?v=${v}&from=0&count=3`)).json() as { locations: object[] };
    expect(before.locations).toEqual([0, 1, 2].map((chunk) => ({ chunk, ready: false })));
    expect((await get(`${base}/frames/bmode/1?v=${v}`, { 'x-ivus-urgent': '1' })).statusCode).toBe(200);
    const after = (await get(`${base}/frame-locations/bmode?v=${v}&from=0&count=3`)).json() as { locations: { chunk: number; ready?: false; url?: string }[] };
    expect(after.locations.map((l) => (l.url ? 'ready' : l.ready))).toEqual([false, 'ready', false]);
  });

  it('refuses a batch for another tenant, a replaced version, no token, and counts or chunks out of range', async () => {
    const { server, get, images } = signing;
    const acme = await clinicianAuthorization(server, 'acme');
    const path = batchPath(images.bmode.chunks[0]!, 'from=0&count=4');
    const answers = [
      await server.app.inject({ url: path.replace('/api/demo/', '/api/acme/'), headers: { host: hostOf('acme'), authorization: acme } }),
      await server.app.inject({ url: path, headers: { host: hostOf('demo') } }),
      await get(path.replace(/v=[^&]+/, 'v=v0')),
      await get(path.replace('count=4', 'count=257')),
      await get(path.replace('count=4', 'count=0')),
      await get(path.replace('from=0', 'from=-1')),
      await get(path.replace('from=0', 'from=19')),
      await get(path.replace('from=0', 'from=1%00')),
      await get(path.replace('&from=0', '')),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([404, 401, 404, 400, 400, 400, 404, 400, 400]);
    for (const answer of answers) expect(answer.body).not.toMatch(/X-Amz-Signature/);
    expect(answers[3]!.json()).toMatchObject({ message: expect.stringMatching(/count must be 1 to 256/) });
  });

  it('sends the bytes itself when FRAMES_FROM_STORE is off', async () => {
    const { get, images } = await serverWith({ FRAMES_FROM_STORE: 'false' }, await s3.createBucket());
    const answer = await get(`/api/demo/${images.angio.chunks[0]}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe(FRAME_PACK_MEDIA_TYPE);
    const frames = await chunkFrames(answer, images.angio.width * images.angio.height);
    expect(frames.map((frame) => frame.length)).toEqual(Array.from({ length: 16 }, () => images.angio.width * images.angio.height));
    // No batch of locations either: the page keeps asking each chunk of the app.
    expect((await get(batchPath(images.angio.chunks[0]!, 'from=0&count=2'))).statusCode).toBe(404);
    // A second server to seed within the test: room for a busy machine, not a measure of speed.
  }, 180_000);
});
