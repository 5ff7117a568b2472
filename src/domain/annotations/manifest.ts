/**
 * The annotation manifest of spec section 3, validated by one zod schema on both the browser (before
 * saving) and the server (before storing). Coordinates are image pixels (x right, y down), angles
 * are radians, slices are 1-based as in the review's slice indicator.
 */
import { z } from 'zod';
import { SLICE_COLORS } from '../constants.ts';
import { ANNOTATION_TYPES, annotationId, type AnnotationType } from './annotation-id.ts';

export { ANNOTATION_TYPES, annotationId, type AnnotationType } from './annotation-id.ts';

/** At most this many annotations (all kinds together) in one manifest. */
export const MAX_ANNOTATIONS = 10_000;
/** At most this many points in one area's `points` (and in its `controlPoints`). */
export const MAX_AREA_POINTS = 2_000;
/** At most this many characters in one text note. */
export const MAX_TEXT_LENGTH = 2_000;
/** parseManifest and checkManifestAgainstImage report at most this many problems. */
const MAX_REPORTED_PROBLEMS = 50;

import { expected, finite, PointSchema, strict, type Point } from './point.ts';
import { ContourSetSchema } from './contour-set.ts';
import { StentBorderCorrectionsSchema } from './stent-corrections.ts';
import { CalciumArcCorrectionsSchema } from './calcium-arcs.ts';
import { StentReferenceSlicesSchema, stentReferenceProblems } from './stent-reference-slices.ts';

export { type Point } from './point.ts';

const sliceSchema = z
  .number({ error: expected('expected a slice number') })
  .int({ error: 'slice must be a whole number' })
  .min(1, { error: 'slice must be 1 or more (slices are 1-based)' });
const labelSchema = z.string({ error: expected('expected a label') }).regex(/^[A-Z]$/, { error: 'label must be one letter A-Z' });
const colorSchema = z.enum(SLICE_COLORS, { error: expected(`color must be one of ${SLICE_COLORS.join(', ')}`) });
const hideLabelSchema = z.boolean({ error: expected('hideLabel must be true or false') });

const common = {
  id: z.string({ error: expected('expected an id string') }),
  slice: sliceSchema,
  color: colorSchema,
  label: labelSchema,
  hideLabel: hideLabelSchema,
};

type Identified = { id: string; slice: number; label: string; color: string };

/** Refinement: the id must be `slice-type-label-color` of the annotation's own fields. */
function idMatches(type: AnnotationType) {
  return (annotation: Identified, ctx: z.RefinementCtx) => {
    const expected = annotationId(annotation.slice, type, annotation.label, annotation.color);
    if (annotation.id !== expected) {
      ctx.addIssue({
        code: 'custom',
        path: ['id'],
        message: `id "${annotation.id}" must be "${expected}" (slice-type-label-color)`,
      });
    }
  };
}

const RulerAnnotationSchema = strict({
  ...common,
  startX: finite(),
  startY: finite(),
  endX: finite(),
  endY: finite(),
}).superRefine(idMatches('ruler'));

const pointList = (name: string) =>
  z.array(PointSchema, { error: expected(`${name} must be a list of points`) }).max(MAX_AREA_POINTS, {
    error: `an area has at most ${MAX_AREA_POINTS} ${name}`,
  });

const AreaAnnotationSchema = strict({
  ...common,
  points: pointList('points'),
  controlPoints: pointList('controlPoints'),
}).superRefine(idMatches('area'));

const TextAnnotationSchema = strict({
  ...common,
  text: z
    .string({ error: expected('text must be a string') })
    .max(MAX_TEXT_LENGTH, { error: `text is longer than ${MAX_TEXT_LENGTH} characters` }),
  origin: PointSchema,
}).superRefine(idMatches('text'));

const AngleGeometrySchema = strict({
  origin: PointSchema,
  startAngle: finite(),
  endAngle: finite(),
  startIntersect: PointSchema,
  endIntersect: PointSchema,
  startControl: PointSchema,
  endControl: PointSchema,
});

const ArcSchema = strict({
  origin: PointSchema,
  radius: finite().min(0, { error: 'radius must not be negative' }),
  counterClockwise: z.boolean({ error: expected('counterClockwise must be true or false') }),
  startAngle: finite(),
  endAngle: finite(),
});

export const AngleAnnotationSchema = strict({
  ...common,
  angle: AngleGeometrySchema,
  arc: ArcSchema,
}).superRefine(idMatches('angle'));

const annotationList = <T extends z.ZodType>(schema: T, name: string) =>
  z
    .array(schema, { error: expected(`${name} must be a list`) })
    .max(MAX_ANNOTATIONS, { error: `more than ${MAX_ANNOTATIONS} ${name} annotations` });

export const AnnotationManifestSchema = strict({
  ruler: annotationList(RulerAnnotationSchema, 'ruler'),
  area: annotationList(AreaAnnotationSchema, 'area'),
  text: annotationList(TextAnnotationSchema, 'text'),
  angle: annotationList(AngleAnnotationSchema, 'angle'),
  lastAnnotationSlice: z
    .number({ error: expected('expected a slice number') })
    .int({ error: 'lastAnnotationSlice must be a whole number' })
    .min(0, { error: 'lastAnnotationSlice must be 0 (none) or a slice number' }),
  /**
   * The contour set (issues 9 and 15): the clinician's corrected lumen and vessel contours, at most
   * one per slice and border. Optional, so manifests saved before contours existed stay valid; a
   * contour without `border` is a lumen contour, as every contour saved before issue 15 is.
   */
  contours: ContourSetSchema.optional(),
  /** Issue 28: the stent borders corrected by hand, at most one per slice (stent-corrections.ts). Optional, as `contours`. */
  stentBorders: StentBorderCorrectionsSchema.optional(),
  /** Calcium arcs set by hand (issue 28, calcium-arcs.ts): optional, as the contours. */
  calcium: CalciumArcCorrectionsSchema.optional(),
  /** The stent's references moved by hand (issue 28, stent-reference-slices.ts): optional, as the contours. */
  stentReferences: StentReferenceSlicesSchema.optional(),
}).superRefine((manifest, ctx) => {
  const total = manifest.ruler.length + manifest.area.length + manifest.text.length + manifest.angle.length;
  if (total > MAX_ANNOTATIONS) {
    ctx.addIssue({ code: 'custom', path: [], message: `${total} annotations, more than the ${MAX_ANNOTATIONS} allowed` });
  }
  const seen = new Set<string>();
  for (const type of ANNOTATION_TYPES) {
    manifest[type].forEach((annotation, index) => {
      if (seen.has(annotation.id)) {
        ctx.addIssue({ code: 'custom', path: [type, index, 'id'], message: `duplicate id "${annotation.id}"` });
      }
      seen.add(annotation.id);
    });
  }
});

export type RulerAnnotation = z.infer<typeof RulerAnnotationSchema>;
export type AreaAnnotation = z.infer<typeof AreaAnnotationSchema>;
export type TextAnnotation = z.infer<typeof TextAnnotationSchema>;
export type AngleAnnotation = z.infer<typeof AngleAnnotationSchema>;
export type AngleGeometry = z.infer<typeof AngleGeometrySchema>;
export type Arc = z.infer<typeof ArcSchema>;
export type AnnotationManifest = z.infer<typeof AnnotationManifestSchema>;

/** An annotation as stored in the manifest's lists (no `type` field; the list says the kind). */
export type ManifestAnnotation = RulerAnnotation | AreaAnnotation | TextAnnotation | AngleAnnotation;

/** An annotation with its kind attached, for the UI (tools, hit testing, cards). */
export type TypedAnnotation =
  | ({ type: 'ruler' } & RulerAnnotation)
  | ({ type: 'area' } & AreaAnnotation)
  | ({ type: 'text' } & TextAnnotation)
  | ({ type: 'angle' } & AngleAnnotation);

export function emptyManifest(): AnnotationManifest {
  return { ruler: [], area: [], text: [], angle: [], lastAnnotationSlice: 0 };
}

/** `['ruler', 2, 'startX']` → `ruler[2].startX`; the root → `manifest`. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text === '' ? 'manifest' : text;
}

export type ParseManifestResult = { ok: true; manifest: AnnotationManifest } | { ok: false; problems: string[] };

/** Validates untrusted JSON; problems read like `ruler[2].startX: expected a finite number`. */
export function parseManifest(json: unknown): ParseManifestResult {
  const result = AnnotationManifestSchema.safeParse(json);
  if (result.success) return { ok: true, manifest: result.data };
  const issues = result.error.issues;
  const problems = issues.slice(0, MAX_REPORTED_PROBLEMS).map((issue) => `${formatIssuePath(issue.path)}: ${issue.message}`);
  if (issues.length > MAX_REPORTED_PROBLEMS) problems.push(`... and ${issues.length - MAX_REPORTED_PROBLEMS} more problems`);
  return { ok: false, problems };
}

export type ImageBounds = { sliceCount: number; width: number; height: number };

/** An entry of the manifest's list of `type`. */
type EntryOf<T extends AnnotationType> = AnnotationManifest[T][number];

/**
 * Every stored point of an entry, named by its field as in schema messages, one function per kind.
 * It belongs to the stored format rather than to kinds/ (which depends on this module): it names the
 * fields, the derived ones (an area's `points`, an angle's intersects and arc) included.
 */
const NAMED_POINTS: { readonly [T in AnnotationType]: (annotation: EntryOf<T>) => [string, Point][] } = {
  ruler: (ruler) => [
    ['start', { x: ruler.startX, y: ruler.startY }],
    ['end', { x: ruler.endX, y: ruler.endY }],
  ],
  area: (area) => [
    ...area.points.map((p, i): [string, Point] => [`points[${i}]`, p]),
    ...area.controlPoints.map((p, i): [string, Point] => [`controlPoints[${i}]`, p]),
  ],
  text: (text) => [['origin', text.origin]],
  angle: ({ angle, arc }) => [
    ['angle.origin', angle.origin],
    ['angle.startIntersect', angle.startIntersect],
    ['angle.endIntersect', angle.endIntersect],
    ['angle.startControl', angle.startControl],
    ['angle.endControl', angle.endControl],
    ['arc.origin', arc.origin],
  ],
};

/**
 * Checks a schema-valid manifest against the record it belongs to: slices beyond the record, points
 * more than one image size outside the image (x < -width or x > 2 * width, likewise y), and a
 * lastAnnotationSlice beyond the record (0 means none). Returns readable problems; [] is fine.
 */
export function checkManifestAgainstImage(manifest: AnnotationManifest, bounds: ImageBounds): string[] {
  const { sliceCount, width, height } = bounds;
  const problems: string[] = [];
  let total = 0;
  const report = (problem: string) => {
    total++;
    if (problems.length < MAX_REPORTED_PROBLEMS) problems.push(problem);
  };
  const outside = (p: Point) => p.x < -width || p.x > 2 * width || p.y < -height || p.y > 2 * height;
  const checkList = <T extends AnnotationType>(type: T) => {
    const list: readonly EntryOf<T>[] = manifest[type];
    const namedPoints = NAMED_POINTS[type];
    list.forEach((annotation, index) => {
      const where = `${type}[${index}]`;
      if (annotation.slice > sliceCount) {
        report(`${where}.slice: slice ${annotation.slice} is beyond the record's ${sliceCount} slices`);
      }
      const far = namedPoints(annotation).find(([, point]) => outside(point));
      if (far) {
        const [name, point] = far;
        report(
          `${where}.${name}: (${point.x}, ${point.y}) is far outside the ${width} x ${height} image`,
        );
      }
    });
  };
  for (const type of ANNOTATION_TYPES) checkList(type);
  (manifest.contours ?? []).forEach((contour, index) => {
    if (contour.slice > sliceCount) report(`contours[${index}].slice: slice ${contour.slice} is beyond the record's ${sliceCount} slices`);
    const far = contour.controlPoints.find(outside);
    if (far) report(`contours[${index}].controlPoints: (${far.x}, ${far.y}) is far outside the ${width} x ${height} image`);
  });
  (manifest.stentBorders ?? []).forEach((correction, index) => {
    if (correction.slice > sliceCount) report(`stentBorders[${index}].slice: slice ${correction.slice} is beyond the record's ${sliceCount} slices`);
    const far = correction.controlPoints.find(outside);
    if (far) report(`stentBorders[${index}].controlPoints: (${far.x}, ${far.y}) is far outside the ${width} x ${height} image`);
  });
  (manifest.calcium ?? []).forEach((arc, index) => {
    if (arc.slice > sliceCount) report(`calcium[${index}].slice: slice ${arc.slice} is beyond the record's ${sliceCount} slices`);
  });
  stentReferenceProblems(manifest.stentReferences, sliceCount).forEach(report);
  if (manifest.lastAnnotationSlice > sliceCount) {
    report(`lastAnnotationSlice: slice ${manifest.lastAnnotationSlice} is beyond the record's ${sliceCount} slices`);
  }
  if (total > problems.length) problems.push(`... and ${total - problems.length} more problems`);
  return problems;
}
