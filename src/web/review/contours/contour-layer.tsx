import { useSelector } from '@xstate/react';
import { useLayoutEffect, useRef, useState, useSyncExternalStore, type PointerEvent as ReactPointerEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import { smoothClosedCurveSvgPath } from '../../../domain/annotations/curves.ts';
import type { Point } from '../../../domain/annotations/manifest.ts';
import type { ContourBorder } from '../../../domain/annotations/contour-set.ts';
import { findStentCorrection, removeStentCorrection, setStentCorrection, type EditableBorder } from '../../../domain/annotations/stent-corrections.ts';
import { withCorrection, type SliceMeasurement } from '../../../domain/contours/corrected-analysis.ts';
import { measuredOutline, polygonCentroid } from '../../../domain/contours/measurements.ts';
import type { AnnotationStore } from '../manifest/annotation-store.ts';
import type { annotationToolMachine } from '../tools/annotation-tool.machine.ts';
import { imageToScreen, type Size, type ViewTransform } from '../view/view-transform.ts';
import { useBordersShown } from './borders-visibility.ts';
import { ContourCard } from './contour-card.tsx';
import { FrameReadout, READOUT_LAYOUTS } from './frame-readout.tsx';
import { BORDERS, DRAW_ORDER, fieldOfViewOnScreen } from './read-only-borders.tsx';
import { useFrameBoxes, usePublishedBox } from './frame-boxes.ts';
import { frameObstacles } from './readout-placement.ts';
import { scaleBarRect } from './scale-bar.tsx';
import { usePlacedBox } from './use-placed-box.ts';
import { editableStent, StentBorderHandles, StentCardLine, startingStentBorder } from './stent-border-edit.tsx';

/** A control point's circle; with its 1.5 px stroke, what the annotation cards keep clear of. */
export const CONTOUR_HANDLE_RADIUS_PX = 4;
export const CONTOUR_HANDLE_STROKE_PX = 1.5;

export interface ContourLayerProps {
  /** The slice's borders (manual where corrected, automatic otherwise), or null while none is known. */
  measurement: SliceMeasurement | null;
  /** Why there are no borders yet (detection under way, failed). */
  pending: string | null;
  slice: number;
  store: AnnotationStore;
  /** The tool statechart, which turns a press on a control point into a click or a drag. */
  tool: ActorRefFrom<typeof annotationToolMachine>;
  onPointDown: (border: EditableBorder, controlPoints: readonly Point[], index: number, event: ReactPointerEvent) => void;
  transform: ViewTransform;
  pixelSpacingMm: number;
  /** The B-mode frame's size in image pixels: a border drawn on a slice without one starts at its centre. */
  frameSize: Size;
  /** Issue 28: the stent has been read (its border can then be corrected here on every slice)... */
  stentRead?: boolean | undefined;
  /** ...and the slice's fitted stent border (harmonic coefficients, mm), null where its struts gave none. */
  stentBorder?: readonly number[] | null | undefined;
}

/** A border placed by Draw starts as a circle of this many control points... */
const STARTING_POINTS = 8;
/** ...of about a coronary lumen's or vessel's radius (mm), for the clinician to drag into place. */
const STARTING_RADIUS_MM: Record<ContourBorder, number> = { lumen: 1.5, vessel: 2.5 };

/**
 * The border Draw places on a slice without one: a circle round the other border's centroid if the
 * slice has that one (the vessel goes round a drawn lumen), else round the frame's centre (the catheter).
 */
export function startingBorder(border: ContourBorder, measurement: SliceMeasurement | null, frameSize: Size, pixelSpacingMm: number): Point[] {
  const other = border === 'lumen' ? measurement?.vessel?.controlPoints : measurement?.controlPoints;
  const centre = other && other.length >= 3 ? polygonCentroid(measuredOutline(other)) : { x: frameSize.width / 2, y: frameSize.height / 2 };
  // Never larger than the frame: a small field of view still gets a border inside it.
  const radius = Math.min(STARTING_RADIUS_MM[border] / pixelSpacingMm, 0.4 * Math.min(frameSize.width, frameSize.height));
  return Array.from({ length: STARTING_POINTS }, (_, i) => {
    const angle = (2 * Math.PI * i) / STARTING_POINTS;
    return { x: centre.x + radius * Math.cos(angle), y: centre.y + radius * Math.sin(angle) };
  });
}

/** The panel's size in CSS pixels, from an element that fills it. */
function usePanelSize(ref: React.RefObject<Element | null>): Size {
  const [size, setSize] = useState<Size>({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const { width, height } = element.getBoundingClientRect();
      setSize((current) => (current.width === width && current.height === height ? current : { width, height }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}

/**
 * The contour tool (issues 9 and 15): the slice's lumen border in #9cc5c6 and its vessel border
 * (external elastic membrane) in VESSEL_CONTOUR_COLOR, each with its control points. Dragging a
 * point makes that border of the slice a manual correction (one undo step, saved with the
 * annotations); the card's Re-detect drops a border's correction and the automatic one shows again.
 * The frame's figures are in the frame readout (live while a point is dragged), and the readout and
 * the card each take a corner of the panel clear of the borders and their handles (issue 26). The
 * borders' switch hides them here as with every other tool.
 */
export function ContourLayer({ measurement, pending, slice, store, tool, onPointDown, transform, pixelSpacingMm, frameSize, stentRead = false, stentBorder = null }: ContourLayerProps) {
  // A press within the drag threshold is a click: the contour shows as it is, and nothing is stored.
  const drag = useSelector(tool, (state) => (state.matches('contouring') ? state.context.contour : null));
  const shown = useBordersShown();
  // While dragging, the borders and the readout show the contour under the pointer.
  const live = measurement && drag && drag.border !== 'stent' ? withCorrection(measurement, drag.border, drag.points, pixelSpacingMm) : measurement;
  // The stent border (issue 28): the clinician's where corrected, else the fitted one; live while one of its points is dragged.
  const stentCorrection = useSyncExternalStore(store.subscribe, () => findStentCorrection(store.getSnapshot().manifest, slice));
  const storedStent = stentRead || stentCorrection !== null ? editableStent(stentCorrection, stentBorder, frameSize, pixelSpacingMm) : null;
  const liveStent = drag?.border === 'stent' && storedStent ? { ...storedStent, points: drag.points } : storedStent;
  const stentScreen = (liveStent?.points ?? []).map((p) => imageToScreen(transform, p));
  const pointsOf = (border: ContourBorder): readonly Point[] => (live ? (border === 'lumen' ? live.controlPoints : (live.vessel?.controlPoints ?? [])) : []);
  const screenOf = (border: ContourBorder) => pointsOf(border).map((p) => imageToScreen(transform, p));
  const screen = { lumen: screenOf('lumen'), vessel: screenOf('vessel') };

  const svgRef = useRef<SVGSVGElement>(null);
  const panel = usePanelSize(svgRef);
  // The borders of the stored slice, not the live ones: the boxes stay put while a point is dragged.
  const storedScreen = [...(measurement ? [measurement.controlPoints, measurement.vessel?.controlPoints ?? []] : []), storedStent?.points ?? []].map((points) => points.map((p) => imageToScreen(transform, p)));
  const cutHandle = useFrameBoxes()['cut-handle'];
  const obstacles = frameObstacles(storedScreen, fieldOfViewOnScreen(transform, frameSize), [scaleBarRect(panel), ...(cutHandle ? [cutHandle] : [])]);
  const { ref: readoutRef, placement: readoutPlace, layout: readoutLayout } = usePlacedBox(panel, obstacles, READOUT_LAYOUTS);
  const { ref: cardRef, placement: cardPlace } = usePlacedBox(panel, { ...obstacles, rects: [...obstacles.rects, readoutPlace.rect] }, ['card']);
  // The annotation cards keep clear of both (label-cards.tsx).
  usePublishedBox('contour-readout', readoutPlace.rect);
  usePublishedBox('contour-card', cardPlace.rect);

  const onHandleDown = (border: ContourBorder, index: number) => (event: ReactPointerEvent<SVGCircleElement>) => {
    const points = pointsOf(border);
    if (points.length > 0) onPointDown(border, points, index, event);
  };

  return (
    <>
      <svg
        ref={svgRef}
        data-testid="contour-layer"
        data-slice={slice}
        data-source={live?.source}
        data-vessel-source={live?.vessel?.source}
        data-no-border={live?.noBorder || undefined}
        data-borders-shown={shown}
        width="100%"
        height="100%"
        style={{ position: 'absolute', inset: 0, pointerEvents: 'auto' }}
      >
        {shown
          ? DRAW_ORDER.map((border) => {
              const { color, pathTestId, pointTestId, name } = BORDERS[border];
              const points = screen[border];
              return (
                <g key={border} data-border={border}>
                  {points.length >= 3 ? <path data-testid={pathTestId} d={smoothClosedCurveSvgPath(points)} fill="none" stroke={color} strokeWidth={2} /> : null}
                  {points.map((p, index) => (
                    <circle
                      key={index}
                      data-testid={pointTestId}
                      // A named graphic: aria-label alone is not allowed on an SVG circle (axe, aria-prohibited-attr).
                      role="img"
                      aria-label={`${name} control point ${index + 1}`}
                      cx={p.x}
                      cy={p.y}
                      r={CONTOUR_HANDLE_RADIUS_PX}
                      fill={drag?.border === border && drag.index === index ? color : 'black'}
                      stroke={color}
                      strokeWidth={CONTOUR_HANDLE_STROKE_PX}
                      style={{ cursor: 'grab' }}
                      onPointerDown={onHandleDown(border, index)}
                    />
                  ))}
                </g>
              );
            })
          : null}
        {shown && liveStent ? (
          <StentBorderHandles
            screen={stentScreen}
            dragged={drag?.border === 'stent' ? drag.index : null}
            handleRadius={CONTOUR_HANDLE_RADIUS_PX}
            handleStroke={CONTOUR_HANDLE_STROKE_PX}
            onPointDown={(index, event) => onPointDown('stent', liveStent.points, index, event)}
          />
        ) : null}
      </svg>
      <FrameReadout ref={readoutRef} measurement={live} pending={pending} at={readoutPlace.rect} layout={readoutLayout} />
      <ContourCard
        ref={cardRef}
        measurement={live}
        dragging={drag !== null}
        pending={pending}
        slice={slice}
        store={store}
        at={cardPlace.rect}
        startingBorder={(border) => startingBorder(border, live, frameSize, pixelSpacingMm)}
        stentLine={
          stentRead || liveStent ? (
            <StentCardLine
              stent={liveStent}
              pixelSpacingMm={pixelSpacingMm}
              dragging={drag !== null}
              onDraw={() => store.commit(setStentCorrection(store.getSnapshot().history.present, slice, startingStentBorder(live?.controlPoints ?? [], frameSize, pixelSpacingMm)))}
              onRedetect={() => store.commit(removeStentCorrection(store.getSnapshot().history.present, slice))}
            />
          ) : null
        }
      />
    </>
  );
}
