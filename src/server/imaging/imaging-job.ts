import type { RecordRow } from '../db/records.ts';
import { GENERATION_PRIORITIES, type GenerationPriority, type RunOptions } from './generation-queue.ts';
import { imagingKey, type ImagingKeyParts } from './imaging-keys.ts';

/** Stored once a record's imaging is all made, so idle generation after a restart skips it without reading its chunks. */
const COMPLETE_MARKER = 'complete';

/** The key of a record's complete marker. */
export function completeMarkerKey(record: ImagingKeyParts): string {
  return imagingKey(record, COMPLETE_MARKER);
}

/** The imaging-generate job of a record's imaging version: one at a time. */
export function imagingJobKey(record: ImagingKeyParts): string {
  return completeMarkerKey(record);
}

export type ImagingJobData = { tenantId: string; recordId: string; imagingVersion: string; priority: GenerationPriority };

export function imagingJobData(record: RecordRow, priority: GenerationPriority): ImagingJobData {
  return { tenantId: record.tenantId, recordId: record.id, imagingVersion: record.imagingVersion, priority };
}

/** A record's whole-pullback generation, at the priority of whoever wants it most. */
export interface RecordJob {
  priority: GenerationPriority;
  /** The chunk it waits for now, raised with the job. */
  currentKey: string | null;
  readonly done: Promise<void>;
}

export interface Generation<T> {
  readonly promise: Promise<T>;
  raise(priority: GenerationPriority, options?: RunOptions): void;
}

/**
 * A demo chunk being made. Its gzip chunk and its frame pack are each there as soon as they are
 * made, before they are stored: the page that asked is answered at once rather than after the
 * store's puts (issue 27), and whoever asks meanwhile joins the same generation. `promise` settles
 * once both are stored: what a signed URL or the record's complete marker needs.
 */
export interface ChunkGeneration extends Generation<void> {
  readonly gzipped: Promise<Buffer>;
  /** null for records that send gzip chunks. */
  readonly pack: Promise<Buffer | null>;
}

/** The more urgent of two priorities. */
export const higherPriority = (a: GenerationPriority, b: GenerationPriority): GenerationPriority => (GENERATION_PRIORITIES.indexOf(a) <= GENERATION_PRIORITIES.indexOf(b) ? a : b);
