import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContoursProcessingSchema, hasBorder } from '../../src/domain/contours/api.ts';
import { RecordContoursWithStentSchema, type RecordContoursWithStent } from '../../src/domain/stent/stored-stent.ts';
import { diceCoefficient } from '../../src/domain/contours/agreement.ts';
import { LOW_CONFIDENCE } from '../../src/domain/contours/border-detection.ts';
import { enclosesContour, measuredOutline } from '../../src/domain/contours/measurements.ts';
import { lumenAreaProfileMm2, truthContours } from '../../src/domain/synthetic/contours.ts';
import { CONTOUR_ALGORITHM_VERSION, contoursKey } from '../../src/server/contours/record-contours.ts';
import { findRecord } from '../../src/server/db/records.ts';
import { imagingKey } from '../../src/server/imaging/record-imaging.ts';
import { LocalDirectoryStore } from '../../src/server/storage/local-directory-store.ts';
import { pullbackModelOf } from '../../src/server/imaging/record-imaging.ts';
import { clinicianAuthorization, createTestServer, hostOf, postgresUnavailable, type TestServer } from './test-server.ts';

describe.skipIf(postgresUnavailable)('record contours', () => {
  let server: TestServer;
  let authorization: string;
  let acmeAuthorization: string;
  let recordId: string;
  let acmeRecordId: string;

  beforeAll(async () => {
    server = await createTestServer();
    authorization = await clinicianAuthorization(server, 'demo');
    const list = await get('/api/demo/patients/DEM-001/records');
    recordId = list.json().records.find((r: { bmodeFrameCount: number }) => r.bmodeFrameCount === 300).recordId;
    acmeAuthorization = await clinicianAuthorization(server, 'acme');
    const acmeList = await server.app.inject({
      url: '/api/acme/patients/ACM-001/records',
      headers: { host: hostOf('acme'), authorization: acmeAuthorization },
    });
    acmeRecordId = acmeList.json().records[0].recordId;
  });
  afterAll(() => server.close());

  function get(url: string, headers: Record<string, string> = {}) {
    return server.app.inject({ url, headers: { host: hostOf('demo'), authorization, 'accept-encoding': 'gzip', ...headers } });
  }
  const contoursUrl = () => `/api/demo/records/${recordId}/contours`;

  /**
   * Polls until the contours are ready with their stent (the borders come first, issue 23; the record's 300 frames are made and detected inline: a few
   * seconds on an idle machine, over a minute on a shared one). The bound only keeps a hung server
   * from hanging the run; it is not a speed check, so it sits well above any load seen here.
   */
  async function ready(): Promise<{ body: RecordContoursWithStent; etag: string; polls: number }> {
    const deadline = Date.now() + 280_000;
    for (let polls = 1; Date.now() < deadline; polls++) {
      const response = await get(contoursUrl());
      if (response.statusCode === 200) {
        expect(response.headers['content-encoding']).toBe('gzip');
        // With the stent the detection read beside the borders (issue 28).
        const body = RecordContoursWithStentSchema.parse(JSON.parse(zlib.gunzipSync(response.rawPayload).toString('utf8')));
        if (!body.stentPending) return { body, etag: response.headers.etag as string, polls };
      } else expect(response.statusCode).toBe(202);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('contours never became ready');
  }

  it('answers 202 with the progress while detecting, then 200 with every slice', async () => {
    const first = await get(contoursUrl());
    expect(first.statusCode).toBe(202);
    expect(first.headers['cache-control']).toBe('no-store');
    const progress = ContoursProcessingSchema.parse(first.json());
    expect(progress).toMatchObject({ status: 'processing', total: 300 });
    expect(progress.done).toBeLessThanOrEqual(300);

    const { body, polls } = await ready();
    expect(polls).toBeGreaterThan(1);
    expect(body).toMatchObject({ version: 'v1', frameCount: 300, pixelSpacingMm: 0.01 });
    expect(body.contours.map((c) => c.slice)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    // The generator's clean frames are all readable: every slice has its borders.
    const contours = body.contours.filter(hasBorder);
    expect(contours).toHaveLength(300);
    for (const contour of contours) {
      expect(contour.controlPoints).toHaveLength(16);
      expect(contour.minDiameterMm).toBeLessThanOrEqual(contour.maxDiameterMm);
      // The diameter of the circle of the same area lies between them (for these near-elliptical lumens).
      const circleDiameter = 2 * Math.sqrt(contour.areaMm2 / Math.PI);
      expect(contour.minDiameterMm).toBeLessThanOrEqual(circleDiameter + 1e-3);
      expect(contour.maxDiameterMm).toBeGreaterThanOrEqual(circleDiameter - 1e-3);
      expect(contour.eccentricity).toBeCloseTo((contour.maxDiameterMm - contour.minDiameterMm) / contour.maxDiameterMm, 3);
      // The vessel border: its own control points, around the lumen, and the plaque between them.
      expect(contour.vessel.controlPoints).toHaveLength(16);
      expect(enclosesContour(contour.vessel.controlPoints, contour.controlPoints)).toBe(true);
      expect(contour.vessel.areaMm2).toBeGreaterThan(contour.areaMm2);
      expect(contour.plaqueAreaMm2).toBeCloseTo(contour.vessel.areaMm2 - contour.areaMm2, 3);
      expect(contour.plaqueBurden).toBeCloseTo(contour.plaqueAreaMm2 / contour.vessel.areaMm2, 3);
      expect(contour.plaqueBurden).toBe(Math.round(contour.plaqueBurden * 1e4) / 1e4);
      expect(contour.confidence).toBeGreaterThanOrEqual(0);
      expect(contour.confidence).toBeLessThanOrEqual(1);
    }
    const burdens = contours.map((c) => c.plaqueBurden);
    expect(body.maxPlaqueBurden).toEqual({ slice: burdens.indexOf(Math.max(...burdens)) + 1, plaqueBurden: Math.max(...burdens) });
    expect(body.lowConfidenceSlices).toEqual(body.contours.filter((c) => c.confidence < LOW_CONFIDENCE).map((c) => c.slice));
  }, 300_000);

  it('finds the lumen and vessel the generator drew, and the pullback analysis from the areas', async () => {
    const { body } = await ready();
    const contours = body.contours.filter(hasBorder);
    expect(contours).toHaveLength(body.contours.length);
    const record = (await findRecord(server.database.db, 'demo', recordId))!;
    const model = pullbackModelOf(record);
    const trueAreas = lumenAreaProfileMm2(model);
    let diceSum = 0;
    let areaErrorSum = 0;
    for (const contour of contours) {
      const frame = contour.slice - 1;
      diceSum += diceCoefficient(measuredOutline(contour.controlPoints), truthContours(model, frame).lumen, model.frameSizePx);
      areaErrorSum += Math.abs(contour.areaMm2 - trueAreas[frame]!) / trueAreas[frame]!;
    }
    expect(diceSum / body.contours.length).toBeGreaterThan(0.95);
    expect(areaErrorSum / body.contours.length).toBeLessThan(0.05);
    // The vessel (EEM) border against the generator's, on the curve through its control points.
    let vesselDice = 0;
    for (const contour of contours) {
      vesselDice += diceCoefficient(measuredOutline(contour.vessel.controlPoints), truthContours(model, contour.slice - 1).vessel, model.frameSizePx);
    }
    expect(vesselDice / body.contours.length).toBeGreaterThan(0.9);

    const areas = contours.map((c) => c.areaMm2);
    const smallest = Math.min(...areas);
    expect(body.mla).toEqual({ slice: areas.indexOf(smallest) + 1, areaMm2: smallest });
    // The detected MLA slice is one whose true area is within 5% of the true minimum.
    expect(trueAreas[body.mla!.slice - 1]!).toBeLessThan(1.05 * Math.min(...trueAreas));
    // 300 frames at 60 frames/mm is 5 mm: the references are the largest lumens on each side.
    const mlaIndex = body.mla!.slice - 1;
    const distal = areas.slice(0, mlaIndex);
    const proximal = areas.slice(mlaIndex + 1);
    expect(body.references.distal).toEqual(distal.length ? { slice: distal.indexOf(Math.max(...distal)) + 1, areaMm2: Math.max(...distal) } : null);
    expect(body.references.proximal).toEqual(
      proximal.length ? { slice: mlaIndex + 2 + proximal.indexOf(Math.max(...proximal)), areaMm2: Math.max(...proximal) } : null,
    );
    const references = [body.references.distal, body.references.proximal].filter((r) => r !== null).map((r) => r.areaMm2);
    const reference = references.reduce((a, b) => a + b, 0) / references.length;
    expect(body.stenosisPercent).toBeCloseTo((100 * (reference - smallest)) / reference, 1);
  });

  it('serves the stored result again, revalidates with its ETag, and sends plain JSON to clients without gzip', async () => {
    const { body, etag } = await ready();
    expect(etag).toMatch(/^"v1-lumen-vessel-\d+-gz"$/);
    const again = await get(contoursUrl(), { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    const plain = await get(contoursUrl(), { 'accept-encoding': 'identity' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
    expect(plain.json()).toEqual(body);
    // The stent is read and stored with the borders, found or not (issue 28).
    expect(body.stent).toMatchObject({ slices: expect.any(Array), malapposition: expect.any(Array) });
  });

  it('serves the final borders while the stent is read (marked, with none of it, under an ETag of their own), and a stent reading stopped with its server is resumed by the next poll', async () => {
    const { body, etag } = await ready();
    // As a server stopped between storing the borders and the stent leaves them (record-contours.ts).
    const store = new LocalDirectoryStore(server.storeDir);
    const record = (await findRecord(server.database.db, 'demo', recordId))!;
    const { stent: _stent, ...borders } = body;
    await store.put(imagingKey(record, `contours/${CONTOUR_ALGORITHM_VERSION}.stent-pending`), Buffer.from('2026-01-01T00:00:00Z'));
    await store.put(contoursKey(record), zlib.gzipSync(JSON.stringify({ ...borders, stentPending: true })));

    // The poll answers 200 with the borders and MLA, says the stent is still to come, and queues the job that reads it.
    const pending = await get(contoursUrl(), { 'if-none-match': etag });
    expect(pending.statusCode).toBe(200);
    expect(pending.headers.etag).not.toBe(etag);
    expect(pending.headers.etag).toMatch(/stent-pending/);
    const served = RecordContoursWithStentSchema.parse(JSON.parse(zlib.gunzipSync(pending.rawPayload).toString('utf8')));
    expect(served.stentPending).toBe(true);
    expect(served.stent).toBeUndefined();
    expect(served.mla).toEqual(body.mla);

    const resumed = await ready();
    expect(resumed.body).toEqual(body);
    expect(resumed.etag).toBe(etag);
  });

  it('answers 404 for another tenant’s record, 400 for a bad id or parameter, 401 without a token', async () => {
    const cases: [string, number, RegExp][] = [
      [`/api/demo/records/${acmeRecordId}/contours`, 404, /No record/],
      ['/api/demo/records/00000000-0000-4000-8000-000000000000/contours', 404, /No record/],
      [`/api/demo/records/${recordId}/contours?v=v0`, 404, /replaced by a newer version/],
      ['/api/demo/records/not-a-record/contours', 400, /recordId must be a record id/],
      [`/api/demo/records/${recordId}/contours?page=2`, 400, /unknown parameter "page"/],
    ];
    for (const [url, status, message] of cases) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(status);
      expect(response.json().message, url).toMatch(message);
    }
    const fromAcme = await server.app.inject({
      url: `/api/acme/records/${recordId}/contours`,
      headers: { host: hostOf('acme'), authorization: acmeAuthorization },
    });
    expect(fromAcme.statusCode).toBe(404);
    const anonymous = await server.app.inject({ url: contoursUrl(), headers: { host: hostOf('demo') } });
    expect(anonymous.statusCode).toBe(401);
  });
});
