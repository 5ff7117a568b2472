import { describe, expect, it } from 'vitest';
import type { RecordImages } from '../../../src/domain/images.ts';
import { chunkSpans, orderAround, sliceDistance } from '../../../src/web/sw/chunk-spans.ts';
import { testRecordImages } from '../record-images-fixture.ts';

function images(bmode: number, angio: number): RecordImages {
  return testRecordImages({ bmode, angio });
}

describe('chunk spans', () => {
  it('gives each B-mode chunk its slices, and each angio chunk the slices that show its frames', () => {
    const spans = chunkSpans(images(160, 64));
    expect(spans.filter((s) => s.series === 'bmode').map(({ first, last }) => [first, last])).toEqual(
      Array.from({ length: 10 }, (_, k) => [16 * k + 1, 16 * k + 16]),
    );
    // 64 angio frames over 160 slices: 2.5 slices an angio frame, 40 slices an angio chunk.
    expect(spans.filter((s) => s.series === 'angio').map(({ first, last }) => [first, last])).toEqual([
      [1, 40],
      [41, 80],
      [81, 120],
      [121, 160],
    ]);
  });

  it('maps an angiography run waiting for its pullback slice by slice', () => {
    expect(chunkSpans(images(0, 20)).map(({ series, first, last }) => [series, first, last])).toEqual([
      ['angio', 1, 16],
      ['angio', 17, 20],
    ]);
  });

  it('orders spans outwards from a slice, keeping the order of equally near ones', () => {
    const spans = [
      { name: 'a', first: 1, last: 10 },
      { name: 'b', first: 11, last: 20 },
      { name: 'c', first: 21, last: 30 },
      { name: 'd', first: 11, last: 30 },
    ];
    expect(sliceDistance(spans[0]!, 15)).toBe(5);
    expect(sliceDistance(spans[1]!, 15)).toBe(0);
    expect(orderAround(spans, 24).map((s) => s.name)).toEqual(['c', 'd', 'b', 'a']);
  });
});
