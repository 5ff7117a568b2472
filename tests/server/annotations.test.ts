import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { annotationId } from '../../src/domain/annotations/manifest.ts';
import { saveAnnotationVersion } from '../../src/server/db/annotations.ts';
import { annotationVersions, records } from '../../src/server/db/schema.ts';
import { findUserByEmail } from '../../src/server/db/tenants.ts';
import { annotationsServer, multipart, sampleManifest } from './annotations-server.ts';
import { hostOf, postgresUnavailable } from './test-server.ts';

describe.skipIf(postgresUnavailable)('saving and loading annotations', () => {
  const t = annotationsServer();
  const { freshRecord, save, get, storedVersions, auditOf } = t;

  it('finds a saved manifest again exactly as it was saved, and marks the record saved', async () => {
    const record = freshRecord();
    const empty = await get(`/api/demo/records/${record.recordId}/annotations`);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ version: 0, manifest: { ruler: [], area: [], text: [], angle: [], lastAnnotationSlice: 0 }, savedBy: null, savedAt: null });

    const saved = await save(record, sampleManifest());
    expect(saved.statusCode).toBe(201);
    expect(saved.json()).toMatchObject({ version: 1, savedBy: 'clinician@demo.test', annotationStatus: 'saved' });
    expect(Date.parse(saved.json().savedAt)).not.toBeNaN();

    const loaded = await get(`/api/demo/records/${record.recordId}/annotations`);
    expect(loaded.json()).toEqual({ version: 1, manifest: sampleManifest(), savedBy: 'clinician@demo.test', savedAt: saved.json().savedAt });

    const list = (await get(`/api/demo/patients/${record.patientId}/records`)).json();
    const summary = list.records.find((r: { recordId: string }) => r.recordId === record.recordId);
    expect(summary.annotation).toEqual({ status: 'saved', savedBy: 'clinician@demo.test', savedAt: saved.json().savedAt });
  });

  it('writes the save and every load of the annotations to the audit trail', async () => {
    const record = freshRecord();
    expect((await save(record, sampleManifest())).statusCode).toBe(201);
    await get(`/api/demo/records/${record.recordId}/annotations`);
    const rows = await auditOf(record.recordId);
    expect(rows.map((r) => r.action).sort()).toEqual(['annotations-saved', 'record-viewed']);
    const savedRow = rows.find((r) => r.action === 'annotations-saved')!;
    expect(savedRow).toMatchObject({ actorEmail: 'clinician@demo.test', targetType: 'record' });
    expect(savedRow.details).toMatchObject({ version: 1, patientId: record.patientId, counts: { ruler: 1, area: 1, text: 1, angle: 1 } });
  });

  it('keeps every version: a second save makes version 2 and version 1 stays readable', async () => {
    const record = freshRecord();
    const first = sampleManifest();
    expect((await save(record, first)).statusCode).toBe(201);
    const second = { ...sampleManifest(), ruler: [] };
    const again = await save(record, second, { status: 'saved', baseVersion: 1, authorization: t.admin });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ version: 2, savedBy: 'admin@demo.test' });

    expect((await get(`/api/demo/records/${record.recordId}/annotations`)).json()).toMatchObject({ version: 2, manifest: second });
    const v1 = await get(`/api/demo/records/${record.recordId}/annotations/versions/1`);
    expect(v1.json()).toMatchObject({ version: 1, manifest: first, savedBy: 'clinician@demo.test' });

    const list = (await get(`/api/demo/records/${record.recordId}/annotations/versions`)).json();
    expect(list.versions.map((v: { version: number; savedBy: string }) => [v.version, v.savedBy])).toEqual([
      [2, 'admin@demo.test'],
      [1, 'clinician@demo.test'],
    ]);
    expect(list.versions[0].counts).toEqual({ ruler: 0, area: 1, text: 1, angle: 1 });
    expect(list.versions[1].counts).toEqual({ ruler: 1, area: 1, text: 1, angle: 1 });
    expect((await get(`/api/demo/records/${record.recordId}/annotations/versions/3`)).statusCode).toBe(404);
  });

  it('refuses a save based on an older version with 409 naming the newer one, and writes nothing', async () => {
    const record = freshRecord();
    expect((await save(record, sampleManifest())).statusCode).toBe(201);
    expect((await save(record, sampleManifest(), { status: 'saved', baseVersion: 1, authorization: t.admin })).statusCode).toBe(201);

    const stale = await save(record, { ...sampleManifest(), text: [] }, { status: 'saved', baseVersion: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ error: 'conflict', latestVersion: 2, savedBy: 'admin@demo.test' });
    expect(stale.json().message).toMatch(/admin@demo\.test saved version 2/);
    // A browser that still thinks the record is new has not seen version 1 either.
    const asNew = await save(record, sampleManifest(), { status: 'new' });
    expect(asNew.statusCode).toBe(409);
    expect(await storedVersions(record.recordId)).toBe(2);
    expect((await auditOf(record.recordId)).filter((r) => r.action === 'annotations-saved')).toHaveLength(2);

    // "Keep mine": saving again on top of the latest makes it the next version; nothing is lost.
    const kept = await save(record, { ...sampleManifest(), text: [] }, { status: 'saved', baseVersion: 2 });
    expect(kept.statusCode).toBe(201);
    expect(kept.json().version).toBe(3);
    expect((await get(`/api/demo/records/${record.recordId}/annotations/versions/2`)).json().savedBy).toBe('admin@demo.test');
  });

  it('lets only one of two saves based on the same version through', async () => {
    const record = freshRecord();
    const results = await Promise.all([save(record, sampleManifest()), save(record, sampleManifest(), { authorization: t.admin })]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().latestVersion).toBe(1);
    expect(await storedVersions(record.recordId)).toBe(1);
  });

  // PGlite has one connection, so two saves never interleave there; PostgreSQL shows the real race:
  // another save's version 1 is inserted but not committed while this save reads "latest is 0".
  it('turns a save that loses the race for a version number into a conflict', async (context) => {
    if (t.server.database.kind !== 'postgres') return context.skip();
    const record = freshRecord();
    const { db } = t.server.database;
    const user = (await findUserByEmail(db, 'demo', 'admin@demo.test'))!;
    let commit!: () => void;
    const other = db.transaction(async (tx) => {
      await tx.insert(annotationVersions).values({
        tenantId: 'demo',
        recordId: record.recordId,
        version: 1,
        manifest: sampleManifest(),
        baseStatus: 'new',
        savedBy: user.id,
        savedByEmail: user.email,
      });
      await new Promise<void>((resolve) => (commit = resolve));
    });
    while (!commit) await new Promise((resolve) => setTimeout(resolve, 10));
    const input = { tenantId: 'demo', recordId: record.recordId, patientId: record.patientId, baseStatus: 'new' as const };
    const saving = saveAnnotationVersion(db, { ...input, baseVersion: 0, manifest: sampleManifest(), userId: 'u', email: 'late@demo.test' });
    // Wait until this save is blocked on the other one's uncommitted row of the same key.
    const waiting = async () => {
      const result = await db.execute(sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`);
      return Number((result as unknown as { rows: { n: number }[] }).rows[0]!.n);
    };
    while ((await waiting()) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    commit();
    await other;
    expect(await saving).toMatchObject({ ok: false, latest: { version: 1, savedBy: 'admin@demo.test' } });
    expect(await storedVersions(record.recordId)).toBe(1);
    expect((await auditOf(record.recordId)).filter((r) => r.action === 'annotations-saved')).toHaveLength(0);
  });

  it('refuses a manifest with problems with 400 naming each problem, and writes nothing', async () => {
    const record = freshRecord();
    const m = sampleManifest();
    const cases: [unknown, RegExp][] = [
      ['{"ruler": [', /not valid JSON/],
      [{ ...m, colour: 'red' }, /unknown field "colour"/],
      [{ ...m, ruler: [{ ...m.ruler[0]!, startX: '10' }] }, /ruler\[0\]\.startX: expected a finite number/],
      [{ ...m, ruler: [{ ...m.ruler[0]!, slice: record.slices + 1, id: annotationId(record.slices + 1, 'ruler', 'A', '#FFE411') }] }, new RegExp(`beyond the record's ${record.slices} slices`)],
      [{ ...m, text: [{ ...m.text[0]!, origin: { x: 5000, y: 40 } }] }, /text\[0\]\.origin: \(5000, 40\) is far outside the 512 x 512 image/],
    ];
    for (const [manifest, problem] of cases) {
      const response = await save(record, manifest);
      expect(response.statusCode, String(problem)).toBe(400);
      expect(response.json().problems.join('\n')).toMatch(problem);
    }
    expect(await storedVersions(record.recordId)).toBe(0);
    const [row] = await t.server.database.db.select().from(records).where(and(eq(records.id, record.recordId)));
    expect(row!.annotationStatus).toBeNull();
  });

  it('saves lumen and vessel corrections, and keeps a contour saved without a border as it was', async () => {
    const record = freshRecord();
    const ring = (radius: number) => Array.from({ length: 8 }, (_, i) => ({ x: 256 + radius * Math.cos(i / 1.27), y: 256 + radius * Math.sin(i / 1.27) }));
    const contours = [
      // As saved before the vessel border existed: no `border`, a lumen contour.
      { slice: 3, controlPoints: ring(80), source: 'manual' as const },
      { slice: 3, border: 'vessel' as const, controlPoints: ring(160), source: 'manual' as const },
      { slice: 4, border: 'lumen' as const, controlPoints: ring(90), source: 'manual' as const },
    ];
    const manifest = { ...sampleManifest(), contours };
    const saved = await save(record, manifest);
    expect(saved.statusCode).toBe(201);
    const loaded = await get(`/api/demo/records/${record.recordId}/annotations`);
    expect(loaded.json().manifest).toEqual(manifest);
  });

  it('saves key frames with their reach and finds them again as saved; refuses a reach that is no distance with 400', async () => {
    const record = freshRecord();
    const ring = (radius: number) => Array.from({ length: 48 }, (_, i) => ({ x: 256 + radius * Math.cos(i / 7.64), y: 256 + radius * Math.sin(i / 7.64) }));
    const keyFrame = { slice: 3, border: 'lumen' as const, controlPoints: ring(80), source: 'manual' as const, reachMm: 2 };
    const manifest = { ...sampleManifest(), contours: [keyFrame, { ...keyFrame, slice: 6, reachMm: 0.5 }] };
    expect((await save(record, manifest)).statusCode).toBe(201);
    expect((await get(`/api/demo/records/${record.recordId}/annotations`)).json().manifest).toEqual(manifest);
    const refused = await save(record, { ...manifest, contours: [{ ...keyFrame, reachMm: -1 }] }, { baseVersion: 1 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().problems).toEqual(['contours[0].reachMm: reachMm must not be negative']);
    expect(await storedVersions(record.recordId)).toBe(1);
  });

  it('refuses a contour set with a bad vessel contour with 400 naming the problem, and writes nothing', async () => {
    const record = freshRecord();
    const m = sampleManifest();
    const points = [
      { x: 100, y: 100 },
      { x: 200, y: 100 },
      { x: 150, y: 180 },
    ];
    const vessel = { slice: 2, border: 'vessel', controlPoints: points, source: 'manual' };
    const cases: [unknown, RegExp][] = [
      [{ ...m, contours: [{ ...vessel, controlPoints: points.slice(0, 2) }] }, /contours\[0\]\.controlPoints: a contour needs at least 3 control points/],
      [{ ...m, contours: [{ ...vessel, border: 'x' }] }, /contours\[0\]\.border: border must be lumen or vessel/],
      [{ ...m, contours: [vessel, { ...vessel, source: 'auto' }] }, /contours\[1\]\.slice: slice 2 has two vessel contours/],
      [{ ...m, contours: [{ ...vessel, slice: record.slices + 1 }] }, new RegExp(`contours\\[0\\]\\.slice: slice ${record.slices + 1} is beyond the record's ${record.slices} slices`)],
      [{ ...m, contours: [{ ...vessel, controlPoints: [...points, { x: 9000, y: 10 }] }] }, /contours\[0\]\.controlPoints: \(9000, 10\) is far outside the 512 x 512 image/],
    ];
    for (const [manifest, problem] of cases) {
      const response = await save(record, manifest);
      expect(response.statusCode, String(problem)).toBe(400);
      expect(response.json().problems.join('\n'), String(problem)).toMatch(problem);
    }
    expect(await storedVersions(record.recordId)).toBe(0);
    const [row] = await t.server.database.db.select().from(records).where(and(eq(records.id, record.recordId)));
    expect(row!.annotationStatus).toBeNull();
  });

  it('saves a large manifest (beyond the 1 MB JSON body limit) and refuses one beyond 5 MB with 413', async () => {
    const record = freshRecord();
    const colors = ['#FFE411', '#FF8E2B', '#45FF4F', '#FF461F', '#CE1FFF', '#FF2B98', '#E3B5AF', '#38FFB4', '#E6F0C5'] as const;
    const ruler = Array.from({ length: 9000 }, (_, i) => {
      const [slice, label, color] = [1 + Math.floor(i / 234), String.fromCharCode(65 + (i % 26)), colors[Math.floor(i / 26) % 9]!];
      return { id: annotationId(slice, 'ruler', label, color), slice, color, label, hideLabel: false, startX: i % 512, startY: 1, endX: 2, endY: 3 };
    });
    const large = { ...sampleManifest(), ruler };
    expect(JSON.stringify(large).length).toBeGreaterThan(1024 * 1024);
    const saved = await save(record, large);
    expect(saved.statusCode).toBe(201);
    expect((await get(`/api/demo/records/${record.recordId}/annotations/versions`)).json().versions[0].counts.ruler).toBe(9000);

    const huge = await save(record, `${' '.repeat(5 * 1024 * 1024)}{}`, { status: 'saved', baseVersion: 1 });
    expect(huge.statusCode).toBe(413);
    expect(await storedVersions(record.recordId)).toBe(1);
  });

  it('refuses malformed requests with 400 or 415 saying what was wrong', async () => {
    const record = freshRecord();
    const badStatus = await save(record, sampleManifest(), { status: 'draft' });
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.json().message).toMatch(/status must be new or saved/);
    const badVersion = await save(record, sampleManifest(), { baseVersion: -1 });
    expect(badVersion.statusCode).toBe(400);
    expect(badVersion.json().message).toMatch(/baseVersion/);

    const post = (body: { payload: Buffer; contentType: string }) =>
      t.server.app.inject({
        method: 'POST',
        url: '/api/demo/records?status=new',
        headers: { host: hostOf('demo'), authorization: t.clinician, 'content-type': body.contentType },
        payload: body.payload,
      });
    const fields = { recordId: record.recordId, patientId: record.patientId };
    const noFile = await post(await multipart(fields, null));
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().message).toMatch(/manifest\.json is required/);
    const wrongName = await post(await multipart(fields, { body: JSON.stringify(sampleManifest()), name: 'notes.txt' }));
    expect(wrongName.statusCode).toBe(400);
    expect(wrongName.json().message).toMatch(/named "notes\.txt"/);
    const extraField = await post(await multipart({ ...fields, comment: 'hi' }, { body: JSON.stringify(sampleManifest()) }));
    expect(extraField.statusCode).toBe(400);
    expect(extraField.json().message).toMatch(/unknown parameter "comment"/);
    const json = await post({ payload: Buffer.from(JSON.stringify(sampleManifest())), contentType: 'application/json' });
    expect(json.statusCode).toBe(415);
    expect(await storedVersions(record.recordId)).toBe(0);
  });

  it("answers 404 for a record of another patient or another tenant, and 401 without a token", async () => {
    const record = freshRecord();
    const other = t.demoRecords.find((r) => r.patientId !== record.patientId)!;
    const wrongPatient = await save(record, sampleManifest(), { patientId: other.patientId });
    expect(wrongPatient.statusCode).toBe(404);
    expect(wrongPatient.json().message).toMatch(/has no record/);

    const otherTenant = await save(t.acmeRecord, sampleManifest());
    expect(otherTenant.statusCode).toBe(404);
    expect((await get(`/api/demo/records/${t.acmeRecord.recordId}/annotations`)).statusCode).toBe(404);
    expect((await get(`/api/demo/records/${t.acmeRecord.recordId}/annotations/versions`)).statusCode).toBe(404);
    expect((await get(`/api/demo/records/${t.acmeRecord.recordId}/annotations/versions/1`)).statusCode).toBe(404);

    expect((await save(record, sampleManifest(), { authorization: null })).statusCode).toBe(401);
    expect((await get(`/api/demo/records/${record.recordId}/annotations`, null)).statusCode).toBe(401);
    expect(await storedVersions(record.recordId)).toBe(0);
    expect(await storedVersions(t.acmeRecord.recordId)).toBe(0);
  });
});
