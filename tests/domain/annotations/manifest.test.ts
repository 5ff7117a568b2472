import { describe, expect, it } from 'vitest';
import { SLICE_COLORS } from '../../../src/domain/constants.ts';
import {
  AnnotationManifestSchema,
  annotationId,
  checkManifestAgainstImage,
  emptyManifest,
  formatIssuePath,
  MAX_ANNOTATIONS,
  MAX_AREA_POINTS,
  MAX_TEXT_LENGTH,
  parseManifest,
  type AnnotationManifest,
} from '../../../src/domain/annotations/manifest.ts';
import { angle, area, circle, ruler, text, viaJson } from './fixtures.ts';

function sample(): AnnotationManifest {
  return {
    ruler: [ruler({ x: 10, y: 20 }, { x: 110, y: 20 }, { slice: 3 })],
    area: [area(circle({ x: 200, y: 200 }, 50, 8), { slice: 3, label: 'B', color: SLICE_COLORS[1] })],
    text: [text({ x: 5, y: 5 }, 'plaque', { slice: 7 })],
    angle: [angle({ x: 256, y: 256 }, 100, { slice: 7, label: 'B', color: SLICE_COLORS[1] })],
    lastAnnotationSlice: 7,
  };
}

const DELETE = Symbol('delete');
type Container = Record<string | number, unknown>;

/** The sample manifest as JSON with the value at `path` replaced (or deleted with DELETE). */
function mutated(path: (string | number)[], value: unknown): unknown {
  const json = viaJson(sample());
  const parent = path.slice(0, -1).reduce<Container>((node, key) => node[key] as Container, json as Container);
  const key = path[path.length - 1]!;
  if (value === DELETE) delete parent[key];
  else parent[key] = value;
  return json;
}

describe('annotation ids', () => {
  it('are slice-type-label-color', () => {
    expect(annotationId(12, 'ruler', 'A', '#FFE411')).toBe('12-ruler-A-#FFE411');
    expect(annotationId(1, 'angle', 'Z', '#E6F0C5')).toBe('1-angle-Z-#E6F0C5');
  });
});

describe('parseManifest', () => {
  it('accepts the empty manifest and a manifest of every kind, as they were', () => {
    expect(parseManifest(viaJson(emptyManifest()))).toEqual({ ok: true, manifest: emptyManifest() });
    expect(parseManifest(viaJson(sample()))).toEqual({ ok: true, manifest: sample() });
  });

  it.each<[string, unknown, string]>([
    ['not an object', null, 'manifest: expected an object'],
    ['a list missing', mutated(['text'], DELETE), 'text: missing'],
    ['an unknown top-level field', mutated(['extra'], 1), 'manifest: unknown field "extra"'],
    ['an unknown annotation field', mutated(['ruler', 0, 'note'], 'x'), 'ruler[0]: unknown field "note"'],
    ['an unknown point field', mutated(['text', 0, 'origin', 'z'], 1), 'text[0].origin: unknown field "z"'],
    ['a coordinate of the wrong type', mutated(['ruler', 0, 'startX'], '10'), 'ruler[0].startX: expected a finite number'],
    ['a missing coordinate', mutated(['ruler', 0, 'endY'], DELETE), 'ruler[0].endY: missing (expected a finite number)'],
    ['slice 0', mutated(['ruler', 0, 'slice'], 0), 'ruler[0].slice: slice must be 1 or more'],
    ['a fractional slice', mutated(['ruler', 0, 'slice'], 1.5), 'ruler[0].slice: slice must be a whole number'],
    ['a lower-case label', mutated(['text', 0, 'label'], 'a'), 'text[0].label: label must be one letter A-Z'],
    ['a two-letter label', mutated(['text', 0, 'label'], 'AB'), 'text[0].label: label must be one letter A-Z'],
    ['a colour outside the list', mutated(['text', 0, 'color'], '#000000'), 'text[0].color: color must be one of #FFE411'],
    ['hideLabel not boolean', mutated(['text', 0, 'hideLabel'], 'no'), 'text[0].hideLabel: hideLabel must be true or false'],
    ['an id not matching', mutated(['ruler', 0, 'id'], '3-ruler-B-#FFE411'), 'ruler[0].id: id "3-ruler-B-#FFE411" must be "3-ruler-A-#FFE411"'],
    ['an id of another type', mutated(['area', 0, 'id'], '3-ruler-B-#FF8E2B'), 'area[0].id: id "3-ruler-B-#FF8E2B" must be "3-area-B-#FF8E2B"'],
    ['a duplicate id', mutated(['ruler', 1], sample().ruler[0]), 'ruler[1].id: duplicate id "3-ruler-A-#FFE411"'],
    ['a text too long', mutated(['text', 0, 'text'], 'x'.repeat(MAX_TEXT_LENGTH + 1)), `text[0].text: text is longer than ${MAX_TEXT_LENGTH} characters`],
    ['a negative arc radius', mutated(['angle', 0, 'arc', 'radius'], -1), 'angle[0].arc.radius: radius must not be negative'],
    ['an angle point missing', mutated(['angle', 0, 'angle', 'startControl'], DELETE), 'angle[0].angle.startControl: missing'],
    ['too many area points', mutated(['area', 0, 'points'], circle({ x: 0, y: 0 }, 10, MAX_AREA_POINTS + 1)), `area[0].points: an area has at most ${MAX_AREA_POINTS} points`],
    ['a negative lastAnnotationSlice', mutated(['lastAnnotationSlice'], -1), 'lastAnnotationSlice: lastAnnotationSlice must be 0 (none)'],
  ])('rejects %s', (_, json, problem) => {
    const result = parseManifest(json);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.some((p) => p.startsWith(problem)), result.problems.join('\n')).toBe(true);
  });

  it('accepts text of exactly the maximum length and an area of exactly the maximum points', () => {
    const m = sample();
    m.text[0]!.text = 'x'.repeat(MAX_TEXT_LENGTH);
    m.area[0]!.points = circle({ x: 0, y: 0 }, 10, MAX_AREA_POINTS);
    expect(parseManifest(viaJson(m)).ok).toBe(true);
  });

  it('rejects Infinity and NaN coordinates (when parsed from objects)', () => {
    for (const bad of [Infinity, -Infinity, NaN]) {
      const m = sample();
      m.ruler[0]!.startX = bad;
      expect(parseManifest(m)).toEqual({ ok: false, problems: ['ruler[0].startX: expected a finite number'] });
    }
  });

  it(`rejects more than ${MAX_ANNOTATIONS} annotations in total`, () => {
    const m = emptyManifest();
    const half = MAX_ANNOTATIONS / 2;
    const texts = Array.from({ length: half }, (_, i) => text({ x: 1, y: 1 }, '', { slice: i + 1 }));
    const rulers = Array.from({ length: half }, (_, i) => ruler({ x: 1, y: 1 }, { x: 2, y: 2 }, { slice: i + 1 }));
    expect(parseManifest({ ...m, text: texts, ruler: rulers }).ok).toBe(true);
    const result = parseManifest({ ...m, text: texts, ruler: [...rulers, ruler({ x: 1, y: 1 }, { x: 2, y: 2 }, { slice: half + 1 })] });
    expect(result).toEqual({ ok: false, problems: [`manifest: ${MAX_ANNOTATIONS + 1} annotations, more than the ${MAX_ANNOTATIONS} allowed`] });
  });

  it('reports a bounded number of problems', () => {
    const rulers = Array.from({ length: 200 }, (_, i) => ({ ...ruler({ x: 1, y: 1 }, { x: 2, y: 2 }, { slice: i + 1 }), startX: 'x' }));
    const result = parseManifest({ ...emptyManifest(), ruler: rulers });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems).toHaveLength(51);
      expect(result.problems.at(-1)).toBe('... and 150 more problems');
    }
  });

  it('the schema strips nothing: a parsed manifest has exactly the spec fields', () => {
    const parsed = AnnotationManifestSchema.parse(viaJson(sample()));
    expect(Object.keys(parsed.ruler[0]!).sort()).toEqual(['color', 'endX', 'endY', 'hideLabel', 'id', 'label', 'slice', 'startX', 'startY']);
    expect(Object.keys(parsed.angle[0]!.angle).sort()).toEqual(
      ['endAngle', 'endControl', 'endIntersect', 'origin', 'startAngle', 'startControl', 'startIntersect'],
    );
    expect(Object.keys(parsed.angle[0]!.arc).sort()).toEqual(['counterClockwise', 'endAngle', 'origin', 'radius', 'startAngle']);
  });
});

describe('formatIssuePath', () => {
  it.each<[PropertyKey[], string]>([
    [[], 'manifest'],
    [['ruler', 2, 'startX'], 'ruler[2].startX'],
    [['angle', 0, 'arc', 'origin', 'x'], 'angle[0].arc.origin.x'],
    [['area', 1, 'points', 7], 'area[1].points[7]'],
  ])('%j → %s', (path, expected) => expect(formatIssuePath(path)).toBe(expected));
});

describe('checkManifestAgainstImage', () => {
  const bounds = { sliceCount: 10, width: 512, height: 400 };

  it('finds nothing wrong with annotations inside the record and the image', () => {
    expect(checkManifestAgainstImage(sample(), bounds)).toEqual([]);
    expect(checkManifestAgainstImage(emptyManifest(), bounds)).toEqual([]);
  });

  it.each<[string, (m: AnnotationManifest) => void, string[]]>([
    ['a slice beyond the record', (m) => (m.text[0]!.slice = 11), ["text[0].slice: slice 11 is beyond the record's 10 slices"]],
    ['the last slice itself', (m) => (m.text[0]!.slice = 10), []],
    ['x just inside the limits', (m) => ((m.ruler[0]!.startX = -512), (m.ruler[0]!.endX = 1024)), []],
    ['x below -width', (m) => (m.ruler[0]!.startX = -512.5), ['ruler[0].start: (-512.5, 20) is far outside the 512 x 400 image']],
    ['y beyond 2 * height', (m) => (m.ruler[0]!.endY = 801), ['ruler[0].end: (110, 801) is far outside the 512 x 400 image']],
    ['an area point far outside', (m) => (m.area[0]!.points = [{ x: 5000, y: 0 }]), ['area[0].points[0]: (5000, 0) is far outside the 512 x 400 image']],
    ['a text origin far outside', (m) => (m.text[0]!.origin = { x: 0, y: -401 }), ['text[0].origin: (0, -401) is far outside the 512 x 400 image']],
    ['an angle arm far outside', (m) => (m.angle[0]!.angle.endControl = { x: 2000, y: 0 }), ['angle[0].angle.endControl: (2000, 0) is far outside the 512 x 400 image']],
    ['lastAnnotationSlice beyond the record', (m) => (m.lastAnnotationSlice = 11), ["lastAnnotationSlice: slice 11 is beyond the record's 10 slices"]],
    ['lastAnnotationSlice 0 (none)', (m) => (m.lastAnnotationSlice = 0), []],
  ])('%s', (_, change, problems) => {
    const m = sample();
    change(m);
    expect(checkManifestAgainstImage(m, bounds)).toEqual(problems);
  });

  it('reports one problem per annotation for its points, and a bounded number overall', () => {
    const far = Array.from({ length: 60 }, (_, i) => ruler({ x: -9999, y: -9999 }, { x: 9999, y: 9999 }, { slice: i + 1 }));
    const problems = checkManifestAgainstImage({ ...emptyManifest(), ruler: far }, { sliceCount: 100, width: 10, height: 10 });
    expect(problems).toHaveLength(51);
    expect(problems[0]).toBe('ruler[0].start: (-9999, -9999) is far outside the 10 x 10 image');
    expect(problems.at(-1)).toBe('... and 10 more problems');
  });
});
