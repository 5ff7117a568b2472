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

  it('sends the bytes itself when FRAMES_FROM_STORE is off', async () => {
    const { get, images } = await serverWith({ FRAMES_FROM_STORE: 'false' }, await s3.createBucket());
    const answer = await get(`/api/demo/${images.angio.chunks[0]}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe(FRAME_PACK_MEDIA_TYPE);
    const frames = await chunkFrames(answer, images.angio.width * images.angio.height);
    expect(frames.map((frame) => frame.length)).toEqual(Array.from({ length: 16 }, () => images.angio.width * images.angio.height));
    // A second server to seed within the test: room for a busy machine, not a measure of speed.
  }, 180_000);
});
