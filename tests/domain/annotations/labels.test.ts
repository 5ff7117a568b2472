import { describe, expect, it } from 'vitest';
import { LABEL_LETTERS, SLICE_COLORS } from '../../../src/domain/constants.ts';
import {
  counterOf,
  LABEL_COLOR_CYCLE,
  labelAndColorAt,
  nextLabelAndColor,
  sliceState,
  slicesWithAnnotations,
} from '../../../src/domain/annotations/labels.ts';
import { emptyManifest, type AnnotationManifest } from '../../../src/domain/annotations/manifest.ts';
import { ruler, text } from './fixtures.ts';

const letterIndex = (label: string) => LABEL_LETTERS.indexOf(label);

/** A manifest with text notes labelled by the given letters on a slice, coloured as allocated. */
function withLabels(slice: number, labels: string[], others: AnnotationManifest = emptyManifest()): AnnotationManifest {
  return {
    ...others,
    text: [
      ...others.text,
      ...labels.map((label) => text({ x: 0, y: 0 }, '', { slice, label, color: SLICE_COLORS[letterIndex(label) % 9]! })),
    ],
  };
}

/** Allocates `count` annotations one after another on a slice, as the tools do. */
function allocate(count: number, slice = 1): AnnotationManifest {
  let m = emptyManifest();
  for (let i = 0; i < count; i++) {
    const { label, color } = nextLabelAndColor(m, slice);
    m = { ...m, ruler: [...m.ruler, ruler({ x: 0, y: 0 }, { x: 1, y: 1 }, { slice, label, color })] };
  }
  return m;
}

describe('nextLabelAndColor', () => {
  it.each<[string, string[], string, number]>([
    ['an empty slice starts at A', [], 'A', 0],
    ['after A comes B', ['A'], 'B', 1],
    ['after A and B comes C', ['A', 'B'], 'C', 2],
    ['continues after the highest label, not the first gap', ['A', 'E'], 'F', 5],
    ['continues after the highest label even when lower ones were deleted', ['H'], 'I', 8],
    ['the tenth label takes the first colour again', LABEL_LETTERS.slice(0, 9).split(''), 'J', 0],
    ['after Y comes Z', ['Y'], 'Z', 25 % 9],
  ])('%s', (_, labels, label, colorIndex) => {
    expect(nextLabelAndColor(withLabels(4, labels), 4)).toEqual({ label, color: SLICE_COLORS[colorIndex] });
  });

  it('colours the first 26 labels by their letter: SLICE_COLORS[index % 9]', () => {
    const m = allocate(26);
    expect(m.ruler.map((r) => r.label).join('')).toBe(LABEL_LETTERS);
    m.ruler.forEach((r, i) => expect(r.color).toBe(SLICE_COLORS[i % 9]));
  });

  it('wraps to A after Z, with a new colour so that the id is new', () => {
    const m = allocate(26);
    const next = nextLabelAndColor(m, 1);
    expect(next).toEqual({ label: 'A', color: SLICE_COLORS[26 % 9] });
    expect(next.color).not.toBe(m.ruler[0]!.color);
  });

  it('never repeats an id on a slice within a full cycle of 234 annotations, then wraps', () => {
    const m = allocate(LABEL_COLOR_CYCLE);
    expect(new Set(m.ruler.map((r) => r.id)).size).toBe(LABEL_COLOR_CYCLE);
    expect(sliceState(m, 1).next).toBe(0);
  });

  it('after the cycle wraps, skips pairs still in use', () => {
    const full = allocate(LABEL_COLOR_CYCLE);
    // Keep only the last one (n = 233) and the first two (n = 0, 1): next is n = 2.
    const m = { ...full, ruler: [full.ruler[0]!, full.ruler[1]!, full.ruler[233]!] };
    expect(sliceState(m, 1).next).toBe(2);
    expect(nextLabelAndColor(m, 1)).toEqual({ label: 'C', color: SLICE_COLORS[2] });
  });

  it('counts every kind and ignores other slices', () => {
    const m = withLabels(2, ['A', 'B', 'C'], { ...emptyManifest(), ruler: [ruler({ x: 0, y: 0 }, { x: 1, y: 1 }, { slice: 5, label: 'D', color: SLICE_COLORS[3] })] });
    expect(nextLabelAndColor(m, 5)).toEqual({ label: 'E', color: SLICE_COLORS[4] });
    expect(nextLabelAndColor(m, 2)).toEqual({ label: 'D', color: SLICE_COLORS[3] });
    expect(nextLabelAndColor(m, 3)).toEqual({ label: 'A', color: SLICE_COLORS[0] });
  });
});

describe('sliceState', () => {
  it('gives the count, the highest counter and the next label and colour', () => {
    expect(sliceState(emptyManifest(), 1)).toEqual({ slice: 1, count: 0, highest: -1, next: 0, label: 'A', color: SLICE_COLORS[0] });
    expect(sliceState(withLabels(1, ['A', 'C']), 1)).toEqual({ slice: 1, count: 2, highest: 2, next: 3, label: 'D', color: SLICE_COLORS[3] });
  });
});

describe('the label and colour counter', () => {
  it('maps every (label, colour) pair to exactly one counter value and back', () => {
    const seen = new Set<number>();
    for (const label of LABEL_LETTERS) {
      for (const color of SLICE_COLORS) {
        const n = counterOf(label, color);
        expect(n).not.toBeNull();
        expect(labelAndColorAt(n!)).toEqual({ label, color });
        seen.add(n!);
      }
    }
    expect(seen.size).toBe(LABEL_COLOR_CYCLE);
  });

  it('has no counter for a label or colour outside the lists', () => {
    expect(counterOf('a', SLICE_COLORS[0])).toBeNull();
    expect(counterOf('A', '#000000')).toBeNull();
  });
});

describe('slicesWithAnnotations', () => {
  it('lists each annotated slice once, ascending', () => {
    const m = withLabels(9, ['A', 'B'], withLabels(2, ['A'], { ...emptyManifest(), ruler: [ruler({ x: 0, y: 0 }, { x: 1, y: 1 }, { slice: 5 })] }));
    expect(slicesWithAnnotations(m)).toEqual([2, 5, 9]);
    expect(slicesWithAnnotations(emptyManifest())).toEqual([]);
  });

  it('sorts numerically, not as text', () => {
    expect(slicesWithAnnotations(withLabels(100, ['A'], withLabels(20, ['A'], withLabels(3, ['A']))))).toEqual([3, 20, 100]);
  });
});
