/**
 * "Send to PACS" with the stent and gating (issue 28), through the route into Orthanc: a stented
 * pullback imported from DICOM has its stent read by the server's own detection (the same stent the
 * review would read from the same frames), served with the contours; the PDF sent to the PACS has
 * the stent section, and the gated section when the clinician sent with gating on; the SR has the
 * stent group. Once a stent border corrected by hand is saved, both carry the MSA the clinician drew. The frames are the generator's stent case, one every 24th frame (2.5 frames/mm).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { emptyManifest } from '../../../src/domain/annotations/manifest.ts';
import { lumenAreaMm2 } from '../../../src/domain/contours/measurements.ts';
import type { PacsConnection } from '../../../src/domain/pacs.ts';
import { detectStent } from '../../../src/domain/stent/stent-analysis.ts';
import { stentResults } from '../../../src/domain/stent/stent-results.ts';
import { RecordContoursWithStentSchema } from '../../../src/domain/stent/stored-stent.ts';
import { createStrutDetector } from '../../../src/domain/stent/strut-detection.ts';
import { createBmodeRenderer } from '../../../src/domain/synthetic/bmode-frame.ts';
import { stentCase } from '../../../src/domain/synthetic/stent-cases.ts';
import { truthStentFrames } from '../../../src/domain/synthetic/stent-truth.ts';
import { listAnnotationVersions, saveAnnotationVersion } from '../../../src/server/db/annotations.ts';
import { CONTOUR_ALGORITHM_VERSION, contoursKey } from '../../../src/server/contours/record-contours.ts';
import { findRecord } from '../../../src/server/db/records.ts';
import { imagingKey } from '../../../src/server/imaging/record-imaging.ts';
import { LocalDirectoryStore } from '../../../src/server/storage/local-directory-store.ts';
import { findUserByEmail } from '../../../src/server/db/tenants.ts';
import { readPart10, type Naturalized } from '../../../src/server/dicom/sr/dcmjs.ts';
import { makeDicom } from '../../support/dicom-fixtures.ts';
import { orthancAvailable, startOrthanc, type OrthancHandle } from '../../support/orthanc.ts';
import { batchDone, closeSession, openSession, uploadAccepted, type Session } from '../import-session.ts';
import { hostOf, mintIdToken } from '../test-server.ts';

const STRIDE = 24;
const hasPdftotext = spawnSync('pdftotext', ['-v']).status === 0;

/** The stent case's frames from 4 strides before the stent to 4 after it, one every STRIDE. */
function stentedFrames() {
  const model = stentCase(1104).model;
  const span = truthStentFrames(model)!;
  const renderer = createBmodeRenderer(model);
  const frames: Uint8Array[] = [];
  for (let f = span.first - 4 * STRIDE; f <= span.last + 4 * STRIDE; f += STRIDE) frames.push(renderer.renderFrame(f));
  return { frames, size: model.frameSizePx, pixelSpacingMm: model.pixelSpacingMm, framesPerMm: model.frameRateHz / model.pullbackSpeedMmPerS / STRIDE };
}

describe.skipIf(!orthancAvailable())('sending a stented record to PACS', () => {
  let session: Session;
  let orthanc: OrthancHandle;
  let connection: PacsConnection;
  let recordId: string;
  let stented: ReturnType<typeof stentedFrames>;

  const call = (method: string, url: string, authorization: string, payload?: object) =>
    session.server.app.inject({
      method: method as 'GET',
      url,
      headers: { host: hostOf('demo'), authorization, ...(payload ? { 'content-type': 'application/json' } : {}) },
      ...(payload ? { payload: JSON.stringify(payload) } : {}),
    });
  /** Sends until the borders are detected (the first send asks for them). */
  const send = async (body: object) => {
    let sent = await call('POST', `/api/demo/records/${recordId}/pacs-send`, session.authorization, body);
    for (let attempt = 0; sent.statusCode === 409 && ['contours_not_ready', 'stent_not_ready'].includes(sent.json().error) && attempt < 600; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      sent = await call('POST', `/api/demo/records/${recordId}/pacs-send`, session.authorization, body);
    }
    return sent;
  };
  const stored = async (sopInstanceUid: string, what: 'file' | 'pdf') => {
    const found = await fetch(`${orthanc.httpUrl}/tools/find`, {
      method: 'POST',
      headers: { authorization: orthanc.authorization!, 'content-type': 'application/json' },
      body: JSON.stringify({ Level: 'Instance', Query: { SOPInstanceUID: sopInstanceUid } }),
    });
    const [id] = (await found.json()) as string[];
    const response = await fetch(`${orthanc.httpUrl}/instances/${id}/${what}`, { headers: { authorization: orthanc.authorization! } });
    expect(response.status).toBe(200);
    return new Uint8Array(await response.arrayBuffer());
  };
  const pdfText = (bytes: Uint8Array) => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-stent-pdf-')), 'report.pdf');
    fs.writeFileSync(file, bytes);
    const text = spawnSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).stdout;
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    return text;
  };

  beforeAll(async () => {
    stented = stentedFrames();
    const { frames, size, pixelSpacingMm } = stented;
    // 30 frames/s (the fixture's frame time) at 12 mm/s: 2.5 frames/mm, as the frames were taken.
    const pullback = makeDicom({ frames: frames.length, rows: size, columns: size, regionDeltaXcm: pixelSpacingMm / 10, pullbackRate: 12, pixel: (f, x, y) => frames[f]![y * size + x]! });
    orthanc = (await startOrthanc({ users: { alice: 'alice-secret' } }))!;
    session = await openSession({ LOG_LEVEL: 'error', PACS_ALLOW_LOOPBACK: 'true' });
    const [done] = await batchDone(session, await uploadAccepted(session, [{ name: 'stented.dcm', bytes: pullback.bytes }]));
    recordId = done!.recordId!;
    const admin = (await findUserByEmail(session.server.database.db, 'demo', 'admin@demo.test'))!;
    const adminAuthorization = `Bearer ${await mintIdToken(session.server, 'demo', { sub: admin.id })}`;
    const created = await call('POST', '/api/demo/pacs/connections', adminAuthorization, {
      name: 'Cath lab PACS',
      qidoUrl: orthanc.dicomWebUrl,
      auth: { kind: 'basic', username: 'alice', password: 'alice-secret' },
    });
    expect(created.statusCode, created.body).toBe(201);
    connection = created.json();
  }, 180_000);
  afterAll(async () => {
    await closeSession(session);
    await orthanc?.stop();
  });

  it('stores the stent the review would read from the same frames with the contours, then sends it in the PDF and the SR, and the gated section with gating on', async () => {
    const sent = await send({ connectionId: connection.id, gating: true });
    expect(sent.statusCode, sent.body).toBe(200);

    // The server's stent is the page's reading of the same gray frames, to the last figure.
    const contours = RecordContoursWithStentSchema.parse((await call('GET', `/api/demo/records/${recordId}/contours`, session.authorization)).json());
    const { frames, size, pixelSpacingMm, framesPerMm } = stented;
    const detector = createStrutDetector({ frameWidth: size, frameHeight: size, centreX: size / 2, centreY: size / 2, pixelSpacingMm });
    const inPage = stentResults(detectStent(frames.map((frame) => detector.detect(frame)), framesPerMm));
    expect(contours.stent).toEqual(inPage);
    const stent = contours.stent!;
    expect(stent.segment).not.toBeNull();
    expect(stent.msa).not.toBeNull();
    expect(stent.malapposition.length).toBeGreaterThan(0);

    const result = sent.json() as { stored: { kind: string; sopInstanceUid: string }[] };
    const pdfUid = result.stored.find((s) => s.kind === 'pdf')!.sopInstanceUid;
    const srUid = result.stored.find((s) => s.kind === 'sr')!.sopInstanceUid;

    // The SR's stent group: the MSA on its frame, as stored.
    const sr = readPart10(await stored(srUid, 'file'));
    const all = (node: Naturalized): Naturalized[] => ((node.ContentSequence as Naturalized[] | undefined) ?? []).flatMap((child) => [child, ...all(child)]);
    const msa = all(sr).find((item) => (item.ConceptNameCodeSequence as Naturalized[] | undefined)?.[0]?.CodeValue === 'MSA')!;
    expect(Number((msa.MeasuredValueSequence as Naturalized[])[0]!.NumericValue)).toBeCloseTo(stent.msa!.areaMm2, 6);
    expect(all(msa).find((item) => item.ValueType === 'IMAGE')!.ReferencedSOPSequence).toMatchObject([{ ReferencedFrameNumber: stent.msa!.slice }]);

    if (!hasPdftotext) return;
    const text = pdfText(await stored(pdfUid, 'pdf'));
    expect(text).toContain('Stent');
    expect(text).toContain(`MSA ${stent.msa!.areaMm2.toFixed(2)} mm² at slice ${stent.msa!.slice}`);
    expect(text).toContain(`Stented segment: distal edge slice ${stent.segment!.distalSlice}, proximal edge slice ${stent.segment!.proximalSlice}`);
    expect(text).toMatch(/Expansion (\d+ %|not measurable) of the mean reference/);
    expect(text).toContain('Malapposition: slices');
    expect(text).toContain('Max plaque burden within 5 mm of each edge');
    // Gating was asked for: the server gated the frames itself (these frames, one every 24th, beat no heart: it says so).
    expect(text).toContain('Gated analysis');
  }, 300_000);

  it('sends no gated section when gating is off', async () => {
    const sent = await send({ connectionId: connection.id });
    expect(sent.statusCode, sent.body).toBe(200);
    if (!hasPdftotext) return;
    const pdfUid = (sent.json() as { stored: { kind: string; sopInstanceUid: string }[] }).stored.find((s) => s.kind === 'pdf')!.sopInstanceUid;
    const text = pdfText(await stored(pdfUid, 'pdf'));
    expect(text).toContain('Stent');
    expect(text).not.toContain('Gated analysis');
  }, 120_000);

  it('reads the stent references the clinician moved and saved with the annotations, as the review shows them', async () => {
    const contours = RecordContoursWithStentSchema.parse((await call('GET', `/api/demo/records/${recordId}/contours`, session.authorization)).json());
    const distalEdge = contours.stent!.segment!.distalSlice;
    const result = await session.server.database.db.execute(sql`select patient_id from records where id = ${recordId}`);
    const patientId = (result as unknown as { rows: { patient_id: string }[] }).rows[0]!.patient_id;
    const form = new FormData();
    form.append('recordId', recordId);
    form.append('patientId', patientId);
    form.append('file', new Blob([JSON.stringify({ ...emptyManifest(), stentReferences: { distal: 1 } })], { type: 'application/json' }), 'manifest.json');
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    const saved = await session.server.app.inject({
      method: 'POST',
      url: '/api/demo/records?status=new',
      headers: { host: hostOf('demo'), authorization: session.authorization, 'content-type': request.headers.get('content-type')! },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const sent = await send({ connectionId: connection.id });
    expect(sent.statusCode, sent.body).toBe(200);
    if (!hasPdftotext) return;
    const pdfUid = (sent.json() as { stored: { kind: string; sopInstanceUid: string }[] }).stored.find((s) => s.kind === 'pdf')!.sopInstanceUid;
    const text = pdfText(await stored(pdfUid, 'pdf'));
    // Slice 1 or, where it has no lumen area, the nearest measured slice before the distal edge.
    const moved = Number(/distal reference moved by hand to slice (\d+)/.exec(text)?.[1]);
    expect(moved).toBeGreaterThanOrEqual(1);
    expect(moved).toBeLessThan(distalEdge);
  }, 120_000);

  it('sends the MSA on the stent border the clinician drew, naming the slice, once a manifest with it is saved', async () => {
    const before = await send({ connectionId: connection.id });
    expect(before.statusCode, before.body).toBe(200);
    const contours = RecordContoursWithStentSchema.parse((await call('GET', `/api/demo/records/${recordId}/contours`, session.authorization)).json());
    const stent = contours.stent!;
    const { size, pixelSpacingMm } = stented;
    // A border well inside the fitted one, on the slice after the distal edge (or the one after that when the MSA is there).
    const slice = stent.segment!.distalSlice + (stent.segment!.distalSlice + 1 === stent.msa!.slice ? 2 : 1);
    const radiusPx = (0.7 * Math.sqrt(stent.msa!.areaMm2 / Math.PI)) / pixelSpacingMm;
    const controlPoints = Array.from({ length: 12 }, (_, i) => ({ x: size / 2 + radiusPx * Math.cos((i / 12) * 2 * Math.PI), y: size / 2 + radiusPx * Math.sin((i / 12) * 2 * Math.PI) }));
    const db = session.server.database.db;
    const clinician = (await findUserByEmail(db, 'demo', 'clinician@demo.test'))!;
    const record = (await findRecord(db, 'demo', recordId))!;
    // On top of whatever an earlier test of this record saved.
    const baseVersion = Math.max(0, ...(await listAnnotationVersions(db, 'demo', recordId)).map((v) => v.version));
    const saved = await saveAnnotationVersion(db, {
      tenantId: 'demo', recordId, patientId: record.patientId, baseVersion, baseStatus: record.annotationStatus ?? 'new',
      manifest: { ...emptyManifest(), stentBorders: [{ slice, controlPoints, source: 'manual' }] }, userId: clinician.id, email: clinician.email,
    });
    expect(saved.ok).toBe(true);

    const sent = await send({ connectionId: connection.id });
    expect(sent.statusCode, sent.body).toBe(200);
    const result = sent.json() as { stored: { kind: string; sopInstanceUid: string }[] };
    const sr = readPart10(await stored(result.stored.find((s) => s.kind === 'sr')!.sopInstanceUid, 'file'));
    const all = (node: Naturalized): Naturalized[] => ((node.ContentSequence as Naturalized[] | undefined) ?? []).flatMap((child) => [child, ...all(child)]);
    const concept = (item: Naturalized) => (item.ConceptNameCodeSequence as Naturalized[] | undefined)?.[0]?.CodeValue;
    const msa = all(sr).find((item) => concept(item) === 'MSA')!;
    const drawnArea = lumenAreaMm2(controlPoints, pixelSpacingMm);
    expect(Number((msa.MeasuredValueSequence as Naturalized[])[0]!.NumericValue)).toBeCloseTo(drawnArea, 3);
    expect(all(msa).find((item) => item.ValueType === 'IMAGE')!.ReferencedSOPSequence).toMatchObject([{ ReferencedFrameNumber: slice }]);
    expect(all(sr).find((item) => concept(item) === 'STENTBYHAND')!.TextValue).toBe(`slices ${slice}`);
    if (!hasPdftotext) return;
    const text = pdfText(await stored(result.stored.find((s) => s.kind === 'pdf')!.sopInstanceUid, 'pdf'));
    expect(text).toContain(`MSA ${(Math.round(drawnArea * 1000) / 1000).toFixed(2)} mm² at slice ${slice}`);
    expect(text).toContain(`Stent border corrected by hand on slice ${slice}`);
  }, 120_000);

  it('refuses gating that is not true or false, and figures of the client’s own, before calling the PACS', async () => {
    const asString = await call('POST', `/api/demo/records/${recordId}/pacs-send`, session.authorization, { connectionId: connection.id, gating: 'yes' });
    expect(asString.statusCode).toBe(400);
    expect(asString.json().message).toMatch(/gating/);
    const withFigures = await call('POST', `/api/demo/records/${recordId}/pacs-send`, session.authorization, { connectionId: connection.id, gating: true, heartRateBpm: 60 });
    expect(withFigures.statusCode).toBe(400);
  });

  it('refuses to send while the stent is still being read (the borders stored before it), unless the clinician corrected it by hand, and sends it once in', async () => {
    const db = session.server.database.db;
    const record = (await findRecord(db, 'demo', recordId))!;
    const clinician = (await findUserByEmail(db, 'demo', 'clinician@demo.test'))!;
    const store = new LocalDirectoryStore(session.server.storeDir);
    const withStent = RecordContoursWithStentSchema.parse((await call('GET', `/api/demo/records/${recordId}/contours`, session.authorization)).json());
    const stent = withStent.stent!;
    // As the detection leaves them between the last border and the stent (record-contours.ts).
    const stentStillRead = async () => {
      const { stent: _stent, ...borders } = withStent;
      await store.put(imagingKey(record, `contours/${CONTOUR_ALGORITHM_VERSION}.stent-pending`), Buffer.from('reading'));
      await store.put(contoursKey(record), zlib.gzipSync(JSON.stringify({ ...borders, stentPending: true })));
    };
    const saveManifest = async (manifest: ReturnType<typeof emptyManifest>) => {
      const baseVersion = Math.max(0, ...(await listAnnotationVersions(db, 'demo', recordId)).map((v) => v.version));
      const saved = await saveAnnotationVersion(db, {
        tenantId: 'demo', recordId, patientId: record.patientId, baseVersion, baseStatus: (await findRecord(db, 'demo', recordId))!.annotationStatus ?? 'new',
        manifest, userId: clinician.id, email: clinician.email,
      });
      expect(saved.ok).toBe(true);
    };

    // Without a stent corrected by hand the report would say "no stent" on a stented vessel: 409, nothing sent.
    await saveManifest(emptyManifest());
    await stentStillRead();
    const refused = await call('POST', `/api/demo/records/${recordId}/pacs-send`, session.authorization, { connectionId: connection.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'stent_not_ready', message: expect.stringMatching(/stent is still being read/) });
    // The poll of the send queued the stent's reading: sent once it is in, with the stent's MSA.
    const later = await send({ connectionId: connection.id });
    expect(later.statusCode, later.body).toBe(200);
    const sr = readPart10(await stored((later.json() as { stored: { kind: string; sopInstanceUid: string }[] }).stored.find((s) => s.kind === 'sr')!.sopInstanceUid, 'file'));
    const all = (node: Naturalized): Naturalized[] => ((node.ContentSequence as Naturalized[] | undefined) ?? []).flatMap((child) => [child, ...all(child)]);
    const msa = all(sr).find((item) => (item.ConceptNameCodeSequence as Naturalized[] | undefined)?.[0]?.CodeValue === 'MSA')!;
    expect(Number((msa.MeasuredValueSequence as Naturalized[])[0]!.NumericValue)).toBeCloseTo(stent.msa!.areaMm2, 3);

    // With a stent border corrected by hand the server reads the frames itself: sent at once.
    const slice = stent.segment!.distalSlice + 1;
    const controlPoints = Array.from({ length: 12 }, (_, i) => ({ x: stented.size / 2 + 20 * Math.cos((i / 12) * 2 * Math.PI), y: stented.size / 2 + 20 * Math.sin((i / 12) * 2 * Math.PI) }));
    await saveManifest({ ...emptyManifest(), stentBorders: [{ slice, controlPoints, source: 'manual' }] });
    await stentStillRead();
    const corrected = await call('POST', `/api/demo/records/${recordId}/pacs-send`, session.authorization, { connectionId: connection.id });
    expect(corrected.statusCode, corrected.body).toBe(200);
  }, 180_000);
});
