import type { ReactNode } from 'react';
import { annotationHandles } from '../../../domain/annotations/hit-test.ts';
import { smoothClosedCurveSvgPath } from '../../../domain/annotations/curves.ts';
import type { AnnotationOf } from '../../../domain/annotations/kinds/annotation-kind.ts';
import { kindOf } from '../../../domain/annotations/kinds/index.ts';
import type { AnnotationType, Point, TypedAnnotation } from '../../../domain/annotations/manifest.ts';
import { imageToScreen as toScreen, type ViewTransform } from '../view/view-transform.ts';
import type { HandleCircle } from './label-placement.ts';

const HANDLE_RADIUS_PX = 4;
const HANDLE_STROKE_PX = 1.5;
const STROKE_PX = 1.5;
const SELECTED_STROKE_PX = 2.5;

function arcPath(t: ViewTransform, annotation: AnnotationOf<'angle'>): string {
  const { arc } = annotation;
  const center = toScreen(t, arc.origin);
  const radius = arc.radius * t.scaleX;
  const at = (angle: number) => ({ x: center.x + radius * Math.cos(angle), y: center.y + radius * Math.sin(angle) });
  const from = at(arc.startAngle);
  const to = at(arc.endAngle);
  // Sweep through the angle between the arms (always under a half turn).
  let sweep = arc.endAngle - arc.startAngle;
  while (sweep <= -Math.PI) sweep += 2 * Math.PI;
  while (sweep > Math.PI) sweep -= 2 * Math.PI;
  return `M ${from.x} ${from.y} A ${radius} ${radius} 0 0 ${sweep > 0 ? 1 : 0} ${to.x} ${to.y}`;
}

type BodyProps<A extends TypedAnnotation> = { annotation: A; t: ViewTransform; width: number };

function RulerBody({ annotation, t, width }: BodyProps<AnnotationOf<'ruler'>>) {
  const a = toScreen(t, { x: annotation.startX, y: annotation.startY });
  const b = toScreen(t, { x: annotation.endX, y: annotation.endY });
  return <line x1={a.x} y1={a.y} x2={b.x} y2={b.y} stroke={annotation.color} strokeWidth={width} />;
}

function AreaBody({ annotation, t, width }: BodyProps<AnnotationOf<'area'>>) {
  const stroke = annotation.color;
  return annotation.controlPoints.length >= 3 ? (
    <path d={smoothClosedCurveSvgPath(annotation.controlPoints.map((p) => toScreen(t, p)))} fill={stroke} fillOpacity={0.08} stroke={stroke} strokeWidth={width} />
  ) : null;
}

function AngleBody({ annotation, t, width }: BodyProps<AnnotationOf<'angle'>>) {
  const stroke = annotation.color;
  const { origin, startControl, endControl } = annotation.angle;
  const o = toScreen(t, origin);
  const s = toScreen(t, startControl);
  const e = toScreen(t, endControl);
  return (
    <>
      <polyline points={`${s.x},${s.y} ${o.x},${o.y} ${e.x},${e.y}`} fill="none" stroke={stroke} strokeWidth={width} />
      <path d={arcPath(t, annotation)} fill="none" stroke={stroke} strokeWidth={width} strokeDasharray="4 3" />
    </>
  );
}

function TextBody({ annotation, t }: BodyProps<AnnotationOf<'text'>>) {
  const o = toScreen(t, annotation.origin);
  return <circle cx={o.x} cy={o.y} r={HANDLE_RADIUS_PX} fill={annotation.color} stroke="black" strokeWidth={1} />;
}

/**
 * How each kind is drawn: here, since the domain's kinds know no React. The mapped type makes a new
 * kind a compile error until it is drawn.
 */
const BODIES: { readonly [T in AnnotationType]: (props: BodyProps<AnnotationOf<T>>) => ReactNode } = {
  ruler: RulerBody,
  area: AreaBody,
  angle: AngleBody,
  text: TextBody,
};

function Body(props: BodyProps<TypedAnnotation>) {
  // BODIES is keyed by `type`, so the body looked up is always the one for this annotation's kind.
  const KindBody = BODIES[props.annotation.type] as (props: BodyProps<TypedAnnotation>) => ReactNode;
  return <KindBody {...props} />;
}

/** One annotation in screen space: its body, and its draggable handles. */
export function AnnotationShape({ annotation, transform, selected, draft = false }: { annotation: TypedAnnotation; transform: ViewTransform; selected: boolean; draft?: boolean }) {
  return (
    <g data-annotation-id={draft ? undefined : annotation.id} data-annotation-type={annotation.type} data-selected={selected || undefined} opacity={draft ? 0.85 : 1}>
      <Body annotation={annotation} t={transform} width={selected ? SELECTED_STROKE_PX : STROKE_PX} />
      {annotationHandles(annotation).map(({ handle, point }) => {
        const p = toScreen(transform, point);
        return (
          <circle
            key={handle}
            data-handle={handle}
            cx={p.x}
            cy={p.y}
            r={selected ? HANDLE_RADIUS_PX + 1 : HANDLE_RADIUS_PX}
            fill={selected ? annotation.color : 'black'}
            stroke={annotation.color}
            strokeWidth={HANDLE_STROKE_PX}
          />
        );
      })}
    </g>
  );
}

/** Where an annotation's card sits (screen pixels): beside its end, its right-most point, its vertex or its note. */
export function cardAnchor(annotation: TypedAnnotation, t: ViewTransform): Point {
  return toScreen(t, kindOf(annotation).anchor(annotation));
}

/** Every handle of these annotations as drawn on screen, at its largest (selected, with its stroke): what a card must not cover. */
export function handleCircles(annotations: readonly TypedAnnotation[], t: ViewTransform): HandleCircle[] {
  const radius = HANDLE_RADIUS_PX + 1 + HANDLE_STROKE_PX / 2;
  return annotations.flatMap((annotation) => annotationHandles(annotation).map(({ point }) => ({ ...toScreen(t, point), radius })));
}
