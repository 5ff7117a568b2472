import type { RecordRow } from '../db/records.ts';
import type { GenerationPriority } from './generation-queue.ts';
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
