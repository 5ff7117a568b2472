/**
 * What an upload becomes (issue 8): which files are imported and which are skipped (with the
 * reason), whose patient each file is, and one import per record the upload makes or fills. The
 * files are grouped by study; each pullback makes a record or joins the angiography-only record of
 * its study, and the runs are paired one to one with the study's pullbacks by acquisition time
 * (study-matching.ts); a run without a pullback makes a record of its own. Refuses the whole
 * upload when no file can be imported (with the first file's error), when a patient must be
 * chosen or confirmed (patient-choice.ts), or when files of one study name different patients.
 */
import { randomUUID } from 'node:crypto';
import { IMPORT_FORM_FIELDS, type SkippedFile } from '../../domain/imports.ts';
import type { Db } from '../db/client.ts';
import { importedSeries, studyStates, type StudyRecord } from '../db/imports.ts';
import type { DicomFile } from '../dicom/dicom-file.ts';
import { ImportRejection, rejectFile } from '../../domain/import-rejection.ts';
import { choosePatients, type ImportForm, type PatientChoice } from './patient-choice.ts';
import { planUnit, type ImportActor, type ImportUnit, type Plan } from './record-plan.ts';
import { pairByTime, type Candidate } from './study-matching.ts';

/** An uploaded file as its header was read: the file, or why it cannot be imported. */
export type ReadFile = DicomFile | ImportRejection;

export type UploadPlan = { plans: Plan[]; skipped: SkippedFile[] };

type Skip = { index: number; rejection: ImportRejection };
type Importable = { index: number; file: DicomFile; patient: PatientChoice };

/** Refused files, single images and series already imported are skipped; the rest may be imported. */
async function sortOut(db: Db, tenantId: string, read: ReadFile[], form: ImportForm): Promise<{ files: { index: number; file: DicomFile }[]; skips: Skip[] }> {
  const skips: Skip[] = [];
  const files: { index: number; file: DicomFile }[] = [];
  const seen = new Map<string, DicomFile>();
  read.forEach((file, index) => {
    if (file instanceof ImportRejection) return skips.push({ index, rejection: file });
    if (file.frameCount === 1) {
      return skips.push({ index, rejection: rejectFile('unsupported_object', file.fileName, 'it holds a single image, not an IVUS pullback nor an angiography run.') });
    }
    if (file.ultrasound?.kind === 'other-ultrasound' && !form.confirmOtherUltrasound) {
      return skips.push({
        index,
        rejection: rejectFile('not_ivus', file.fileName, `it is ultrasound but not an IVUS pullback (${file.ultrasound.reason}): send ${IMPORT_FORM_FIELDS.confirmOtherUltrasound}=true to import it as other ultrasound, to view only.`),
      });
    }
    const earlier = seen.get(file.seriesInstanceUid);
    if (earlier) return skips.push({ index, rejection: rejectFile('duplicate_series', file.fileName, `it holds the same series as ${earlier.fileName}.`) });
    seen.set(file.seriesInstanceUid, file);
    files.push({ index, file });
  });
  const already = new Set(await importedSeries(db, tenantId, [...seen.keys()]));
  for (const { index, file } of files.filter(({ file }) => already.has(file.seriesInstanceUid))) {
    skips.push({ index, rejection: rejectFile('duplicate_series', file.fileName, `its series (${file.seriesInstanceUid}) has already been imported.`) });
  }
  return { files: files.filter(({ file }) => !already.has(file.seriesInstanceUid)), skips };
}

/** The imports of one study: its pullbacks and runs paired with each other and with the study's waiting records. */
function studyUnits(files: Importable[], records: StudyRecord[]): { units: ImportUnit[]; index: Map<ImportUnit, number> } {
  const patient = files[0]!.patient;
  const other = files.find((f) => f.patient.id !== patient.id);
  if (other) {
    throw rejectFile('conflicting_files', other.file.fileName, `its patient (${other.patient.id}) is not the patient of ${files[0]!.file.fileName} (${patient.id}), of the same study.`);
  }
  const foreign = records.find((r) => r.patientId !== patient.id);
  if (foreign) {
    throw rejectFile('conflicting_files', files[0]!.file.fileName, `its study is already imported for another patient (${foreign.patientId}), not ${patient.id}.`);
  }
  const known = (record: StudyRecord) => (record.assumed.includes('acquiredAt') ? null : record.acquiredAt);
  type Side = { file: Importable } | { record: StudyRecord };
  const candidate = (side: Side): Candidate<Side> =>
    'file' in side ? { item: side, at: side.file.file.acquiredAt, existing: false } : { item: side, at: known(side.record), existing: true };
  const pullbacks: Side[] = [
    ...files.filter((f) => f.file.kind === 'bmode').map((file) => ({ file })),
    ...records.filter((r) => r.bmodeFrameCount > 0 && r.angioFrameCount === 0 && !r.angioTaken).map((record) => ({ record })),
  ];
  const runs: Side[] = [
    ...files.filter((f) => f.file.kind === 'angio').map((file) => ({ file })),
    ...records.filter((r) => r.bmodeFrameCount === 0 && r.angioFrameCount > 0 && !r.bmodeTaken).map((record) => ({ record })),
  ];
  const pairing = pairByTime(pullbacks.map(candidate), runs.map(candidate));
  const units: ImportUnit[] = [];
  const index = new Map<ImportUnit, number>();
  const add = (unit: ImportUnit, ...sides: Side[]) => {
    units.push(unit);
    index.set(unit, Math.min(...sides.map((s) => ('file' in s ? s.file.index : Infinity))));
  };
  for (const { pullback, run } of pairing.pairs) {
    if ('file' in pullback && 'file' in run) add({ bmode: pullback.file.file, angio: run.file.file, joins: null, patient }, pullback, run);
    else if ('file' in pullback && 'record' in run) add({ bmode: pullback.file.file, angio: null, joins: run.record, patient }, pullback);
    else if ('record' in pullback && 'file' in run) add({ bmode: null, angio: run.file.file, joins: pullback.record, patient }, run);
  }
  for (const side of pairing.pullbacks) if ('file' in side) add({ bmode: side.file.file, angio: null, joins: null, patient }, side);
  for (const side of pairing.runs) if ('file' in side) add({ bmode: null, angio: side.file.file, joins: null, patient }, side);
  return { units, index };
}

/**
 * The imports an upload makes (the first one takes `uploadId` and the upload's directory) and the
 * files it skips, or an ImportRejection for the whole upload (see the module comment).
 */
export async function planUpload(
  db: Db,
  actor: ImportActor,
  upload: { uploadId: string; dir: string; tempRoot: string },
  read: ReadFile[],
  form: ImportForm,
): Promise<UploadPlan> {
  const { files, skips } = await sortOut(db, actor.tenantId, read, form);
  const firstSkip = () => skips.reduce((a, b) => (b.index < a.index ? b : a)).rejection;
  if (files.length === 0) throw firstSkip();
  const choices = await choosePatients(db, actor.tenantId, files.map((f) => f.file), form);
  const importable: Importable[] = files.map((f, k) => ({ ...f, patient: choices[k]! }));

  const byStudy = new Map<string, Importable[]>();
  for (const f of importable) byStudy.set(f.file.studyInstanceUid, [...(byStudy.get(f.file.studyInstanceUid) ?? []), f]);
  const states = await studyStates(db, actor.tenantId, [...byStudy.keys()]);
  const units: { unit: ImportUnit; index: number }[] = [];
  for (const [study, studyFiles] of byStudy) {
    const state = states.get(study)!;
    let kept = studyFiles;
    const hasKind = (kind: DicomFile['kind']) => studyFiles.some((f) => f.file.kind === kind);
    // A record of the study still being made would be missed: its partner waits for it.
    if (state.pullbackInProgress && !hasKind('bmode')) {
      kept = waitFor(kept, 'angio', skips, 'angio_without_pullback', 'the pullback of its study is still being imported: send the angiography run again when that import is done.');
    }
    if (state.runInProgress && !hasKind('angio')) {
      kept = waitFor(kept, 'bmode', skips, 'conflicting_files', 'the angiography run of its study is still being imported: send the pullback again when that import is done.');
    }
    if (kept.length === 0) continue;
    const made = studyUnits(kept, state.records);
    for (const unit of made.units) units.push({ unit, index: made.index.get(unit)! });
  }
  if (units.length === 0) throw firstSkip();
  units.sort((a, b) => a.index - b.index);

  const plans = units.map(({ unit }, k) => planUnit(unit, actor, k === 0 ? upload.uploadId : randomUUID(), upload.tempRoot, upload.dir));
  skips.sort((a, b) => a.index - b.index);
  const skipped: SkippedFile[] = skips.map(({ rejection }) => ({ fileName: rejection.fileName ?? '', code: rejection.code, message: rejection.message }));
  // GET /imports shows an upload's skipped files with its first import.
  plans[0]!.row.warnings = [...(plans[0]!.row.warnings ?? []), ...skipped.map((s) => `Not imported: ${s.message}`)];
  return { plans, skipped };
}

function waitFor(files: Importable[], kind: DicomFile['kind'], skips: Skip[], code: 'angio_without_pullback' | 'conflicting_files', detail: string): Importable[] {
  for (const f of files) if (f.file.kind === kind) skips.push({ index: f.index, rejection: rejectFile(code, f.file.fileName, detail) });
  return files.filter((f) => f.file.kind !== kind);
}
