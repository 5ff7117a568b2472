import { renderAngioFrame } from '../../domain/imaging/angio-frame.ts';
import { createBmodeRenderer } from '../../domain/imaging/bmode-frame.ts';
import { downsampleByHalf } from '../../domain/imaging/downsample.ts';
import { createPullbackModel, type PullbackModel } from '../../domain/imaging/pullback-model.ts';
import type { RecordRow } from '../db/records.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { encodeGrayPng } from './png.ts';

export type ImageSeries = 'bmode' | 'angio';

export class MissingImagingError extends Error {
  readonly statusCode = 500;
}

/** The demo generator's description of a record's pullback. */
export function pullbackModelOf(record: RecordRow): PullbackModel {
  return createPullbackModel({
    seed: record.demoSeed ?? seedFromId(record.id),
    frameCount: record.bmodeFrameCount,
    frameSizePx: record.frameWidth,
    pixelSpacingMm: record.pixelSpacingMm,
    frameRateHz: record.frameRateHz,
    pullbackSpeedMmPerS: record.pullbackSpeedMmPerS,
  });
}

function seedFromId(id: string): number {
  let hash = 2166136261;
  for (const char of id) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash;
}

/** Storage key of one of a record's files: `{tenant}/{record}/{version}/{name}`. */
export function imagingKey(record: RecordRow, name: string): string {
  return `${record.tenantId}/${record.id}/${record.imagingVersion}/${name}`;
}

/**
 * A record's derived images. Demo records are generated on first request and cached in the
 * store; imported records (later) are read from it.
 */
export class RecordImaging {
  private readonly store: BlobStore;

  constructor(store: BlobStore) {
    this.store = store;
  }

  /** A half-size PNG of the middle frame of a series. */
  async preview(record: RecordRow, series: ImageSeries): Promise<Buffer> {
    const key = imagingKey(record, `preview-${series}.png`);
    const cached = await this.store.get(key);
    if (cached) return cached;
    if (record.imagingSource !== 'demo') throw new MissingImagingError(`preview ${series} of record ${record.id} is missing from storage`);
    const model = pullbackModelOf(record);
    const frame =
      series === 'bmode'
        ? { pixels: createBmodeRenderer(model).renderFrame(Math.floor(record.bmodeFrameCount / 2)), size: record.frameWidth }
        : { pixels: renderAngioFrame(model, Math.floor(record.angioFrameCount / 2), record.angioFrameCount, record.angioWidth), size: record.angioWidth };
    const small = downsampleByHalf(frame.pixels, frame.size, frame.size);
    const png = encodeGrayPng(small.width, small.height, small.pixels);
    await this.store.put(key, png);
    return png;
  }
}
