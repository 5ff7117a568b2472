import { Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useState, type PointerEvent as ReactPointerEvent } from 'react';
import { CONTOUR_COLOR } from '../../../domain/constants.ts';
import { removeManualContour, setManualContour } from '../../../domain/annotations/contour-edits.ts';
import { smoothClosedCurveSvgPath } from '../../../domain/annotations/curves.ts';
import type { Point } from '../../../domain/annotations/manifest.ts';
import type { SliceMeasurement } from '../../../domain/contours/corrected-analysis.ts';
import { eccentricity, measureContour } from '../../../domain/contours/measurements.ts';
import type { AnnotationStore } from '../annotations/annotation-store.ts';
import type { ViewTransform } from '../panels/view-transform.ts';

const HANDLE_RADIUS_PX = 4;

export interface ContourLayerProps {
  /** The slice's contour (manual when corrected, automatic otherwise), or null while none is known. */
  measurement: SliceMeasurement | null;
  /** Why there is no contour yet (detection under way, failed). */
  pending: string | null;
  slice: number;
  store: AnnotationStore;
  transform: ViewTransform;
  pixelSpacingMm: number;
}

const toScreen = (t: ViewTransform, p: Point): Point => ({ x: p.x * t.scaleX + t.x, y: p.y * t.scaleY + t.y });

/**
 * The contour tool (issue 9): the slice's lumen contour in #9cc5c6 with its control points.
 * Dragging a point makes the slice's contour a manual correction (one undo step, saved with the
 * annotations); Re-detect drops the correction and the automatic contour shows again.
 */
export function ContourLayer({ measurement, pending, slice, store, transform, pixelSpacingMm }: ContourLayerProps) {
  const [drag, setDrag] = useState<{ index: number; points: Point[] } | null>(null);
  const points = drag?.points ?? measurement?.controlPoints ?? null;

  const onHandleDown = (index: number) => (event: ReactPointerEvent<SVGCircleElement>) => {
    if (event.button !== 0 || !points) return;
    event.preventDefault();
    event.stopPropagation();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    setDrag({ index, points: points.map(({ x, y }) => ({ x, y })) });
  };
  const onMove = (event: ReactPointerEvent<SVGSVGElement>) => {
    if (!drag) return;
    const rect = event.currentTarget.getBoundingClientRect();
    const to = { x: (event.clientX - rect.left - transform.x) / transform.scaleX, y: (event.clientY - rect.top - transform.y) / transform.scaleY };
    setDrag({ ...drag, points: drag.points.map((p, i) => (i === drag.index ? to : p)) });
  };
  const onUp = () => {
    if (!drag) return;
    store.commit(setManualContour(store.getSnapshot().history.present, slice, drag.points));
    setDrag(null);
  };

  // While dragging, the card shows the measurement of the contour under the pointer.
  const live = drag ? measureContour(drag.points, pixelSpacingMm) : measurement;
  const source = drag ? 'manual' : measurement?.source;
  const screen = points?.map((p) => toScreen(transform, p)) ?? [];
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
        onPointerMove={onMove}
        onPointerUp={onUp}
        onPointerCancel={() => setDrag(null)}
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
