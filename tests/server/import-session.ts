/**
 * What the DICOM import tests share: a test server on its own data directory with a signed-in demo
 * clinician, and the calls they make (GET, multipart upload, waiting for an import to end).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ImportSummarySchema, type ImportSummary } from '../../src/domain/imports.ts';
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

export function upload(session: Session, files: { name: string; bytes: Uint8Array; field?: string }[]) {
  const { body, contentType } = multipartBody(files);
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
