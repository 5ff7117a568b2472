/**
 * An import's decoding as a durable job (import-decode): the plan made when the upload was read
 * travels in the job, so whichever server takes it (after a crash, another replica) decodes the
 * same files into the same record without reading or planning anything again. The uploaded files
 * stay in the import's directory until its final transaction. With PostgreSQL (several replicas,
 * each with its own disk) they are also staged in the bucket before the upload is answered, and a
 * replica that takes the job without them fetches them from there.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ImportRow } from '../db/imports.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { ImportRejection } from '../../domain/import-rejection.ts';
import type { DicomFile } from '../dicom/dicom-file.ts';
import type { RunningPlan } from './import-commit.ts';
import { stagingPrefix } from './record-plan.ts';

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

/**
 * The running plan again, around the import's row as the database has it now, its files in this
 * server's own import directory (`tempRoot`): the replica that received them may keep its data
 * elsewhere, or on another machine.
 */
export function planOfJob(data: ImportJobData, row: ImportRow, tempRoot: string): RunningPlan {
  const { bmode, angio, acquiredAt, ...rest } = data.plan;
  const tempDir = path.join(tempRoot, row.id);
  const here = (file: DicomFile | null) => file && { ...file, filePath: path.join(tempDir, path.basename(file.filePath)) };
  return { ...rest, row: { ...row, tempDir }, moves: [], acquiredAt: dateOf(acquiredAt), bmode: here(fileFromJob(bmode)), angio: here(fileFromJob(angio)) };
}

const stagedFiles = (plan: RunningPlan) =>
  (['bmode', 'angio'] as const).flatMap((series) => {
    const file = plan[series];
    return file ? [{ file, key: `${stagingPrefix(plan.actor.tenantId, plan.row.id)}${series}.dcm` }] : [];
  });

/** Copies the import's uploaded files into the bucket (streamed). */
export async function stageUploadedFiles(store: BlobStore, plan: RunningPlan): Promise<void> {
  for (const { file, key } of stagedFiles(plan)) await store.putFile(key, file.filePath);
}

/** Fetches from the bucket the uploaded files this server does not have (another replica received them). */
export async function fetchStagedFiles(store: BlobStore, plan: RunningPlan, staged: boolean): Promise<void> {
  for (const { file, key } of stagedFiles(plan)) {
    if (fs.existsSync(file.filePath)) continue;
    if (!staged || !(await store.getFile(key, file.filePath))) {
      throw new ImportRejection('interrupted', `The uploaded file ${file.fileName} is no longer there: send the files again.`);
    }
  }
}
