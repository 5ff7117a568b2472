/**
 * A cheap look at the top-level data elements of an explicit VR little endian file (an inflated
 * deflated file), before the header parser reads them: each element must have a value representation
 * (two upper-case letters) and come after the one before it, as PS3.5 section 7.1 requires of every
 * DICOM writer. A deflate bomb inflates to bytes that break this at once (a run of zeros reads as
 * element (0000,0000) with no VR, again and again); without the look, the parser would read those
 * millions of empty elements anew at every size up to the header limit, seconds of work per upload.
 *
 * The walk stops, content, where it cannot judge cheaply: at an element of undefined length (a
 * sequence or encapsulated pixel data, whose items the parser reads), at the pixel data, or at the end
 * of the bytes so far.
 */

/** VRs whose length is 4 bytes after 2 reserved ones (PS3.5 table 7.1-1); the others have a 2-byte length. */
const LONG_LENGTH_VRS = new Set(['OB', 'OD', 'OF', 'OL', 'OV', 'OW', 'SQ', 'SV', 'UC', 'UN', 'UR', 'UT', 'UV']);
const PIXEL_DATA = 0x7fe00010;
const UNDEFINED_LENGTH = 0xffffffff;

/** The first misplaced or VR-less element of `bytes` (a Part 10 file's start, preamble and meta group included), or null. */
export function misorderedElement(bytes: Buffer): string | null {
  let p = 132;
  let previous = -1;
  while (p + 8 <= bytes.length) {
    const tag = ((bytes.readUInt16LE(p) << 16) | bytes.readUInt16LE(p + 2)) >>> 0;
    const vr = bytes.toString('latin1', p + 4, p + 6);
    const name = `(${tag.toString(16).padStart(8, '0').replace(/^(.{4})/, '$1,')})`;
    if (!/^[A-Z]{2}$/.test(vr)) return `element ${name} has no value representation`;
    if (tag <= previous) return `element ${name} comes after (${previous.toString(16).padStart(8, '0').replace(/^(.{4})/, '$1,')})`;
    if (tag === PIXEL_DATA) return null;
    previous = tag;
    let length: number;
    if (LONG_LENGTH_VRS.has(vr)) {
      if (p + 12 > bytes.length) return null;
      length = bytes.readUInt32LE(p + 8);
      if (length === UNDEFINED_LENGTH) return null;
      p += 12 + length;
    } else {
      length = bytes.readUInt16LE(p + 6);
      p += 8 + length;
    }
  }
  return null;
}
