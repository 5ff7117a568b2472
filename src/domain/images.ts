import { z } from 'zod';
import { PIXEL_ENCODINGS } from './pixels/pixel-format.ts';

/**
 * How a record's frames travel: raw 8-bit single-channel pixels (row-major, no header), a
 * chunk of consecutive frames per request, each chunk immutable for its imaging version.
 * Raw bytes cost the browser nothing to decode and go straight into a GPU texture.
 */
export const FRAMES_PER_CHUNK = 16;

export const IMAGE_SERIES = ['bmode', 'angio'] as const;
export type ImageSeriesName = (typeof IMAGE_SERIES)[number];

/** What picks a frame pack's decoder: its frames' encoding, and for JPEG the sample depth (8 or 12-bit). */
export const PackCodecSchema = z.object({
  encoding: z.enum(PIXEL_ENCODINGS),
  bitsStored: z.number().int().min(1).max(16),
});
export type PackCodec = z.infer<typeof PackCodecSchema>;

const SeriesSchema = z.object({
  count: z.number().int().nonnegative(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  framesPerChunk: z.number().int().positive(),
  /** API paths (relative to /api/{tenant}/) of the chunks, in frame order. */
  chunks: z.array(z.string()),
  /**
   * What a chunk's body is: `gray8`, the frames' raw 8-bit gray bytes (sent gzip-encoded);
   * `frame-pack`, the frames as encoded bitstreams the page decodes (domain/pixels/frame-pack.ts).
   */
  chunkFormat: z.enum(['gray8', 'frame-pack']).default('gray8'),
  /**
   * For frame packs, the encoding of every pack's frames (all a series' packs share it): the page
   * loads that codec while the first chunk downloads instead of after it has arrived. Absent when
   * the server does not know it (records imported before it was noted): the first pack says.
   */
  packCodec: PackCodecSchema.nullish(),
});
export type SeriesImages = z.infer<typeof SeriesSchema>;

/** `GET /api/{tenant}/records/{recordId}/images`: the remote image lists of a record. */
export const RecordImagesSchema = z.object({
  recordId: z.string(),
  patientId: z.string(),
  version: z.string(),
  frameRateHz: z.number().positive(),
  pullbackSpeedMmPerS: z.number().positive(),
  pixelSpacingMm: z.number().positive(),
  bmode: SeriesSchema,
  angio: SeriesSchema,
});
export type RecordImages = z.infer<typeof RecordImagesSchema>;

export function chunkCount(frameCount: number, framesPerChunk = FRAMES_PER_CHUNK): number {
  return Math.ceil(frameCount / framesPerChunk);
}

/** The frames [first, first + count) that chunk `index` holds. */
export function chunkFrames(index: number, frameCount: number, framesPerChunk = FRAMES_PER_CHUNK): { first: number; count: number } {
  const first = index * framesPerChunk;
  return { first, count: Math.max(0, Math.min(framesPerChunk, frameCount - first)) };
}

/**
 * Marks the frame request the page waits on to show its first image: the frames service worker
 * answers it at once and stores a copy beside, instead of storing first and answering from its cache.
 */
export const URGENT_FRAME_HEADER = 'X-Ivus-Urgent';

/**
 * Marks a frame request whose body the page reads as it arrives (a frame pack, decoded frame by
 * frame as it downloads) and stores in the frames cache itself once whole: the frames service
 * worker hands it over at once instead of storing it first, which would hold every byte back
 * until the last had arrived.
 */
export const STREAMED_FRAME_HEADER = 'X-Ivus-Streamed';
