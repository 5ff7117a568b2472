import { Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import type { PointerEvent as ReactPointerEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import { CONTOUR_COLOR } from '../../../domain/constants.ts';
import { removeManualContour } from '../../../domain/annotations/contour-edits.ts';
import { smoothClosedCurveSvgPath } from '../../../domain/annotations/curves.ts';
import type { Point } from '../../../domain/annotations/manifest.ts';
import type { SliceMeasurement } from '../../../domain/contours/corrected-analysis.ts';
import { eccentricity, measureContour } from '../../../domain/contours/measurements.ts';
import type { AnnotationStore } from '../annotations/annotation-store.ts';
import type { annotationToolMachine } from '../annotations/annotation-tool.machine.ts';
import { imageToScreen, type ViewTransform } from '../panels/view-transform.ts';

const HANDLE_RADIUS_PX = 4;

export interface ContourLayerProps {
  /** The slice's contour (manual when corrected, automatic otherwise), or null while none is known. */
  measurement: SliceMeasurement | null;
  /** Why there is no contour yet (detection under way, failed). */
  pending: string | null;
  slice: number;
  store: AnnotationStore;
  /** The tool statechart, which turns a press on a control point into a click or a drag. */
  tool: ActorRefFrom<typeof annotationToolMachine>;
  onPointDown: (controlPoints: readonly Point[], index: number, event: ReactPointerEvent) => void;
  transform: ViewTransform;
  pixelSpacingMm: number;
}

/**
 * The contour tool (issue 9): the slice's lumen contour in #9cc5c6 with its control points.
 * Dragging a point makes the slice's contour a manual correction (one undo step, saved with the
 * annotations); Re-detect drops the correction and the automatic contour shows again.
 */
export function ContourLayer({ measurement, pending, slice, store, tool, onPointDown, transform, pixelSpacingMm }: ContourLayerProps) {
  // A press within the drag threshold is a click: the contour shows as it is, and nothing is stored.
  const drag = useSelector(tool, (state) => (state.matches('contouring') ? state.context.contour : null));
  const points = drag?.points ?? measurement?.controlPoints ?? null;

  const onHandleDown = (index: number) => (event: ReactPointerEvent<SVGCircleElement>) => {
    if (points) onPointDown(points, index, event);
  };

  // While dragging, the card shows the measurement of the contour under the pointer.
  const live = drag ? measureContour(drag.points, pixelSpacingMm) : measurement;
  const source = drag ? 'manual' : measurement?.source;
  const screen = points?.map((p) => imageToScreen(transform, p)) ?? [];
  // The card hangs under the contour's lowest point, where it covers neither the lumen nor the panel's edge.
  const bottom = screen.reduce<Point | null>((best, p) => (!best || p.y > best.y ? p : best), null);

  return (
    <>
      <svg
        data-testid="contour-layer"
        data-slice={slice}
        data-source={source}
        width="100%"
        height="100%"
        style={{ position: 'absolute', inset: 0, pointerEvents: 'auto' }}
      >
        {screen.length >= 3 ? <path d={smoothClosedCurveSvgPath(screen)} fill="none" stroke={CONTOUR_COLOR} strokeWidth={2} /> : null}
        {screen.map((p, index) => (
          <circle
            key={index}
            data-testid="contour-point"
            cx={p.x}
            cy={p.y}
            r={HANDLE_RADIUS_PX}
            fill={drag?.index === index ? CONTOUR_COLOR : 'black'}
            stroke={CONTOUR_COLOR}
            strokeWidth={1.5}
            style={{ cursor: 'grab' }}
            onPointerDown={onHandleDown(index)}
          />
        ))}
      </svg>
      <Box
        position="absolute"
        left="0"
        top="0"
        transform={`translate(${(bottom?.x ?? transform.x + 40) - 70}px, ${(bottom?.y ?? transform.y + 40) + 12}px)`}
        pointerEvents="auto"
        onPointerDown={(event) => event.stopPropagation()}
        data-testid="contour-card"
        bg="rgba(0, 0, 0, 0.72)"
        color="white"
        rounded="l1"
        px="2"
        py="1"
        textStyle="xs"
        borderLeftWidth="3px"
        borderLeftColor={CONTOUR_COLOR}
      >
        {live ? (
          <Stack gap="0.5">
            <HStack gap="1">
              <Text as="span" fontWeight="bold" color={CONTOUR_COLOR}>
                Lumen
              </Text>
              <Text as="span" data-testid="contour-area" fontVariantNumeric="tabular-nums">
                {live.areaMm2.toFixed(2)}
              </Text>
              <Text as="span">mm²</Text>
              <Text as="span" opacity={0.7}>
                ({source === 'manual' ? 'corrected' : 'automatic'})
              </Text>
            </HStack>
            <Text as="span" fontVariantNumeric="tabular-nums" data-testid="contour-diameters">
              Ø {live.minDiameterMm.toFixed(2)}–{live.maxDiameterMm.toFixed(2)} mm · ecc. {eccentricity({ min: live.minDiameterMm, max: live.maxDiameterMm }).toFixed(2)}
            </Text>
            {source === 'manual' && !drag ? (
              <Button size="2xs" variant="outline" color="white" onClick={() => store.commit(removeManualContour(store.getSnapshot().history.present, slice))}>
                Re-detect
              </Button>
            ) : null}
          </Stack>
        ) : (
          <Text as="span">{pending ?? 'No contour on this slice.'}</Text>
        )}
      </Box>
    </>
  );
}
