import type { RecordImages } from '../../../../src/domain/images.ts';
import { ImageStore } from '../../../../src/web/review/frames/image-store.ts';

/** B-mode 8 x 6 and angio 4 x 4, each series one chunk, so that the byte figures are easy to check by hand. */
export const BMODE = { width: 8, height: 6 };
export const ANGIO = { width: 4, height: 4 };

export function devStore({ bmodeCount = 120, angioCount = 30 } = {}): ImageStore {
  const series = (count: number, size: { width: number; height: number }): RecordImages['bmode'] => ({
    count,
    ...size,
    framesPerChunk: count,
    chunkFormat: 'gray8',
    chunks: ['frames/0'],
  });
  const store = new ImageStore();
  store.setImages({
    recordId: 'R-1',
    patientId: 'P-1',
    version: 'v1',
    frameRateHz: 30,
    pullbackSpeedMmPerS: 0.5,
    pixelSpacingMm: 0.01,
    bmode: series(bmodeCount, BMODE),
    angio: series(angioCount, ANGIO),
  });
  return store;
}

export function loadAll(store: ImageStore): void {
  const bmode = store.size('bmode')!;
  const angio = store.size('angio')!;
  store.addChunk('bmode', 0, new Uint8Array(bmode.count * bmode.width * bmode.height));
  store.addChunk('angio', 0, new Uint8Array(angio.count * angio.width * angio.height));
}
