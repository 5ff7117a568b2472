import type { RecordImages } from '../../src/domain/images.ts';

/**
 * The image lists of a record 'r' with `bmode` and `angio` frames of size x size pixels, in chunks of
 * framesPerChunk, at `records/r/frames/{series}/{index}?v=v1`.
 */
export function testRecordImages({ bmode, angio = 0, size = 4, framesPerChunk = 16 }: { bmode: number; angio?: number; size?: number; framesPerChunk?: number }): RecordImages {
  const series = (name: string, count: number) => ({
    count,
    width: size,
    height: size,
    framesPerChunk,
    chunks: Array.from({ length: Math.ceil(count / framesPerChunk) }, (_, i) => `records/r/frames/${name}/${i}?v=v1`),
    chunkFormat: 'gray8' as const,
  });
  return {
    recordId: 'r',
    patientId: 'p',
    version: 'v1',
    frameRateHz: 30,
    pullbackSpeedMmPerS: 0.5,
    pixelSpacingMm: 0.01,
    bmode: series('bmode', bmode),
    angio: series('angio', angio),
  };
}
