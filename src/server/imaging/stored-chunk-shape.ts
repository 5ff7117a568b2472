import type { ImageSeriesName } from '../../domain/images.ts';
import { FramePackError, readFramePack } from '../../domain/pixels/frame-pack.ts';
import type { RecordRow } from '../db/records.ts';

/** A series' frame count and frame size: what a whole stored chunk of it must hold. */
export function seriesGeometry(record: RecordRow, series: ImageSeriesName) {
  return series === 'bmode'
    ? { count: record.bmodeFrameCount, frameBytes: record.frameWidth * record.frameHeight, rows: record.frameHeight, columns: record.frameWidth }
    : { count: record.angioFrameCount, frameBytes: record.angioWidth * record.angioHeight, rows: record.angioHeight, columns: record.angioWidth };
}

/** The number of frames a stored pack holds, or -1 when it is not a whole pack. */
export function packFrameCount(data: Buffer): number {
  try {
    return readFramePack(data).frames.length;
  } catch (error) {
    if (error instanceof FramePackError) return -1;
    throw error;
  }
}
