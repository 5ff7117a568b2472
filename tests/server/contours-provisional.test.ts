/**
 * `GET /api/{tenant}/records/{recordId}/contours/provisional` (issue 23): what a record's detection
 * has found so far, for a first open's provisional MLA. Served to any signed-in member of the
 * record's tenant (as the contours are), never to another tenant or without a token; bad input is a
 * 400 that says what is wrong; 404 when there is nothing provisional (not yet, or the final
 * contours are stored, which replace it).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContoursProcessingSchema, RecordContoursSchema } from '../../src/domain/contours/api.ts';
import { ProvisionalContoursSchema } from '../../src/domain/contours/provisional-contours.ts';
import { CONTOUR_ALGORITHM_VERSION } from '../../src/server/contours/record-contours.ts';
import { findRecord } from '../../src/server/db/records.ts';
import { clinicianAuthorization, createTestServer, hostOf, postgresUnavailable, type TestServer } from './test-server.ts';

describe.skipIf(postgresUnavailable)('provisional contours', () => {
  let server: TestServer;
  let authorization: string;
  let acmeAuthorization: string;
  let recordId: string;
  let acmeRecordId: string;

  beforeAll(async () => {
    server = await createTestServer();
    authorization = await clinicianAuthorization(server, 'demo');
    acmeAuthorization = await clinicianAuthorization(server, 'acme');
    const list = await get('/api/demo/patients/DEM-001/records');
    recordId = list.json().records.find((r: { bmodeFrameCount: number }) => r.bmodeFrameCount === 300).recordId;
    const acmeList = await server.app.inject({ url: '/api/acme/patients/ACM-001/records', headers: { host: hostOf('acme'), authorization: acmeAuthorization } });
    acmeRecordId = acmeList.json().records[0].recordId;
  }, 180_000);
  afterAll(() => server?.close());

  function get(url: string, headers: Record<string, string> = {}) {
    return server.app.inject({ url, headers: { host: hostOf('demo'), authorization, 'accept-encoding': 'gzip', ...headers } });
  }
  const provisionalUrl = () => `/api/demo/records/${recordId}/contours/provisional`;

  it('answers 404 before any detection, then during it the frames detected so far (the 202 says how many), and 404 again once the final contours are stored', async () => {
    const before = await get(provisionalUrl());
    expect(before.statusCode).toBe(404);
    expect(before.json().message).toMatch(/No provisional contours/);

    // The first poll starts the detection (inline here): poll until it has published provisional frames.
    let published = 0;
    let final = null;
    for (let polls = 0; polls < 2000 && final === null; polls++) {
      const response = await get(`/api/demo/records/${recordId}/contours`);
      if (response.statusCode === 200) {
        final = RecordContoursSchema.parse(JSON.parse(zlib.gunzipSync(response.rawPayload).toString('utf8')));
        break;
      }
      const progress = ContoursProcessingSchema.parse(response.json());
      if ((progress.provisionalFrames ?? 0) > 0 && published === 0) {
        const provisional = await get(provisionalUrl());
        // Between the poll and this request the final contours may have been stored: then it is gone.
        if (provisional.statusCode === 200) {
          expect(provisional.headers['cache-control']).toBe('no-store');
          const body = ProvisionalContoursSchema.parse(JSON.parse(zlib.gunzipSync(provisional.rawPayload).toString('utf8')));
          expect(body.status).toBe('provisional');
          expect(body.frameCount).toBe(300);
          expect(body.detectedFrames).toBeGreaterThan(0);
          expect(body.detectedFrames).toBeLessThan(300);
          expect(body.mla).not.toBeNull();
          published = body.detectedFrames;
          // Without gzip: the same body, as plain JSON.
          const plain = await get(provisionalUrl(), { 'accept-encoding': 'identity' });
          if (plain.statusCode === 200) expect(plain.headers['content-encoding']).toBeUndefined();
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(final, 'the final contours were stored').not.toBeNull();
    expect(published, 'provisional contours were served while the detection ran').toBeGreaterThan(0);
    const after = await get(provisionalUrl());
    expect(after.statusCode).toBe(404);
  }, 180_000);

  it('serves a stored provisional body only to the record’s tenant, with a token, and refuses bad input with a 400 or 404 that says why', async () => {
    // A provisional body as a detection under way leaves it (the final contours of this record are stored by now: drop them).
    const record = (await findRecord(server.database.db, 'demo', recordId))!;
    const dir = path.join(server.storeDir, 'demo', recordId, record.imagingVersion, 'contours');
    fs.rmSync(path.join(dir, `${CONTOUR_ALGORITHM_VERSION}.json.gz`), { force: true });
    const body = { status: 'provisional', version: record.imagingVersion, frameCount: 300, detectedFrames: 1, slices: [{ slice: 5, areaMm2: 4.2, minDiameterMm: 2.1, maxDiameterMm: 2.4 }], mla: { slice: 5, areaMm2: 4.2 }, references: { proximal: null, distal: null }, stenosisPercent: null };
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${CONTOUR_ALGORITHM_VERSION}.provisional.json.gz`), zlib.gzipSync(JSON.stringify(body)));

    const ok = await get(provisionalUrl(), { 'accept-encoding': 'identity' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual(body);

    const cases: [string, number, RegExp][] = [
      [`/api/demo/records/${acmeRecordId}/contours/provisional`, 404, /No record/],
      ['/api/demo/records/00000000-0000-4000-8000-000000000000/contours/provisional', 404, /No record/],
      [`/api/demo/records/${recordId}/contours/provisional?v=v0`, 404, /replaced by a newer version/],
      ['/api/demo/records/not-a-record/contours/provisional', 400, /recordId must be a record id/],
      [`/api/demo/records/${recordId}/contours/provisional?after=2`, 400, /unknown parameter "after"/],
      [`/api/demo/records/${recordId}/contours/provisional?v=${'x'.repeat(65)}`, 400, /v/],
    ];
    for (const [url, status, message] of cases) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(status);
      expect(response.json().message, url).toMatch(message);
    }
    // Another tenant's clinician, on its own host: the demo record is not there.
    const fromAcme = await server.app.inject({ url: `/api/acme/records/${recordId}/contours/provisional`, headers: { host: hostOf('acme'), authorization: acmeAuthorization } });
    expect(fromAcme.statusCode).toBe(404);
    // Another tenant's token on this tenant's host is refused before any record is looked up.
    const crossToken = await server.app.inject({ url: provisionalUrl(), headers: { host: hostOf('demo'), authorization: acmeAuthorization } });
    expect(crossToken.statusCode).toBe(401);
    const anonymous = await server.app.inject({ url: provisionalUrl(), headers: { host: hostOf('demo') } });
    expect(anonymous.statusCode).toBe(401);
    const badToken = await server.app.inject({ url: provisionalUrl(), headers: { host: hostOf('demo'), authorization: 'Bearer not-a-token' } });
    expect(badToken.statusCode).toBe(401);
  });
});
