import { renderAngioFrame } from '../../domain/synthetic/angio-frame.ts';
import { createBmodeRenderer } from '../../domain/synthetic/bmode-frame.ts';
import { downsampleByHalf } from '../../domain/downsample.ts';
import type { ImageSeriesName } from '../../domain/images.ts';
import type { RecordRow } from '../db/records.ts';
import { encodeGrayPng } from './png.ts';
import { pullbackModelOf } from './record-model.ts';

/** A demo record's preview of a series: its middle frame at half size, as a gray PNG. */
export function demoPreviewPng(record: RecordRow, series: ImageSeriesName): Buffer {
  const model = pullbackModelOf(record);
  const frame =
    series === 'bmode'
      ? { pixels: createBmodeRenderer(model).renderFrame(Math.floor(record.bmodeFrameCount / 2)), size: record.frameWidth }
      : { pixels: renderAngioFrame(model, Math.floor(record.angioFrameCount / 2), record.angioFrameCount, record.angioWidth), size: record.angioWidth };
  const small = downsampleByHalf(frame.pixels, frame.size, frame.size);
  return encodeGrayPng(small.width, small.height, small.pixels);
}
