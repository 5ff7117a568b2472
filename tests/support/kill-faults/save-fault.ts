/**
 * The kill fault during a save: a new annotation version of a demo record, the server SIGKILLed
 * while the request is in flight, then started again on the same data directory; the record must
 * hold its versions as before or with the whole new version, never a part.
 */
import { isDeepStrictEqual } from 'node:util';
import { SLICE_COLORS } from '../../../src/domain/constants.ts';
import { annotationId, parseManifest, type AnnotationManifest } from '../../../src/domain/annotations/manifest.ts';
import { describeError, restartAfterKill, ServerProcess, withDataDir, type PidReuse } from './child-server.ts';
import { apiGetJson, hostOf, sendWatched, signIn } from './http.ts';
import type { KillFaultOutcome } from './index.ts';

type RecordRef = { recordId: string; patientId: string; slices: number; width: number; height: number };
type VersionSummary = { version: number; savedBy: string; savedAt: string };
type StoredVersion = { version: number; manifest: unknown; savedBy: string; savedAt: string };
type AuditItem = { id: number; action: string; targetId: string | null; details: Record<string, unknown> | null };

/** How many annotations each save carries: enough that parsing and storing it takes the server a moment to be killed in. */
const SAVE_RULERS = 1500;

/** A demo record with enough slices to annotate. */
async function demoRecord(server: ServerProcess, token: string): Promise<RecordRef> {
  const page = await apiGetJson<{ items: { patientId: string }[] }>(server, token, '/api/demo/patients?pageSize=50');
  for (const { patientId } of page.items) {
    const { records } = await apiGetJson<{ records: { recordId: string; bmodeFrameCount: number; frameWidth?: number; frameHeight?: number }[] }>(
      server,
      token,
      `/api/demo/patients/${encodeURIComponent(patientId)}/records`,
    );
    const record = records.find((r) => r.bmodeFrameCount >= 20 && r.frameWidth && r.frameHeight);
    if (record) return { recordId: record.recordId, patientId, slices: record.bmodeFrameCount, width: record.frameWidth!, height: record.frameHeight! };
  }
  throw new Error('no demo record with 20 slices or more');
}

/** A manifest of many rulers and one text note, different for every `nonce`. */
function bigManifest(record: RecordRef, nonce: number): AnnotationManifest {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const slices = Math.min(record.slices, 200);
  const room = slices * letters.length * SLICE_COLORS.length;
  const ruler: AnnotationManifest['ruler'] = [];
  for (let i = 0; i < Math.min(SAVE_RULERS, room - 1); i++) {
    const slice = 1 + (i % slices);
    const label = letters[Math.floor(i / slices) % letters.length]!;
    const color = SLICE_COLORS[Math.floor(i / (slices * letters.length)) % SLICE_COLORS.length]!;
    const x = (i * 7 + nonce * 13) % (record.width - 40);
    const y = (i * 11 + nonce * 3) % (record.height - 40);
    ruler.push({ id: annotationId(slice, 'ruler', label, color), slice, color, label, hideLabel: i % 2 === 0, startX: x + 0.5, startY: y, endX: x + 30, endY: y + 20.25 });
  }
  // Ids name their kind: the note's never meets a ruler's.
  const text = [{ id: annotationId(1, 'text', 'Z', SLICE_COLORS[0]), slice: 1, color: SLICE_COLORS[0], label: 'Z', hideLabel: false, text: `kill fault save ${nonce}`, origin: { x: 10, y: 10 } }];
  return { ruler, area: [], text, angle: [], lastAnnotationSlice: 1 + (nonce % slices) };
}

/** The browser's save form (multipart, a manifest.json file part), as the platform's FormData encodes it. */
async function saveForm(record: RecordRef, manifest: AnnotationManifest, baseVersion: number): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  form.append('recordId', record.recordId);
  form.append('patientId', record.patientId);
  form.append('baseVersion', String(baseVersion));
  form.append('file', new Blob([JSON.stringify(manifest)], { type: 'application/json' }), 'manifest.json');
  const encoded = new Request('http://localhost/', { method: 'POST', body: form });
  return { body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

function startSave(server: ServerProcess, token: string, form: { body: Buffer; contentType: string }, baseStatus: 'new' | 'saved', onWritten?: () => void) {
  return sendWatched(
    server.port,
    {
      method: 'POST',
      path: `/api/demo/records?status=${baseStatus}`,
      host: hostOf(server, 'demo'),
      headers: { authorization: `Bearer ${token}`, 'content-type': form.contentType },
      body: form.body,
    },
    onWritten,
  );
}

/** Everything the API says about a record's annotations: versions with their manifests, the record's status, the audit rows of its saves. */
async function annotationState(server: ServerProcess, clinician: string, admin: string, record: RecordRef) {
  const { versions } = await apiGetJson<{ versions: VersionSummary[] }>(server, clinician, `/api/demo/records/${record.recordId}/annotations/versions`);
  const stored: StoredVersion[] = [];
  for (const { version } of [...versions].sort((a, b) => a.version - b.version)) {
    stored.push(await apiGetJson<StoredVersion>(server, clinician, `/api/demo/records/${record.recordId}/annotations/versions/${version}`));
  }
  const { records } = await apiGetJson<{ records: { recordId: string; annotation: { status: string; savedBy: string | null; savedAt: string | null } | null }[] }>(
    server,
    clinician,
    `/api/demo/patients/${encodeURIComponent(record.patientId)}/records`,
  );
  const annotation = records.find((r) => r.recordId === record.recordId)?.annotation ?? null;
  const savedVersions: number[] = [];
  let before: number | null = null;
  for (let page = 0; page < 100; page++) {
    const query: string = before === null ? '' : `&before=${before}`;
    const audit: { items: AuditItem[]; nextBefore: number | null } = await apiGetJson(server, admin, `/api/demo/audit?limit=100${query}`);
    for (const item of audit.items) {
      if (item.action === 'annotations-saved' && item.targetId === record.recordId) savedVersions.push(Number(item.details?.version));
    }
    if (audit.nextBefore === null) break;
    before = audit.nextBefore;
  }
  return { stored, annotation, auditedVersions: savedVersions.sort((a, b) => a - b) };
}
type AnnotationState = Awaited<ReturnType<typeof annotationState>>;

/** Whether the state after a kill and restart is the state before, or it plus the whole new version; never anything in between. */
function checkSave(before: AnnotationState, after: AnnotationState, sent: AnnotationManifest, clientSaw201: boolean): { saved: boolean; problems: string[] } {
  const problems: string[] = [];
  const numbers = after.stored.map((v) => v.version);
  if (!isDeepStrictEqual(numbers, numbers.map((_, i) => i + 1))) problems.push(`the versions are not numbered 1..n: ${numbers.join(', ')}`);
  for (const version of after.stored) {
    const parsed = parseManifest(version.manifest);
    if (!parsed.ok) problems.push(`version ${version.version}'s manifest does not parse: ${parsed.problems.slice(0, 3).join('; ')}`);
  }
  const kept = after.stored.slice(0, before.stored.length);
  if (!isDeepStrictEqual(kept, before.stored)) problems.push('a version saved before the kill changed or went missing');
  const added = after.stored.slice(before.stored.length);
  let saved = false;
  if (added.length === 1) {
    saved = true;
    if (!isDeepStrictEqual(added[0]!.manifest, sent)) problems.push(`version ${added[0]!.version} is not the manifest that was sent (a partial save)`);
  } else if (added.length > 1) {
    problems.push(`${added.length} versions appeared for one save`);
  }
  if (clientSaw201 && !saved) problems.push('the client was told 201 (saved), but the version is not there after the restart');
  // The version, the record's annotation status and the audit row land together or not at all.
  const latest = after.stored.at(-1);
  if (latest && (after.annotation?.status !== 'saved' || after.annotation.savedAt !== latest.savedAt)) {
    problems.push(`the record's annotation status (${JSON.stringify(after.annotation)}) does not match its latest version ${latest.version} (saved ${latest.savedAt})`);
  }
  if (!isDeepStrictEqual(after.auditedVersions, numbers)) {
    problems.push(`the audit trail names saves of versions [${after.auditedVersions.join(', ')}], the record has versions [${numbers.join(', ')}]`);
  }
  return { saved, problems };
}

/**
 * Saves a new annotation version of a demo record and SIGKILLs the server while the request is in
 * flight: the moment its body is written, then later and later into the time one save takes (timed
 * on the live server first), then at a random moment. After each kill the server is started again
 * on the same data directory (PGlite recovers, the lock file of the killed process is taken over)
 * and the record must hold its versions as before or with the whole new version, never a part.
 */
export async function killDuringSave(): Promise<KillFaultOutcome> {
  const outcome: KillFaultOutcome = { answer: '', answerProblems: [], dataProblems: [], steps: [] };
  let restarts = 0;
  let savedWhole = 0;
  let notSaved = 0;
  try {
    await withDataDir('ivus-kill-save-', async ({ dataDir, port, servers }) => {
      let server = await ServerProcess.start(dataDir, port);
      servers.push(server);
      // Tokens are signed with keys kept in the database: they outlive the restarts, as a signed-in browser's do.
      const clinician = await signIn(server, 'demo', 'clinician@demo.test', 'demo-clinician-password');
      const admin = await signIn(server, 'demo', 'admin@demo.test', 'demo-admin-password');
      const record = await demoRecord(server, clinician);

      // One whole save on the live server, timed from its body written to its answer. A server just
      // started (as every one below is) saves no faster than that: the kills land at fractions of it,
      // then as soon as a save is answered (it must then be there after the restart), then at random.
      const firstForm = await saveForm(record, bigManifest(record, 1), 0);
      let writtenAt = 0;
      const first = await startSave(server, clinician, firstForm, 'new', () => (writtenAt = performance.now())).answer;
      const saveMs = performance.now() - writtenAt;
      if (first.status !== 201) throw new Error(`the first save answered ${first.status}: ${first.body.toString('utf8').slice(0, 300)}`);
      outcome.steps.push(`a whole save of ${SAVE_RULERS} rulers (${Math.round(firstForm.body.length / 1024)} KiB) is answered ${Math.round(saveMs)} ms after its body is written`);

      const killPoints: (number | 'answer')[] = [0, saveMs / 3, (2 * saveMs) / 3, saveMs, 'answer', Math.random() * 2 * saveMs];
      for (const [k, point] of killPoints.entries()) {
        const before = await annotationState(server, clinician, admin, record);
        const manifest = bigManifest(record, k + 2);
        const form = await saveForm(record, manifest, before.stored.length);
        const victim = server;
        // SIGKILL `point` ms after the body is written (at once, in the write callback, for 0), whether or not the answer came first.
        let killed!: () => void;
        const killedAt = new Promise<void>((resolve) => (killed = resolve));
        const sent = startSave(victim, clinician, form, 'saved', () => {
          if (point === 'answer') return;
          if (point === 0) {
            victim.killNow();
            killed();
          } else {
            setTimeout(() => {
              victim.killNow();
              killed();
            }, point);
          }
        });
        const answered = sent.answer.then(
          (answer) => String(answer.status),
          (error: unknown) => (error as NodeJS.ErrnoException).code ?? describeError(error),
        );
        if (point !== 'answer' && (await sent.written.then(() => true, () => false))) await killedAt;
        const clientSaw = await answered;
        if (point === 'answer' && clientSaw !== '201') outcome.answerProblems.push(`kill ${k + 1}: the save, not killed before its answer, answered ${clientSaw}, not 201`);
        // The last restart also finds the killed server's pid given to another live process meanwhile.
        const reuse: PidReuse = k === killPoints.length - 1 ? 'process' : 'none';
        let note: string;
        try {
          ({ server, note } = await restartAfterKill(victim, reuse));
        } catch (error) {
          outcome.answerProblems.push(`kill ${k + 1}: the server did not start again on its data directory: ${describeError(error)}`);
          return;
        }
        servers.push(server);
        restarts++;
        const after = await annotationState(server, clinician, admin, record);
        const { saved, problems } = checkSave(before, after, manifest, clientSaw === '201');
        if (saved) savedWhole++;
        else notSaved++;
        outcome.dataProblems.push(...problems.map((problem) => `kill ${k + 1}: ${problem}`));
        outcome.steps.push(
          `kill ${k + 1}, ${point === 'answer' ? 'as soon as the answer came' : `${Math.round(point)} ms after the body was written`}: the client saw ${clientSaw}; ` +
            `${note}; after the restart: ` +
            `${saved ? 'the new version is there whole' : 'the versions are as before'}${problems.length ? ` — ${problems.join('; ')}` : ''}`,
        );
      }
    });
  } catch (error) {
    outcome.answerProblems.push(`the fault could not be run: ${describeError(error)}`);
  }
  outcome.answer = `restarted ${restarts}x: ${savedWhole} saved whole, ${notSaved} not saved`;
  return outcome;
}
