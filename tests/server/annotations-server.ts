/**
 * The start-up the annotation save-and-load suites share: one test server, clinician and admin
 * tokens of the demo tenant, the demo records (each test takes one of its own, so versions of one
 * test never leak into another) and one of another tenant, and the requests the tests make.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { annotationId, type AnnotationManifest } from '../../src/domain/annotations/manifest.ts';
import { listAudit } from '../../src/server/db/audit.ts';
import { annotationVersions, records } from '../../src/server/db/schema.ts';
import { findUserByEmail } from '../../src/server/db/tenants.ts';
import { createTestServer, hostOf, mintIdToken, type TestServer } from './test-server.ts';

export type RecordRef = { recordId: string; patientId: string; slices: number };

/** One annotation of each kind on slice 5 of a 512 x 512 image. */
export function sampleManifest(): AnnotationManifest {
  const [slice, color] = [5, '#FFE411'] as const;
  return {
    ruler: [{ id: annotationId(slice, 'ruler', 'A', color), slice, color, label: 'A', hideLabel: false, startX: 10, startY: 20, endX: 110, endY: 20 }],
    area: [
      {
        id: annotationId(slice, 'area', 'B', color),
        slice,
        color,
        label: 'B',
        hideLabel: true,
        points: [{ x: 100, y: 100 }, { x: 200, y: 100 }, { x: 150, y: 180 }],
        controlPoints: [{ x: 100, y: 100 }, { x: 200, y: 100 }, { x: 150, y: 180 }],
      },
    ],
    text: [{ id: annotationId(slice, 'text', 'C', color), slice, color, label: 'C', hideLabel: false, text: 'calcified plaque', origin: { x: 300, y: 40 } }],
    angle: [
      {
        id: annotationId(slice, 'angle', 'D', color),
        slice,
        color,
        label: 'D',
        hideLabel: false,
        angle: {
          origin: { x: 256, y: 256 },
          startAngle: 0,
          endAngle: Math.PI / 2,
          startIntersect: { x: 306, y: 256 },
          endIntersect: { x: 256, y: 306 },
          startControl: { x: 356, y: 256 },
          endControl: { x: 256, y: 356 },
        },
        arc: { origin: { x: 256, y: 256 }, radius: 50, counterClockwise: false, startAngle: 0, endAngle: Math.PI / 2 },
      },
    ],
    lastAnnotationSlice: slice,
  };
}

/** The browser's multipart form, encoded by the platform's own FormData. */
export async function multipart(fields: Record<string, string>, file: { body: string; name?: string } | null) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append('file', new Blob([file.body], { type: 'application/json' }), file.name ?? 'manifest.json');
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

/** Registers the suite's start-up and shutdown; the fields are set once its beforeAll has run. */
export function annotationsServer() {
  const t = {} as { server: TestServer; clinician: string; admin: string; demoRecords: RecordRef[]; acmeRecord: RecordRef };
  let next = 0;
  /** Each test works on a record of its own, so versions of one test never leak into another. */
  const freshRecord = () => t.demoRecords[next++]!;

  beforeAll(async () => {
    t.server = await createTestServer();
    const { db } = t.server.database;
    const token = async (tenant: string, email: string) => {
      const user = await findUserByEmail(db, tenant, email);
      return `Bearer ${await mintIdToken(t.server, tenant, { sub: user!.id })}`;
    };
    t.clinician = await token('demo', 'clinician@demo.test');
    t.admin = await token('demo', 'admin@demo.test');
    const rows = await db
      .select({ recordId: records.id, patientId: records.patientId, slices: records.bmodeFrameCount, tenantId: records.tenantId })
      .from(records);
    const refs = (tenant: string) => rows.filter((r) => r.tenantId === tenant && r.slices >= 10);
    t.demoRecords = refs('demo');
    t.acmeRecord = refs('acme')[0]!;
  });
  afterAll(() => t.server.close());

  const save = async (
    record: RecordRef,
    manifest: unknown,
    { status = 'new', baseVersion, authorization = t.clinician, patientId = record.patientId, tenant = 'demo' }: {
      status?: string;
      baseVersion?: number;
      authorization?: string | null;
      patientId?: string;
      tenant?: string;
    } = {},
  ) => {
    const fields: Record<string, string> = { recordId: record.recordId, patientId };
    if (baseVersion !== undefined) fields.baseVersion = String(baseVersion);
    const body = await multipart(fields, { body: typeof manifest === 'string' ? manifest : JSON.stringify(manifest) });
    return t.server.app.inject({
      method: 'POST',
      url: `/api/${tenant}/records?status=${status}`,
      headers: { host: hostOf(tenant), 'content-type': body.contentType, ...(authorization ? { authorization } : {}) },
      payload: body.payload,
    });
  };
  const get = (url: string, authorization: string | null = t.clinician) =>
    t.server.app.inject({ url, headers: { host: hostOf('demo'), ...(authorization ? { authorization } : {}) } });
  const storedVersions = async (recordId: string) =>
    (await t.server.database.db.select().from(annotationVersions).where(eq(annotationVersions.recordId, recordId))).length;
  const auditOf = async (recordId: string) =>
    (await listAudit(t.server.database.db, 'demo', { limit: 500 })).filter((row) => row.targetId === recordId);

  return Object.assign(t, { freshRecord, save, get, storedVersions, auditOf });
}
