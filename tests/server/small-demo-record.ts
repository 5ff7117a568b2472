import type { RecordRow } from '../../src/server/db/records.ts';

/**
 * A small demo record for the detection pipeline's tests: 256-pixel frames over the demo's 5.12 mm
 * (detected on the main thread in about a second per 48 frames), 16 angiogram frames.
 */
export function smallDemoRecord(fields: { id: string; patientId?: string; demoSeed: number; bmodeFrameCount: number }): RecordRow {
  return {
    tenantId: 'demo',
    patientId: 'DEM-900',
    imagingVersion: 'v1',
    imagingSource: 'demo',
    angioFrameCount: 16,
    frameWidth: 256,
    frameHeight: 256,
    angioWidth: 128,
    angioHeight: 128,
    pixelSpacingMm: 0.02,
    frameRateHz: 30,
    pullbackSpeedMmPerS: 0.5,
    ...fields,
  } as RecordRow;
}
