/**
 * An import's decoding as a durable job (import-decode): the plan made when the upload was read
 * travels in the job, so whichever server takes it (after a crash, another replica) decodes the
 * same files into the same record without reading or planning anything again. The uploaded files
 * stay in the import's directory until its final transaction; with several replicas that directory
 * is on storage they share (DATA_DIR).
 */
import type { ImportRow } from '../db/imports.ts';
import type { DicomFile } from './dicom-file.ts';
import type { RunningPlan } from './import-commit.ts';

/** The plan less what is already done (the moves) and what the database holds (the import row). */
type PlanOfJob = Omit<RunningPlan, 'row' | 'moves'>;

/** Dates as ISO text: what JSON keeps. */
type Serialized<T> = { [K in keyof T]: T[K] extends Date | null ? string | null : T[K] };
type SerializedFile = Serialized<DicomFile>;

export type ImportJobData = {
  importId: string;
  plan: Omit<Serialized<PlanOfJob>, 'bmode' | 'angio'> & { bmode: SerializedFile | null; angio: SerializedFile | null };
};

const iso = (date: Date | null) => (date ? date.toISOString() : null);
const dateOf = (text: string | null) => (text === null ? null : new Date(text));

const fileToJob = (file: DicomFile | null): SerializedFile | null => (file ? { ...file, acquiredAt: iso(file.acquiredAt) } : null);
const fileFromJob = (file: SerializedFile | null): DicomFile | null => (file ? { ...file, acquiredAt: dateOf(file.acquiredAt) } : null);

export function importJobData(plan: RunningPlan): ImportJobData {
  const { row, moves: _moves, bmode, angio, acquiredAt, ...rest } = plan;
  return { importId: row.id, plan: { ...rest, acquiredAt: iso(acquiredAt), bmode: fileToJob(bmode), angio: fileToJob(angio) } };
}

/** The running plan again, around the import's row as the database has it now. */
export function planOfJob(data: ImportJobData, row: ImportRow): RunningPlan {
  const { bmode, angio, acquiredAt, ...rest } = data.plan;
  return { ...rest, row, moves: [], acquiredAt: dateOf(acquiredAt), bmode: fileFromJob(bmode), angio: fileFromJob(angio) };
}
