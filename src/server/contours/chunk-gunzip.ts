/**
 * A stored frame chunk unpacked on a contour worker (issue 23). zlib's default unpacks into 16 kB
 * pieces and joins them after: for a 4 MB chunk that is 256 pieces and a 4 MB copy, about a
 * quarter of the gunzip's time (and the gunzip is read twice per chunk: borders, then struts). Here
 * the output is one buffer of the size the gzip trailer states, and the bytes are zlib's own. Several
 * gzip members state only the last one's size: more pieces, the same bytes. A damaged trailer fails
 * zlib's own length check, and the buffer is capped so it cannot ask for a huge one first.
 */
import { gunzipSync } from 'node:zlib';

/** Larger than any stored chunk (16 frames of 1024 x 1024 is 16 MB). */
const MAX_PIECE = 64 << 20;
/** zlib's own default: below it, a small buffer gains nothing. */
const MIN_PIECE = 16 << 10;

export function gunzipChunk(gz: Uint8Array): Uint8Array {
  // ISIZE, the last 4 bytes of a gzip member: the unpacked size mod 2^32. One more byte lets zlib
  // see the stream's end within the first buffer, so it never allocates a second.
  const stated = gz.length >= 18 ? new DataView(gz.buffer, gz.byteOffset + gz.length - 4, 4).getUint32(0, true) : 0;
  return gunzipSync(gz, { chunkSize: Math.min(MAX_PIECE, Math.max(MIN_PIECE, stated + 1)) });
}
