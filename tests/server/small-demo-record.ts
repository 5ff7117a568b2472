import type { RecordRow } from '../../src/server/db/records.ts';

/**
 * A small demo record for the detection pipeline's and the imaging's tests: 256-pixel frames over the
 * demo's 5.12 mm (detected on the main thread in about a second per 48 frames), or 128-pixel ones where
 * only the generation and storage matter, and 16 angiogram frames.
 */
export function smallDemoRecord(
  fields: { id: string; patientId?: string; demoSeed: number; bmodeFrameCount: number; chunkFormat?: RecordRow['chunkFormat'] },
  frameSizePx: 128 | 256 = 256,
): RecordRow {
  return {
    tenantId: 'demo',
    patientId: 'DEM-900',
    imagingVersion: 'v1',
    imagingSource: 'demo',
    angioFrameCount: 16,
    frameWidth: frameSizePx,
    frameHeight: frameSizePx,
    angioWidth: 128,
    angioHeight: 128,
    pixelSpacingMm: 5.12 / frameSizePx,
    frameRateHz: 30,
    pullbackSpeedMmPerS: 0.5,
    ...fields,
  } as RecordRow;
}
