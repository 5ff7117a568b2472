/**
 * What the DICOM import tests share: a test server on its own data directory with a signed-in demo
 * clinician, and the calls they make (GET, multipart upload, waiting for an import to end).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { importTempRoot } from '../../src/server/http/imports.ts';
import { ImportBatchSchema, ImportSummarySchema, type ImportBatch, type ImportSummary } from '../../src/domain/imports.ts';
import { multipartBody } from '../support/dicom-fixtures.ts';
import { clinicianAuthorization, createTestServer, hostOf, type TestServer } from './test-server.ts';

export type Session = { server: TestServer; authorization: string; dataDir: string };

export async function openSession(env: Record<string, string> = {}): Promise<Session> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-import-'));
  const server = await createTestServer({ DATA_DIR: dataDir, ...env });
  const authorization = await clinicianAuthorization(server, 'demo');
  return { server, authorization, dataDir };
}

export async function closeSession(session: Session | undefined): Promise<void> {
  if (!session) return;
  await session.server.close();
  fs.rmSync(session.dataDir, { recursive: true, force: true });
}

/** A GET as the session's clinician (or `authorization`) on `tenant`'s address; gzip accepted, as browsers do. */
export function get(session: Session, url: string, tenant = 'demo', authorization = session.authorization) {
  return session.server.app.inject({ url, headers: { host: hostOf(tenant), authorization, 'accept-encoding': 'gzip' } });
}

export type UploadFile = { name: string; bytes: Uint8Array; field?: string };

/** The files as multipart parts, with form fields before them (or after, with `fieldsLast`). */
export function upload(session: Session, files: UploadFile[], fields: Record<string, string> = {}, fieldsLast = false) {
  const { body, contentType } = withFields(multipartBody(files), fields, fieldsLast);
  return session.server.app.inject({
    method: 'POST',
    url: '/api/demo/imports',
    headers: { host: hostOf('demo'), authorization: session.authorization, 'content-type': contentType },
    payload: body,
  });
}

export async function waitForImport(session: Session, importId: string): Promise<ImportSummary> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const summary = ImportSummarySchema.parse((await get(session, `/api/demo/imports/${importId}`)).json());
    if (summary.status !== 'processing') return summary;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`import ${importId} did not finish`);
}

/** Adds text fields to a multipart body made by multipartBody (its boundary is in the content type). */
function withFields(multipart: { body: Buffer; contentType: string }, fields: Record<string, string>, last: boolean) {
  const boundary = multipart.contentType.split('boundary=')[1]!;
  const parts = Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (parts.length === 0) return multipart;
  const end = Buffer.from(`--${boundary}--\r\n`);
  const filesPart = multipart.body.subarray(0, multipart.body.length - end.length);
  const body = last ? Buffer.concat([filesPart, ...parts, end]) : Buffer.concat([...parts, multipart.body]);
  return { body, contentType: multipart.contentType };
}

/** Uploads, expects the 202, and returns the batch (its imports still processing). */
export async function uploadAccepted(session: Session, files: UploadFile[], fields: Record<string, string> = {}): Promise<ImportBatch> {
  const response = await upload(session, files, fields);
  if (response.statusCode !== 202) throw new Error(`expected 202, got ${response.statusCode}: ${response.body}`);
  const batch = ImportBatchSchema.parse(response.json());
  if (response.headers.location !== `/api/demo/imports/${batch.imports[0]!.importId}`) throw new Error(`Location ${String(response.headers.location)}`);
  return batch;
}

/** Every import of a batch once finished; each must be done. */
export async function batchDone(session: Session, batch: ImportBatch): Promise<ImportSummary[]> {
  const done = [];
  for (const accepted of batch.imports) {
    const finished = await waitForImport(session, accepted.importId);
    if (finished.status !== 'done') throw new Error(`import ${accepted.importId} ${finished.status}: ${JSON.stringify(finished.error)}`);
    done.push(finished);
  }
  return done;
}

export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)).sort();
}

/** Everything an import could leave behind in the demo tenant. */
export async function footprint(session: Session) {
  const count = async (table: string, also = '') => {
    const result = await session.server.database.db.execute(sql.raw(`select count(*)::int as n from ${table} where tenant_id = 'demo' ${also}`));
    return Number((result as unknown as { rows: { n: number }[] }).rows[0]!.n);
  };
  const done = await session.server.database.db.execute(sql.raw(`select id from imports where tenant_id = 'demo' and status = 'done'`));
  const finished = (done as unknown as { rows: { id: string }[] }).rows.map((row) => row.id);
  return {
    patients: await count('patients'),
    records: await count('records'),
    imports: await count('imports'),
    series: await count('import_series'),
    audit: await count('audit_log', "and action = 'record-imported'"),
    // Not this upload's doing: borders an earlier import's idle detection stores meanwhile
    // (contours-precompute), and the staged copies a finished import removes just after it says done.
    blobs: filesUnder(session.server.storeDir).filter((file) => !file.includes('/contours/') && !finished.some((id) => file.includes(`/import-staging/${id}/`))),
    temp: filesUnder(importTempRoot({ dataDir: session.dataDir })),
  };
}
