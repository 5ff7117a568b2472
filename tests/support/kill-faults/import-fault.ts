/**
 * The kill fault during an import: a multi-frame DICOM file, the server SIGKILLed while the upload
 * streams in (nothing of it may be left) and while the import decodes (its durable job is taken
 * again after the restart: the import must end 'done', whole, once), then the same file sent again
 * is refused as already imported.
 */
import http from 'node:http';
import path from 'node:path';
import { chunkCount } from '../../../src/domain/images.ts';
import type { ImportSummary } from '../../../src/domain/imports.ts';
import { makeDicom, multipartBody } from '../dicom-fixtures.ts';
import { describeError, filesUnder, restartAfterKill, ServerProcess, sleep, withDataDir, type PidReuse } from './child-server.ts';
import { apiGet, apiGetJson, hostOf, json, send, signIn, type Answer } from './http.ts';
import type { KillFaultOutcome } from './index.ts';

const WAIT_DEADLINE_MS = 90_000;

/** Frames of the imported file: 256 x 256 RLE frames, about a second of decoding for the one decode worker (each poll below takes a few ms). */
const IMPORT_FRAMES = 960;
const IMPORT_PATIENT = 'KILL-IMPORT-1';

function uploadImport(server: ServerProcess, token: string, upload: { body: Buffer; contentType: string }): Promise<Answer> {
  return send(server.port, {
    method: 'POST',
    path: '/api/demo/imports',
    host: hostOf(server, 'demo'),
    headers: { authorization: `Bearer ${token}`, 'content-type': upload.contentType },
    body: upload.body,
  });
}

/** Sends the headers and the first half of the body, never the rest (the kill comes first). */
function startHalfUpload(server: ServerProcess, token: string, upload: { body: Buffer; contentType: string }): http.ClientRequest {
  const req = http.request({
    host: '127.0.0.1',
    port: server.port,
    method: 'POST',
    path: '/api/demo/imports',
    agent: false,
    headers: { host: hostOf(server, 'demo'), authorization: `Bearer ${token}`, 'content-type': upload.contentType, 'content-length': String(upload.body.length) },
  });
  req.on('error', () => {});
  req.write(upload.body.subarray(0, upload.body.length >> 1));
  return req;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, everyMs = 10): Promise<T> {
  const deadline = performance.now() + WAIT_DEADLINE_MS;
  while (performance.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await sleep(everyMs);
  }
  throw new Error(`gave up waiting for ${what} after ${WAIT_DEADLINE_MS / 1000} s`);
}

/**
 * Imports a multi-frame DICOM file and SIGKILLs the server twice: while the upload is still
 * streaming in (part of the file on disk, no import registered yet: after the restart nothing of
 * it may be left, no import, patient, record, stored or uploaded file), and while the registered
 * import is decoding (some of its frame chunks already stored: after the restart its job runs
 * again and the import must end 'done' with one record holding every frame once, and no uploaded
 * file left). Then the same file sent again must be refused as a series already imported.
 */
export async function killDuringImport(): Promise<KillFaultOutcome> {
  const outcome: KillFaultOutcome = { answer: '', answerProblems: [], dataProblems: [], steps: [] };
  const answers: string[] = [];
  try {
    await withDataDir('ivus-kill-import-', async ({ dataDir, port, servers }) => {
      const filesRoot = path.join(dataDir, 'files');
      const tempRoot = path.join(dataDir, 'import-tmp');
      const fixture = makeDicom({ patientId: IMPORT_PATIENT, patientName: 'Kill^Fault', syntax: 'rle', frames: IMPORT_FRAMES, rows: 256, columns: 256, distinctFrames: 32 });
      const upload = multipartBody([{ name: 'kill-fault.dcm', bytes: fixture.bytes }]);
      outcome.steps.push(`the file: ${IMPORT_FRAMES} RLE frames of 256 x 256 (${(fixture.bytes.length / 1024 / 1024).toFixed(1)} MiB)`);

      let server = await ServerProcess.start(dataDir, port);
      servers.push(server);
      const token = await signIn(server, 'demo', 'clinician@demo.test', 'demo-clinician-password');
      const patientsBefore = (await apiGetJson<{ total: number }>(server, token, '/api/demo/patients')).total;
      const filesBefore = filesUnder(filesRoot);
      const restart = async (what: string, reuse: PidReuse) => {
        try {
          const restarted = await restartAfterKill(server, reuse);
          server = restarted.server;
          servers.push(server);
          outcome.steps.push(`restarted after the kill ${what}: ${restarted.note}`);
        } catch (error) {
          throw new Error(`after the kill ${what}, the server did not start again on its data directory: ${describeError(error)}`, { cause: error });
        }
      };
      /** What an interrupted import must not leave: a patient, a record, stored files, uploaded files. */
      const checkNothingLeft = async (when: string) => {
        const problems: string[] = [];
        if ((await apiGet(server, token, `/api/demo/patients/${IMPORT_PATIENT}`)).status !== 404) problems.push(`the patient ${IMPORT_PATIENT} exists`);
        const total = (await apiGetJson<{ total: number }>(server, token, '/api/demo/patients')).total;
        if (total !== patientsBefore) problems.push(`${total} patients, ${patientsBefore} before`);
        const stored = filesUnder(filesRoot).filter((file) => !filesBefore.includes(file));
        if (stored.length) problems.push(`${stored.length} stored files left under DATA_DIR/files (e.g. ${stored[0]})`);
        const uploaded = filesUnder(tempRoot);
        if (uploaded.length) problems.push(`${uploaded.length} uploaded files left under DATA_DIR/import-tmp (e.g. ${uploaded[0]})`);
        outcome.dataProblems.push(...problems.map((problem) => `${when}: ${problem}`));
      };

      // 1. Killed while the upload streams in: a part of the file is on disk, no import is registered yet.
      const half = startHalfUpload(server, token, upload);
      await waitFor('the upload to reach the disk', () => (filesUnder(tempRoot).length > 0 ? true : undefined));
      await restart('during the upload', 'thread');
      half.destroy();
      const listed = await apiGetJson<{ imports: ImportSummary[] }>(server, token, '/api/demo/imports');
      if (listed.imports.length !== 0) outcome.answerProblems.push(`after the kill during the upload: ${listed.imports.length} imports are listed, none was registered`);
      await checkNothingLeft('after the kill during the upload');
      answers.push('upload dropped');

      // 2. Killed while the import decodes, once some of its chunks are stored (how many: random, up to half of them).
      const killAtChunks = 1 + Math.floor((Math.random() * chunkCount(IMPORT_FRAMES)) / 2);
      const accepted = await uploadImport(server, token, upload);
      if (accepted.status !== 202) throw new Error(`the upload answered ${accepted.status}: ${accepted.body.toString('utf8').slice(0, 300)}`);
      const importId = json<{ imports: ImportSummary[] }>(accepted).imports[0]!.importId;
      const atKill = await waitFor('chunks of the import to be stored', async () => {
        const stored = filesUnder(filesRoot).filter((file) => !filesBefore.includes(file) && file.endsWith('.gz'));
        if (stored.length >= killAtChunks) return { stored: stored.length };
        const summary = json<ImportSummary>(await apiGet(server, token, `/api/demo/imports/${importId}`));
        if (summary.status !== 'processing') throw new Error(`the import ended (${summary.status}) before it could be killed: make the file bigger`);
        return undefined;
      });
      const summaryAtKill = json<ImportSummary>(await apiGet(server, token, `/api/demo/imports/${importId}`));
      if (summaryAtKill.status !== 'processing') throw new Error(`the import ended (${summaryAtKill.status}) before it could be killed: make the file bigger`);
      await restart(`during the import (status processing, ${summaryAtKill.framesDone} of ${IMPORT_FRAMES} frames reported, ${atKill.stored} chunks stored)`, 'none');
      const finished = await waitFor('the import to end after the restart', async () => {
        const answer = await apiGet(server, token, `/api/demo/imports/${importId}`);
        if (answer.status !== 200) throw new Error(`after the kill during the import: GET the import answered ${answer.status}`);
        const current = json<ImportSummary>(answer);
        return current.status === 'processing' ? undefined : current;
      }, 100);
      outcome.steps.push(`the import after the restart: ${finished.status}, ${finished.framesDone} frames, ${JSON.stringify(finished.error)}`);
      if (finished.status !== 'done' || finished.framesDone !== IMPORT_FRAMES || !finished.recordId) {
        outcome.dataProblems.push(`the import killed mid-way did not finish whole after the restart: ${finished.status}, ${finished.framesDone} frames, ${JSON.stringify(finished.error)}`);
        return;
      }
      const { records } = await apiGetJson<{ records: { recordId: string; bmodeFrameCount: number }[] }>(server, token, `/api/demo/patients/${IMPORT_PATIENT}/records`);
      if (records.length !== 1 || records[0]!.recordId !== finished.recordId || records[0]!.bmodeFrameCount !== IMPORT_FRAMES) {
        outcome.dataProblems.push(`after the finished import, the patient has records ${JSON.stringify(records)}`);
      }
      const total = (await apiGetJson<{ total: number }>(server, token, '/api/demo/patients')).total;
      if (total !== patientsBefore + 1) outcome.dataProblems.push(`${total} patients after the import, ${patientsBefore} before`);
      const chunks = filesUnder(path.join(filesRoot, 'demo', finished.recordId)).filter((file) => file.endsWith('.gz')).length;
      if (chunks !== chunkCount(IMPORT_FRAMES)) outcome.dataProblems.push(`the finished import stored ${chunks} chunks, not ${chunkCount(IMPORT_FRAMES)}`);
      const leftovers = filesUnder(filesRoot).filter((file) => !filesBefore.includes(file) && !file.startsWith(path.join('demo', finished.recordId!)));
      if (leftovers.length) outcome.dataProblems.push(`files outside the record's imaging: ${leftovers.slice(0, 3).join(', ')}`);
      if (filesUnder(tempRoot).length) outcome.dataProblems.push('uploaded files left after the import was done');
      answers.push('import finished after the restart');

      // 3. The same file again is a series already imported: refused, nothing doubled.
      const again = await uploadImport(server, token, upload);
      if (again.status !== 409) outcome.answerProblems.push(`the same file sent again answered ${again.status}, not 409: ${again.body.toString('utf8').slice(0, 300)}`);
      const recordsAfter = await apiGetJson<{ records: unknown[] }>(server, token, `/api/demo/patients/${IMPORT_PATIENT}/records`);
      if (recordsAfter.records.length !== 1) outcome.dataProblems.push(`after sending the file again the patient has ${recordsAfter.records.length} records`);
      answers.push('sent again: refused as imported');
    });
  } catch (error) {
    outcome.answerProblems.push(`the fault could not be run: ${describeError(error)}`);
  }
  outcome.answer = `restarted, ${answers.join(', ') || 'nothing checked'}`;
  return outcome;
}
