/**
 * Large uncompressed pullbacks for the benches, written frame by frame (the header from dcmjs, then
 * the pixel data) so a file of hundreds of megabytes is never held in memory.
 */
import fs from 'node:fs';
import { makeDicom, type Fixture } from '../tests/support/dicom-fixtures.ts';

/** Writes `frames` gray frames of `size` x `size` (`distinct` different ones, repeated); answers the header's fixture (its UIDs). */
export function writeUncompressedPullback(file: string, options: { frames: number; size: number; distinct: number; patientId: string }): Fixture {
  const { frames, size, distinct, patientId } = options;
  const header = makeDicom({ frames, rows: size, columns: size, noPixelData: true, patientId });
  const pictures = makeDicom({ frames: distinct, rows: size, columns: size, regionDeltaXcm: null, pullbackRate: null }).gray;
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, header.bytes);
    // Pixel Data (7FE0,0010), OB, with its length: the frames follow.
    const element = Buffer.alloc(12);
    element.writeUInt16LE(0x7fe0, 0);
    element.writeUInt16LE(0x0010, 2);
    element.write('OB', 4, 'latin1');
    element.writeUInt32LE(frames * size * size, 8);
    fs.writeSync(fd, element);
    for (let f = 0; f < frames; f++) fs.writeSync(fd, pictures[f % distinct]!);
  } finally {
    fs.closeSync(fd);
  }
  return header;
}
