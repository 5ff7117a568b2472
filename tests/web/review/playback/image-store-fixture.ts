import { ImageStore } from '../../../../src/web/review/frames/image-store.ts';
import type { RecordImages } from '../../../../src/domain/images.ts';

const FRAMES_PER_CHUNK = 16;

function series(count: number): RecordImages['bmode'] {
  const chunks = Array.from({ length: Math.ceil(count / FRAMES_PER_CHUNK) }, (_, index) => `frames/${index}`);
  return { count, width: 1, height: 1, framesPerChunk: FRAMES_PER_CHUNK, chunks, chunkFormat: 'gray8' };
}

/** The image lists of a record of `bmodeCount` one-pixel B-mode frames and `angioCount` angio frames. */
export function recordImagesFor({ bmodeCount = 150, angioCount = 20, frameRateHz = 30, pullbackSpeedMmPerS = 0.5 } = {}): RecordImages {
  return {
    recordId: 'R-1',
    patientId: 'P-1',
    version: 'v1',
    frameRateHz,
    pullbackSpeedMmPerS,
    pixelSpacingMm: 0.01,
    bmode: series(bmodeCount),
    angio: series(angioCount),
  };
}

/** A real image store for the record of recordImagesFor. */
export function imageStoreFor(options: Parameters<typeof recordImagesFor>[0] = {}): ImageStore {
  const store = new ImageStore();
  store.setImages(recordImagesFor(options));
  return store;
}

/** Delivers the first `frames` B-mode frames (whole chunks) to the store. */
export function loadBmodeFrames(store: ImageStore, frames: number): void {
  const total = store.size('bmode')?.count ?? 0;
  for (let first = 0, index = 0; first < Math.min(frames, total); first += FRAMES_PER_CHUNK, index += 1) {
    store.addChunk('bmode', index, new Uint8Array(Math.min(FRAMES_PER_CHUNK, total - first)));
  }
}

/** Delivers the first `frames` angio frames (whole chunks) to the store. */
export function loadAngioFrames(store: ImageStore, frames: number): void {
  const total = store.size('angio')?.count ?? 0;
  for (let first = 0, index = 0; first < Math.min(frames, total); first += FRAMES_PER_CHUNK, index += 1) {
    store.addChunk('angio', index, new Uint8Array(Math.min(FRAMES_PER_CHUNK, total - first)));
  }
}
