/**
 * The stent border in the contour tool (issue 28): once the stent is read, the slice's stent border
 * shows with control points beside the lumen and vessel borders, and is corrected the same way: a
 * drag on a point (Escape cancels it, Ctrl+Z undoes it) stores the slice's stent border as drawn in
 * the annotations (stent-corrections.ts), the card says where it came from, Re-detect drops the
 * correction, and Draw places one on a stented slice whose struts gave none.
 */
import { Button, HStack, Text } from '@chakra-ui/react';
import type { PointerEvent as ReactPointerEvent } from 'react';
import { smoothClosedCurveSvgPath } from '../../../domain/annotations/curves.ts';
import type { Point } from '../../../domain/annotations/manifest.ts';
import type { StentBorderCorrection } from '../../../domain/annotations/stent-corrections.ts';
import { lumenAreaMm2 } from '../../../domain/contours/measurements.ts';
import type { Size } from '../view/view-transform.ts';
import { STENT_AREA_COLOR } from './pullback-plot.tsx';
import { stentBorderImagePoints } from './stent-border-overlay.tsx';

/** The fitted border is given this many control points to drag, as many as a detected lumen border has. */
export const STENT_EDIT_POINTS = 16;
/** A stent border placed by Draw on a slice without a lumen border: a circle of about a stented coronary's radius (mm). */
const STARTING_RADIUS_MM = 1.5;

export interface EditableStent {
  /** The control points shown, in image pixels. */
  readonly points: readonly Point[];
  /** 'manual': corrected by hand; 'auto': fitted through the struts. */
  readonly source: 'auto' | 'manual';
}

/** The slice's stent border to edit: the clinician's where corrected, else the fitted one as control points; null without either. */
export function editableStent(correction: StentBorderCorrection | null, fitted: readonly number[] | null, frameSize: Size, pixelSpacingMm: number): EditableStent | null {
  if (correction !== null) return { points: correction.controlPoints, source: 'manual' };
  if (fitted === null) return null;
  return { points: stentBorderImagePoints(fitted, frameSize, pixelSpacingMm, STENT_EDIT_POINTS), source: 'auto' };
}

/** What Draw places: the lumen border's points where the slice has one (a stent lies on the lumen wall), else a circle round the catheter. */
export function startingStentBorder(lumen: readonly Point[], frameSize: Size, pixelSpacingMm: number): Point[] {
  if (lumen.length >= 3) return lumen.map(({ x, y }) => ({ x, y }));
  const radius = Math.min(STARTING_RADIUS_MM / pixelSpacingMm, 0.4 * Math.min(frameSize.width, frameSize.height));
  return Array.from({ length: 8 }, (_, i) => {
    const angle = (2 * Math.PI * i) / 8;
    return { x: frameSize.width / 2 + radius * Math.cos(angle), y: frameSize.height / 2 + radius * Math.sin(angle) };
  });
}

export interface StentBorderHandlesProps {
  /** The points on screen. */
  screen: readonly Point[];
  /** The index of the point being dragged, or null. */
  dragged: number | null;
  handleRadius: number;
  handleStroke: number;
  onPointDown: (index: number, event: ReactPointerEvent<SVGCircleElement>) => void;
}

/** The stent border with its control points, dashed in the stent's colour (as on the frame outside the tool). */
export function StentBorderHandles({ screen, dragged, handleRadius, handleStroke, onPointDown }: StentBorderHandlesProps) {
  return (
    <g data-border="stent">
      {screen.length >= 3 ? <path data-testid="stent-contour" d={smoothClosedCurveSvgPath(screen)} fill="none" stroke={STENT_AREA_COLOR} strokeWidth={2} strokeDasharray="6 3" /> : null}
      {screen.map((p, index) => (
        <circle
          key={index}
          data-testid="stent-point"
          role="img"
          aria-label={`Stent border control point ${index + 1}`}
          cx={p.x}
          cy={p.y}
          r={handleRadius}
          fill={dragged === index ? STENT_AREA_COLOR : 'black'}
          stroke={STENT_AREA_COLOR}
          strokeWidth={handleStroke}
          style={{ cursor: 'grab' }}
          onPointerDown={(event) => onPointDown(index, event)}
        />
      ))}
    </g>
  );
}

const TWO = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export interface StentCardLineProps {
  /** The slice's stent border (live while a point is dragged), or null where the stented slice has none. */
  stent: EditableStent | null;
  pixelSpacingMm: number;
  dragging: boolean;
  onDraw: () => void;
  onRedetect: () => void;
}

/** The card's stent line: where the border came from and its area, or Draw where there is none; Re-detect for a corrected one. */
export function StentCardLine({ stent, pixelSpacingMm, dragging, onDraw, onRedetect }: StentCardLineProps) {
  return (
    <HStack gap="1" wrap="wrap" data-testid="stent-card-line">
      <Text as="span" fontWeight="bold" color={STENT_AREA_COLOR}>
        Stent
      </Text>
      {stent === null ? (
        <>
          <Text as="span">no border</Text>
          <Button size="xs" variant="outline" color="white" onClick={onDraw}>
            Draw stent
          </Button>
        </>
      ) : (
        <>
          <Text as="span" data-testid="stent-source">
            {stent.source === 'manual' ? 'corrected' : 'fitted'}
          </Text>
          <Text as="span" fontVariantNumeric="tabular-nums" data-testid="stent-area">
            {TWO.format(lumenAreaMm2(stent.points, pixelSpacingMm))} mm²
          </Text>
          {stent.source === 'manual' && !dragging ? (
            <Button size="xs" variant="outline" color="white" onClick={onRedetect}>
              Re-detect stent
            </Button>
          ) : null}
        </>
      )}
    </HStack>
  );
}
