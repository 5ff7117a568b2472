/**
 * The pixels' say on an uploaded ultrasound series (issue 26): a few of its frames are decoded
 * while its header is read, and what their field of view shows (dicom/ultrasound-field-of-view.ts)
 * is weighed with the header (withPixelEvidence in dicom/ultrasound-kind.ts). Bounded: at most
 * SAMPLED_FRAMES frames, only when a frame is at most MAX_INSPECTED_PIXELS; a frame that cannot
 * be decoded leaves the header's word, and the import's own decoding then reports it.
 */
import type { DicomFile } from '../dicom/dicom-file.ts';
import { initCodecFor } from '../dicom/codecs/registry.ts';
import { fieldOfView, type FieldOfView } from '../dicom/ultrasound-field-of-view.ts';
import { withPixelEvidence } from '../dicom/ultrasound-kind.ts';
import { decodeRange } from './decode-range.ts';

/** First, last and evenly between: the ring-down must stay put over the whole run. */
const SAMPLED_FRAMES = 4;
/** 4096 x 4096: far above any ultrasound console's frame, and 64 MiB for the sampled frames at most. */
const MAX_INSPECTED_PIXELS = 4096 * 4096;

const UNCLEAR: FieldOfView = { shape: 'unclear', ringDown: false };

/** Indices of up to SAMPLED_FRAMES frames spread over the run. */
function sampledFrames(frameCount: number): number[] {
  const count = Math.min(SAMPLED_FRAMES, frameCount);
  if (count <= 1) return [0];
  return Array.from({ length: count }, (_, k) => Math.round((k * (frameCount - 1)) / (count - 1)));
}

async function inspect(file: DicomFile): Promise<FieldOfView> {
  const { rows, columns } = file.format;
  if (rows * columns > MAX_INSPECTED_PIXELS || file.frames.length === 0) return UNCLEAR;
  try {
    await initCodecFor(file.format);
    const indices = sampledFrames(file.frames.length);
    const frames = indices.map((index) => {
      const { pixels } = decodeRange({ filePath: file.filePath, format: file.format, firstFrame: index, frames: [file.frames[index]!], gzip: false });
      return pixels;
    });
    return fieldOfView({ rows, columns, frames });
  } catch {
    return UNCLEAR;
  }
}

/** The file with its ultrasound classification weighed against its frames (angiography runs unchanged). */
export async function withUltrasoundPixels(file: DicomFile): Promise<DicomFile> {
  if (!file.ultrasound) return file;
  return { ...file, ultrasound: withPixelEvidence(file.ultrasound, await inspect(file)) };
}
