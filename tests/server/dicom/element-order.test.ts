import { describe, expect, it } from 'vitest';
import { misorderedElement } from '../../../src/server/dicom/element-order.ts';
import { makeDicom } from '../../support/dicom-fixtures.ts';

describe('the look at the order of the data elements before the header parser', () => {
  const { bytes } = makeDicom({ frames: 2, rows: 16, columns: 16 });

  it('finds nothing wrong in a well-formed file, up to its pixel data and in any prefix of it', () => {
    expect(misorderedElement(bytes)).toBeNull();
    for (const cut of [140, 200, 333, bytes.length - 100]) expect(misorderedElement(bytes.subarray(0, cut))).toBeNull();
  });

  it('refuses zeros where the data set should be: element (0000,0000) without a value representation', () => {
    const metaEnd = 144 + bytes.readUInt32LE(140);
    const zeros = Buffer.concat([bytes.subarray(0, metaEnd), Buffer.alloc(4096)]);
    expect(misorderedElement(zeros)).toBe('element (0000,0000) has no value representation');
  });

  it('refuses an element that comes before the one ahead of it', () => {
    const metaEnd = 144 + bytes.readUInt32LE(140);
    // (0010,0010) PN "A^B" then (0008,0060) CS "IVUS": out of order.
    const name = Buffer.from([0x10, 0x00, 0x10, 0x00, 0x50, 0x4e, 0x04, 0x00, 0x41, 0x5e, 0x42, 0x20]);
    const modality = Buffer.from([0x08, 0x00, 0x60, 0x00, 0x43, 0x53, 0x04, 0x00, 0x49, 0x56, 0x55, 0x53]);
    expect(misorderedElement(Buffer.concat([bytes.subarray(0, metaEnd), name, modality]))).toBe('element (0008,0060) comes after (0010,0010)');
  });
});
