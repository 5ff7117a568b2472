/**
 * The PACS API against a real PACS (Debian's Orthanc with its DICOMweb plugin): connections kept
 * per tenant with sealed credentials, the test button, study and series search, thumbnails, pulls
 * through the import pipeline, and the report sent back and read again from Orthanc.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setManualContour } from '../../../src/domain/annotations/contour-edits.ts';
import { newAngle, newArea, newRuler, newText } from '../../../src/domain/annotations/drag.ts';
import { addAnnotation, allAnnotations } from '../../../src/domain/annotations/edits.ts';
import { emptyManifest } from '../../../src/domain/annotations/manifest.ts';
import { RecordContoursSchema } from '../../../src/domain/contours/api.ts';
import { correctedAnalysis } from '../../../src/domain/contours/corrected-analysis.ts';
import { measureAnnotation } from '../../../src/domain/annotations/kinds/index.ts';
import { reportFrameSlices } from '../../../src/domain/reports/report-frames.ts';
import type { PacsConnection, PacsSeriesList, PacsStudyList } from '../../../src/domain/pacs.ts';
import { saveAnnotationVersion } from '../../../src/server/db/annotations.ts';
import { findUserByEmail } from '../../../src/server/db/tenants.ts';
import { importTempRoot } from '../../../src/server/http/imports.ts';
import { readMeasurementReport } from '../../../src/server/dicom/sr/read-measurement-report.ts';
import { makeDicom, newUid } from '../../support/dicom-fixtures.ts';
import { orthancAvailable, startOrthanc, type OrthancHandle } from '../../support/orthanc.ts';
import { closeSession, filesUnder, openSession, waitForImport, type Session } from '../import-session.ts';
import { hostOf, mintIdToken, postgresUnavailable } from '../test-server.ts';

/** The pullback's pixel spacing (its ultrasound region gives it in cm). */
const PULLBACK_SPACING_MM = 0.04;

describe.skipIf(postgresUnavailable || !orthancAvailable())('PACS through DICOMweb (Orthanc)', () => {
  let session: Session;
  let orthanc: OrthancHandle;
  let admin: string;
  let acmeAdmin: string;
  let connection: PacsConnection;
  /** The record the pull makes (the send tests use it). */
  let pulledRecordId: string;
  const study = { uid: newUid(), patientId: `PACS-${Date.now()}` };
  const pullback = makeDicom({ frames: 12, rows: 256, columns: 256, regionDeltaXcm: PULLBACK_SPACING_MM / 10, patientId: study.patientId, patientName: 'Pacs^Patricia', studyUid: study.uid, studyDate: '20260310' });
  const angio = makeDicom({ kind: 'xa', frames: 4, patientId: study.patientId, patientName: 'Pacs^Patricia', studyUid: study.uid, studyDate: '20260310' });

  const call = (method: string, url: string, authorization: string, payload?: object, tenant = 'demo') =>
    session.server.app.inject({
      method: method as 'GET',
      url,
      headers: { host: hostOf(tenant), authorization, ...(payload ? { 'content-type': 'application/json' } : {}) },
      ...(payload ? { payload: JSON.stringify(payload) } : {}),
    });
  const basic = (password: string) => ({ kind: 'basic', username: 'alice', password });
  const input = (overrides: object = {}) => ({ name: 'Hospital PACS', qidoUrl: orthanc.dicomWebUrl, auth: basic('alice-secret'), ...overrides });
  const tokenOf = async (tenant: string, email: string) => {
    const user = await findUserByEmail(session.server.database.db, tenant, email);
    return `Bearer ${await mintIdToken(session.server, tenant, { sub: user!.id })}`;
  };

  beforeAll(async () => {
    orthanc = (await startOrthanc({ users: { alice: 'alice-secret' } }))!;
    // Orthanc listens on 127.0.0.1: loopback PACS addresses are allowed here only.
    session = await openSession({ LOG_LEVEL: 'error', PACS_ALLOW_LOOPBACK: 'true' });
    admin = await tokenOf('demo', 'admin@demo.test');
    acmeAdmin = await tokenOf('acme', 'admin@acme.test');
    await orthanc.upload(pullback.bytes);
    await orthanc.upload(angio.bytes);
    const created = await call('POST', '/api/demo/pacs/connections', admin, input());
    expect(created.statusCode, created.body).toBe(201);
    connection = created.json();
  }, 60_000);
  afterAll(async () => {
    await closeSession(session);
    await orthanc?.stop();
  });

  it('keeps a connection per tenant for administrators, with credentials sealed and never sent back', async () => {
    expect(connection).toMatchObject({ name: 'Hospital PACS', qidoUrl: orthanc.dicomWebUrl, wadoUrl: orthanc.dicomWebUrl, authKind: 'basic', hasCredentials: true });
    const listed = await call('GET', '/api/demo/pacs/connections', session.authorization);
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain('alice-secret');
    expect(listed.json().connections).toHaveLength(1);
    // Sealed at rest: the row holds an envelope, not the password.
    const rows = await session.server.database.db.execute(sql`select credentials::text as c from pacs_connections`);
    const stored = (rows as unknown as { rows: { c: string }[] }).rows[0]!.c;
    expect(stored).toContain('A256GCM');
    expect(stored).not.toContain('alice-secret');
    // Clinicians search, administrators manage; another tenant's ids name nothing.
    expect((await call('POST', '/api/demo/pacs/connections', session.authorization, input({ name: 'Other' }))).statusCode).toBe(403);
    expect((await call('GET', '/api/acme/pacs/connections', acmeAdmin, undefined, 'acme')).json().connections).toEqual([]);
    expect((await call('POST', `/api/acme/pacs/connections/${connection.id}/test`, acmeAdmin, undefined, 'acme')).json().error).toBe('pacs_connection_not_found');
    expect((await call('POST', '/api/demo/pacs/connections', admin, input())).statusCode).toBe(409);
    const bad = await call('POST', '/api/demo/pacs/connections', admin, input({ name: 'Bad', qidoUrl: 'ftp://pacs' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/http/);
    // The cloud metadata service hands out the server's own credentials: never a PACS.
    for (const qidoUrl of ['http://169.254.169.254/latest', 'http://[fe80::1]/dicom-web', 'http://metadata.google.internal/dicom-web']) {
      const metadata = await call('POST', '/api/demo/pacs/connections', admin, input({ name: 'Metadata', qidoUrl }));
      expect(metadata.statusCode, qidoUrl).toBe(400);
      expect(metadata.json().message).toMatch(/not a PACS/);
    }
  });

  it('tests a connection and names what is wrong: refused credentials, an unreachable PACS', async () => {
    const ok = await call('POST', `/api/demo/pacs/connections/${connection.id}/test`, admin);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ ok: true, studiesFound: 1 });
    const refused = await call('POST', '/api/demo/pacs/connections/test', admin, input({ auth: basic('wrong') }));
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toMatchObject({ error: 'pacs_credentials_refused' });
    const down = await call('POST', '/api/demo/pacs/connections/test', admin, input({ qidoUrl: 'http://127.0.0.1:9/dicom-web' }));
    expect(down.json()).toMatchObject({ error: 'pacs_unreachable' });
    // A change without the password keeps the stored one (the test still passes).
    const changed = await call('PUT', `/api/demo/pacs/connections/${connection.id}`, admin, input({ auth: { kind: 'basic', username: 'alice' } }));
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await call('POST', `/api/demo/pacs/connections/${connection.id}/test`, admin)).json()).toMatchObject({ ok: true });
  });

  it('finds studies by patient, name, date and modality, and lists their series with frame counts and a thumbnail', async () => {
    const search = async (query: string) => {
      const response = await call('GET', `/api/demo/pacs/connections/${connection.id}/studies?${query}`, session.authorization);
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as PacsStudyList).studies;
    };
    const [found] = await search(`patientId=${study.patientId}`);
    expect(found).toMatchObject({ studyInstanceUid: study.uid, patientId: study.patientId, studyDate: '2026-03-10' });
    expect(found!.modalities.sort()).toEqual(['IVUS', 'XA']);
    expect(await search('patientName=patricia')).toHaveLength(1);
    expect(await search('from=2026-03-01&to=2026-03-31&modality=IVUS')).toHaveLength(1);
    expect(await search('from=2026-04-01')).toHaveLength(0);
    expect((await call('GET', `/api/demo/pacs/connections/${connection.id}/studies?modality=CT`, session.authorization)).statusCode).toBe(400);

    const series = (await call('GET', `/api/demo/pacs/connections/${connection.id}/studies/${study.uid}/series`, session.authorization)).json() as PacsSeriesList;
    const byModality = Object.fromEntries(series.series.map((s) => [s.modality, s]));
    expect(byModality.IVUS).toMatchObject({ seriesInstanceUid: pullback.seriesUid, frameCount: 12, instanceCount: 1, imported: false });
    expect(byModality.XA).toMatchObject({ seriesInstanceUid: angio.seriesUid, frameCount: 4 });
    const thumbnail = await call('GET', `/api/demo/pacs/connections/${connection.id}/studies/${study.uid}/series/${pullback.seriesUid}/thumbnail`, session.authorization);
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['content-type']).toMatch(/^image\/(jpeg|png)/);
    expect(thumbnail.rawPayload.length).toBeGreaterThan(100);
  });

  it('refuses a series the PACS does not have and leaves nothing behind', async () => {
    const pull = await call('POST', `/api/demo/pacs/connections/${connection.id}/pull`, session.authorization, { studyInstanceUid: study.uid, seriesInstanceUids: [newUid()] });
    expect(pull.statusCode).toBe(404);
    expect(pull.json()).toMatchObject({ error: 'pacs_series_not_found' });
    expect(filesUnder(importTempRoot(session.server.config))).toEqual([]);
  });

  it('pulls the pullback and the angiography run into one record, then sends the saved measurements back as an SR and a PDF', async () => {
    const pull = await call('POST', `/api/demo/pacs/connections/${connection.id}/pull`, session.authorization, {
      studyInstanceUid: study.uid,
      seriesInstanceUids: [pullback.seriesUid, angio.seriesUid],
    });
    expect(pull.statusCode, pull.body).toBe(202);
    const [accepted] = pull.json().imports;
    const done = await waitForImport(session, accepted.importId);
    expect(done).toMatchObject({ status: 'done', source: 'pacs', sourceName: 'Hospital PACS', patientId: study.patientId, framesTotal: 16 });
    const series = (await call('GET', `/api/demo/pacs/connections/${connection.id}/studies/${study.uid}/series`, session.authorization)).json() as PacsSeriesList;
    expect(series.series.every((s) => s.imported)).toBe(true);
    expect(filesUnder(importTempRoot(session.server.config))).toEqual([]);

    const recordId = done.recordId!;
    pulledRecordId = recordId;
    const clinician = (await findUserByEmail(session.server.database.db, 'demo', 'clinician@demo.test'))!;
    // A ruler, an area, an angle and a note on different slices, and a lumen corrected by hand.
    let manifest = emptyManifest();
    manifest = addAnnotation(manifest, newRuler(manifest, 3, { x: 10, y: 12 }, { x: 40, y: 52 }));
    manifest = addAnnotation(manifest, newArea(manifest, 5, Array.from({ length: 24 }, (_, i) => ({ x: 128 + 40 * Math.cos(i / 3.82), y: 120 + 30 * Math.sin(i / 3.82) }))));
    manifest = addAnnotation(manifest, newAngle(manifest, 7, { x: 128, y: 128 }, 50));
    manifest = addAnnotation(manifest, { ...newText(manifest, 9, { x: 30, y: 40 }), text: 'Calcium arc at 3 o\'clock' });
    manifest = setManualContour(manifest, 6, Array.from({ length: 8 }, (_, i) => ({ x: 128 + 35 * Math.cos((i * Math.PI) / 4), y: 128 + 35 * Math.sin((i * Math.PI) / 4) })));
    // Issue 28: a calcium arc set by hand on slice 8.
    manifest = { ...manifest, calcium: [{ slice: 8, startDeg: 30, arcDeg: 120 }] };
    await saveAnnotationVersion(session.server.database.db, {
      tenantId: 'demo', recordId, patientId: study.patientId, baseVersion: 0, baseStatus: 'new', manifest, userId: clinician.id, email: clinician.email,
    });
    // The borders are detected on first demand; sending waits for them.
    let sent = await call('POST', `/api/demo/records/${recordId}/pacs-send`, session.authorization, { connectionId: connection.id });
    for (let attempt = 0; sent.statusCode === 409 && ['contours_not_ready', 'stent_not_ready'].includes(sent.json().error) && attempt < 300; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      sent = await call('POST', `/api/demo/records/${recordId}/pacs-send`, session.authorization, { connectionId: connection.id });
    }
    expect(sent.statusCode, sent.body).toBe(200);
    const result = sent.json();
    expect(result).toMatchObject({ studyInstanceUid: study.uid, annotationVersion: 1 });

    // Read back from the PACS: the SR holds the same length the review shows, on the right frame.
    const sr = result.stored.find((s: { kind: string }) => s.kind === 'sr').sopInstanceUid;
    const instances = await fetch(`${orthanc.dicomWebUrl}/studies/${study.uid}/instances?SOPInstanceUID=${sr}`, { headers: { authorization: orthanc.authorization! } });
    const [found] = (await instances.json()) as Array<Record<string, { Value: string[] }>>;
    const seriesUid = found!['0020000E']!.Value[0];
    const retrieved = await fetch(`${orthanc.httpUrl}/instances/${await orthancIdOf(orthanc, sr)}/file`, { headers: { authorization: orthanc.authorization! } });
    const report = readMeasurementReport(new Uint8Array(await retrieved.arrayBuffer()));
    expect(seriesUid).toBeTruthy();
    // Issue 28: the calcium as the review counts it, the arc set by hand on slice 8 named (the re-read on corrected borders: http/report-calcium.test.ts).
    expect(report.calcium).toMatchObject({ setByHand: 'slices 8', maxArc: { arcDeg: 120, slice: 8 } });
    // Every annotation comes back with the value the review shows, on its own frame of the pullback.
    const saved = allAnnotations(manifest);
    expect(report.annotations).toHaveLength(saved.length);
    for (const annotation of saved) {
      const read = report.annotations.find((a) => a.id === annotation.id)!;
      expect(read, annotation.id).toMatchObject({ kind: annotation.type, label: annotation.label, slice: annotation.slice });
      expect(read.image).toMatchObject({ sopInstanceUid: pullback.sopInstanceUid, frame: annotation.slice });
      if (annotation.type === 'text') expect(read.text).toBe(annotation.text);
      else expect(read.value).toBeCloseTo(Number(measureAnnotation(annotation, PULLBACK_SPACING_MM)!.value), 6);
    }
    // The borders and the analysis are the server's own, as the review computes them from the same contours.
    const contours = RecordContoursSchema.parse((await call('GET', `/api/demo/records/${recordId}/contours`, session.authorization)).json());
    const analysis = correctedAnalysis(contours, manifest, { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 });
    for (const slice of analysis.slices) {
      const lumen = report.borders.find((b) => b.border === 'lumen' && b.slice === slice.slice);
      // A slice the detector could not read, and nobody drew on, has no lumen border in the report either.
      if (slice.areaMm2 === null) {
        expect(lumen, `slice ${slice.slice}`).toBeUndefined();
        continue;
      }
      if (!lumen) throw new Error(`slice ${slice.slice}: no lumen border in the report`);
      expect(lumen.areaMm2, `slice ${slice.slice}`).toBeCloseTo(slice.areaMm2, 9);
      expect(lumen.image.frame).toBe(slice.slice);
    }
    expect(report.borders.find((b) => b.border === 'lumen' && b.slice === 6)!.source).toBe('manual');
    expect(report.mla).toEqual({ areaMm2: expect.closeTo(analysis.analysis.mla!.areaMm2, 9), slice: analysis.analysis.mla!.index + 1 });
    expect(report.references.distal?.slice ?? null).toBe(analysis.analysis.references.distal ? analysis.analysis.references.distal.index + 1 : null);
    expect(report.references.proximal?.slice ?? null).toBe(analysis.analysis.references.proximal ? analysis.analysis.references.proximal.index + 1 : null);
    if (analysis.analysis.stenosisPercent === null) expect(report.stenosisPercent).toBeNull();
    else expect(report.stenosisPercent).toBeCloseTo(analysis.analysis.stenosisPercent, 9);

    // The PDF report beside it: an Encapsulated PDF whose document is the report.
    const pdfUid = result.stored.find((s: { kind: string }) => s.kind === 'pdf').sopInstanceUid;
    const pdf = await fetch(`${orthanc.httpUrl}/instances/${await orthancIdOf(orthanc, pdfUid)}/pdf`, { headers: { authorization: orthanc.authorization! } });
    expect(pdf.status).toBe(200);
    const pdfBytes = Buffer.from(await pdf.arrayBuffer());
    expect(pdfBytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // It shows the MLA and reference frames and the L-mode as images (issue 26), read from the stored pullback.
    if (spawnSync('pdfimages', ['-v']).status === 0) {
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-sent-')), 'report.pdf');
      fs.writeFileSync(file, pdfBytes);
      const listed = spawnSync('pdfimages', ['-list', file], { encoding: 'utf8' }).stdout.split('\n').slice(2).filter((line) => line.trim() !== '');
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
      // The frames, then the L-mode (one column per slice of the 12-frame pullback, one row per pixel of its 256-pixel cut).
      expect(listed).toHaveLength(reportFrameSlices(analysis).length + 1);
      expect(listed.some((line) => /\simage\s+12\s+256\s/.test(line)), listed.join('\n')).toBe(true);
    }

    const audit = await session.server.database.db.execute(sql`select details from audit_log where action = 'record-sent-to-pacs' and target_id = ${recordId}`);
    expect((audit as unknown as { rows: unknown[] }).rows).toHaveLength(1);
  }, 120_000);

  it('asks for the patient of a series without a Patient ID, as an upload does, and imports it once named', async () => {
    const anonymous = makeDicom({ frames: 6, rows: 128, columns: 128, patientId: '', studyUid: newUid() });
    await orthanc.upload(anonymous.bytes);
    const url = `/api/demo/pacs/connections/${connection.id}/pull`;
    const body = { studyInstanceUid: anonymous.studyUid, seriesInstanceUids: [anonymous.seriesUid] };
    const asked = await call('POST', url, session.authorization, body);
    expect(asked.statusCode, asked.body).toBe(422);
    expect(asked.json()).toMatchObject({ error: 'patient_id_required' });
    expect(filesUnder(importTempRoot(session.server.config))).toEqual([]);
    const named = await call('POST', url, session.authorization, { ...body, patientId: 'PACS-NAMED-1', patientName: 'Named, Nora' });
    expect(named.statusCode, named.body).toBe(202);
    expect(await waitForImport(session, named.json().imports[0].importId)).toMatchObject({ status: 'done', patientId: 'PACS-NAMED-1', source: 'pacs' });
  });

  it('streams the retrieval as progress lines, then the answer, when the page asks for NDJSON', async () => {
    const other = makeDicom({ frames: 30, rows: 128, columns: 128, patientId: `${study.patientId}-B`, studyUid: newUid() });
    await orthanc.upload(other.bytes);
    const streamed = await session.server.app.inject({
      method: 'POST',
      url: `/api/demo/pacs/connections/${connection.id}/pull`,
      headers: { host: hostOf('demo'), authorization: session.authorization, 'content-type': 'application/json', accept: 'application/x-ndjson' },
      payload: JSON.stringify({ studyInstanceUid: other.studyUid, seriesInstanceUids: [other.seriesUid] }),
    });
    expect(streamed.statusCode).toBe(200);
    expect(streamed.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const lines = streamed.body.trim().split('\n').map((line) => JSON.parse(line));
    const progress = lines.filter((line) => line.type === 'progress');
    expect(progress[0]).toEqual({ type: 'progress', instancesDone: 0, instancesTotal: 1, bytes: 0 });
    expect(progress.at(-1)).toMatchObject({ instancesDone: 1, instancesTotal: 1 });
    expect(progress.at(-1).bytes).toBeGreaterThanOrEqual(other.bytes.length);
    const result = lines.at(-1);
    expect(result).toMatchObject({ type: 'result', status: 202 });
    expect(await waitForImport(session, result.body.imports[0].importId)).toMatchObject({ status: 'done', framesTotal: 30, source: 'pacs' });

    // A refusal found before anything is retrieved is the result line too.
    const missing = await session.server.app.inject({
      method: 'POST',
      url: `/api/demo/pacs/connections/${connection.id}/pull`,
      headers: { host: hostOf('demo'), authorization: session.authorization, 'content-type': 'application/json', accept: 'application/x-ndjson' },
      payload: JSON.stringify({ studyInstanceUid: other.studyUid, seriesInstanceUids: [newUid()] }),
    });
    expect(missing.body.trim().split('\n').map((line) => JSON.parse(line))).toEqual([
      { type: 'result', status: 404, body: { error: 'pacs_series_not_found', message: expect.stringMatching(/does not have the series/) } },
    ]);
  });

  it('says a demo record has no study, and a refused store is named', async () => {
    const demo = await session.server.database.db.execute(sql`select id from records where tenant_id = 'demo' and imaging_source = 'demo' limit 1`);
    const demoId = (demo as unknown as { rows: { id: string }[] }).rows[0]!.id;
    const notDicom = await call('POST', `/api/demo/records/${demoId}/pacs-send`, session.authorization, { connectionId: connection.id });
    expect(notDicom.statusCode).toBe(409);
    expect(notDicom.json().error).toBe('not_dicom_record');

    // A STOW-RS address where the PACS stores nothing: the refusal is named, and nothing is recorded as sent.
    const wrongStow = await call('POST', '/api/demo/pacs/connections', admin, input({ name: 'Read only', stowUrl: `${orthanc.httpUrl}/not-dicom-web` }));
    const refused = await call('POST', `/api/demo/records/${pulledRecordId}/pacs-send`, session.authorization, { connectionId: wrongStow.json().id });
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toMatchObject({ error: 'pacs_store_refused' });
    const audit = await session.server.database.db.execute(sql`select 1 from audit_log where action = 'record-sent-to-pacs' and details->>'connection' = 'Read only'`);
    expect((audit as unknown as { rows: unknown[] }).rows).toHaveLength(0);
  });
});

/** Orthanc's own id of an instance, found by its SOP Instance UID. */
async function orthancIdOf(orthanc: OrthancHandle, sopInstanceUid: string): Promise<string> {
  const response = await fetch(`${orthanc.httpUrl}/tools/find`, {
    method: 'POST',
    headers: { authorization: orthanc.authorization!, 'content-type': 'application/json' },
    body: JSON.stringify({ Level: 'Instance', Query: { SOPInstanceUID: sopInstanceUid } }),
  });
  const [id] = (await response.json()) as string[];
  return id!;
}
