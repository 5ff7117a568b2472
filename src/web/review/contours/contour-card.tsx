import { Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { CONTOUR_COLOR, VESSEL_CONTOUR_COLOR } from '../../../domain/constants.ts';
import { removeManualContour, setManualContour } from '../../../domain/annotations/contour-edits.ts';
import type { Point } from '../../../domain/annotations/manifest.ts';
import { LOW_CONFIDENCE } from '../../../domain/contours/border-detection.ts';
import type { BorderSource, ContourBorder } from '../../../domain/annotations/contour-set.ts';
import type { SliceMeasurement } from '../../../domain/contours/corrected-analysis.ts';
import type { AnnotationStore } from '../manifest/annotation-store.ts';

export interface ContourCardProps {
  /** The slice's figures (live while a point is dragged), or null while there are none. */
  measurement: SliceMeasurement | null;
  dragging: boolean;
  pending: string | null;
  slice: number;
  store: AnnotationStore;
  /** Top-left corner in the panel's screen pixels. */
  at: Point;
  /** The control points of a border placed by Draw on a slice without one. */
  startingBorder: (border: ContourBorder) => Point[];
}

const SOURCE_TEXT = { auto: 'automatic', manual: 'corrected', propagated: 'propagated' } as const;
const sourceText = (source: BorderSource) => SOURCE_TEXT[source];

/** One border's line: its name in its colour, its area, and where it came from. */
function BorderLine({ name, color, areaMm2, source, testId }: { name: string; color: string; areaMm2: number; source: BorderSource; testId: string }) {
  return (
    <HStack gap="1">
      <Text as="span" fontWeight="bold" color={color}>
        {name}
      </Text>
      <Text as="span" data-testid={testId} fontVariantNumeric="tabular-nums">
        {areaMm2.toFixed(2)}
      </Text>
      <Text as="span">mm²</Text>
      <Text as="span" opacity={0.7}>
        ({sourceText(source)})
      </Text>
    </HStack>
  );
}

/** What the card says of a slice the detector could not read (issue 23), and the e2e and component tests look for. */
export const NO_BORDER_TEXT = 'No border — the detector could not read this frame';

/** A border's line when the slice has not got that border: its name, and a button that places one to correct by hand. */
function MissingBorderLine({ name, color, onDraw }: { name: string; color: string; onDraw: () => void }) {
  return (
    <HStack gap="1">
      <Text as="span" fontWeight="bold" color={color}>
        {name}
      </Text>
      <Text as="span">no border</Text>
      <Button size="2xs" variant="outline" color="white" onClick={onDraw}>
        Draw {name.toLowerCase()}
      </Button>
    </HStack>
  );
}

/**
 * The contour tool's card: both borders' figures (lumen area, diameters and eccentricity; vessel
 * area; plaque + media area and plaque burden), the detector's confidence (a low one says so), a
 * warning when corrected borders cross, and Re-detect for each corrected border. On a slice the
 * detector could not read it says so, and Draw places a border (a circle round the frame's centre,
 * startingBorder) for the clinician to drag into place: from then on it is a manual correction and counts.
 */
export function ContourCard({ measurement: m, dragging, pending, slice, store, at, startingBorder }: ContourCardProps) {
  const redetect = (border: ContourBorder) => store.commit(removeManualContour(store.getSnapshot().history.present, slice, border));
  const draw = (border: ContourBorder) => store.commit(setManualContour(store.getSnapshot().history.present, slice, startingBorder(border), border));
  const low = m !== null && m.confidence < LOW_CONFIDENCE;
  return (
    <Box
      position="absolute"
      left="0"
      top="0"
      transform={`translate(${at.x}px, ${at.y}px)`}
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
      {m ? (
        <Stack gap="0.5">
          {m.noBorder ? (
            <Text as="span" color="orange.300" role="status" data-testid="no-border">
              {NO_BORDER_TEXT}
            </Text>
          ) : null}
          {m.areaMm2 !== null && m.source !== null ? (
            <>
              <BorderLine name="Lumen" color={CONTOUR_COLOR} areaMm2={m.areaMm2} source={m.source} testId="contour-area" />
              <Text as="span" fontVariantNumeric="tabular-nums" data-testid="contour-diameters">
                Ø {m.minDiameterMm?.toFixed(2)}–{m.maxDiameterMm?.toFixed(2)} mm · ecc. {m.eccentricity?.toFixed(2)}
              </Text>
            </>
          ) : (
            <MissingBorderLine name="Lumen" color={CONTOUR_COLOR} onDraw={() => draw('lumen')} />
          )}
          {m.vessel ? (
            <BorderLine name="Vessel" color={VESSEL_CONTOUR_COLOR} areaMm2={m.vessel.areaMm2} source={m.vessel.source} testId="vessel-area" />
          ) : (
            <MissingBorderLine name="Vessel" color={VESSEL_CONTOUR_COLOR} onDraw={() => draw('vessel')} />
          )}
          {m.bordersCross ? (
            <Text as="span" color="orange.300" role="status" data-testid="borders-cross">
              The vessel border crosses the lumen: no plaque figure
            </Text>
          ) : m.plaqueAreaMm2 !== null && m.plaqueBurden !== null ? (
            <Text as="span" fontVariantNumeric="tabular-nums" data-testid="plaque-burden">
              Plaque {m.plaqueAreaMm2.toFixed(2)} mm² · burden {(100 * m.plaqueBurden).toFixed(0)} %
            </Text>
          ) : null}
          <Text as="span" fontVariantNumeric="tabular-nums" color={low ? 'orange.300' : undefined} data-testid="contour-confidence" data-low={low || undefined}>
            Confidence {m.confidence.toFixed(2)}
            {low ? ' · low: check this slice' : ''}
          </Text>
          {!dragging && (m.source === 'manual' || m.vessel?.source === 'manual') ? (
            <HStack gap="1">
              {m.source === 'manual' ? (
                <Button size="2xs" variant="outline" color="white" onClick={() => redetect('lumen')}>
                  Re-detect lumen
                </Button>
              ) : null}
              {m.vessel?.source === 'manual' ? (
                <Button size="2xs" variant="outline" color="white" onClick={() => redetect('vessel')}>
                  Re-detect vessel
                </Button>
              ) : null}
            </HStack>
          ) : null}
        </Stack>
      ) : (
        <Text as="span">{pending ?? 'No contour on this slice.'}</Text>
      )}
    </Box>
  );
}
