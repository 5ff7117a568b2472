import { Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import type { ReactNode, Ref } from 'react';
import { CONTOUR_COLOR, VESSEL_CONTOUR_COLOR } from '../../../domain/constants.ts';
import { removeManualContour, setManualContour } from '../../../domain/annotations/contour-edits.ts';
import type { Point } from '../../../domain/annotations/manifest.ts';
import { LOW_CONFIDENCE } from '../../../domain/contours/border-detection.ts';
import type { BorderSource, ContourBorder } from '../../../domain/annotations/contour-set.ts';
import type { SliceMeasurement } from '../../../domain/contours/corrected-analysis.ts';
import type { AnnotationStore } from '../manifest/annotation-store.ts';

export interface ContourCardProps {
  /** The slice's borders (live while a point is dragged), or null while there are none. */
  measurement: SliceMeasurement | null;
  dragging: boolean;
  pending: string | null;
  slice: number;
  store: AnnotationStore;
  /** Top-left corner in the panel's screen pixels. */
  at: Point;
  ref?: Ref<HTMLDivElement> | undefined;
  /** The control points of a border placed by Draw on a slice without one. */
  startingBorder: (border: ContourBorder) => Point[];
  /** Issue 28: the stent border's line once the stent is read (stent-border-edit.tsx). */
  stentLine?: ReactNode;
}

const SOURCE_TEXT = { auto: 'automatic', manual: 'corrected', propagated: 'propagated' } as const;
const sourceText = (source: BorderSource) => SOURCE_TEXT[source];

/** One border's line: its name in its colour, and where it came from (its figures are in the frame readout). */
function BorderLine({ name, color, source, testId }: { name: string; color: string; source: BorderSource; testId: string }) {
  return (
    <HStack gap="1">
      <Text as="span" fontWeight="bold" color={color}>
        {name}
      </Text>
      <Text as="span" data-testid={testId}>
        {sourceText(source)}
      </Text>
    </HStack>
  );
}

/** A border's line when the slice has not got that border: its name, and a button that places one to correct by hand. */
function MissingBorderLine({ name, color, onDraw }: { name: string; color: string; onDraw: () => void }) {
  return (
    <HStack gap="1" wrap="wrap">
      <Text as="span" fontWeight="bold" color={color}>
        {name}
      </Text>
      <Text as="span">no border</Text>
      <Button size="xs" variant="outline" color="white" onClick={onDraw}>
        Draw {name.toLowerCase()}
      </Button>
    </HStack>
  );
}

/**
 * The contour tool's card: where each border came from (automatic, propagated or corrected), the
 * detector's confidence (a low one says so), and Re-detect for each corrected border. The figures
 * are in the frame readout beside it, the one place for them (issue 26). On a slice the detector
 * could not read, Draw places a border (a circle round the frame's centre, startingBorder) for the
 * clinician to drag into place: from then on it is a manual correction and counts.
 */
export function ContourCard({ measurement: m, dragging, pending, slice, store, at, ref, startingBorder, stentLine = null }: ContourCardProps) {
  const redetect = (border: ContourBorder) => store.commit(removeManualContour(store.getSnapshot().history.present, slice, border));
  const draw = (border: ContourBorder) => store.commit(setManualContour(store.getSnapshot().history.present, slice, startingBorder(border), border));
  const low = m !== null && m.confidence < LOW_CONFIDENCE;
  return (
    <Box
      ref={ref}
      position="absolute"
      left="0"
      top="0"
      transform={`translate(${at.x}px, ${at.y}px)`}
      pointerEvents="auto"
      userSelect="none"
      onPointerDown={(event) => event.stopPropagation()}
      data-testid="contour-card"
      bg="rgba(0, 0, 0, 0.82)"
      color="white"
      rounded="l2"
      px="2"
      py="1"
      fontSize="14px"
      // Narrow, to fit beside the image on a laptop; the buttons wrap.
      maxWidth="190px"
      borderLeftWidth="3px"
      borderLeftColor={CONTOUR_COLOR}
    >
      {m ? (
        <Stack gap="0.5">
          {m.areaMm2 !== null && m.source !== null ? (
            <BorderLine name="Lumen" color={CONTOUR_COLOR} source={m.source} testId="lumen-source" />
          ) : (
            <MissingBorderLine name="Lumen" color={CONTOUR_COLOR} onDraw={() => draw('lumen')} />
          )}
          {m.vessel ? (
            <BorderLine name="Vessel" color={VESSEL_CONTOUR_COLOR} source={m.vessel.source} testId="vessel-source" />
          ) : (
            <MissingBorderLine name="Vessel" color={VESSEL_CONTOUR_COLOR} onDraw={() => draw('vessel')} />
          )}
          {stentLine}
          {m.noBorder && (m.areaMm2 !== null || m.vessel !== null) ? (
            // The readout has figures again: the card still says the detector did not find these borders.
            <Text as="span" color="orange.300" data-testid="no-border-drawn">
              Not read by the detector: drawn by hand
            </Text>
          ) : null}
          <Text as="span" fontVariantNumeric="tabular-nums" color={low ? 'orange.300' : undefined} data-testid="contour-confidence" data-low={low || undefined}>
            Confidence {m.confidence.toFixed(2)}
            {low ? ' · low: check this slice' : ''}
          </Text>
          {!dragging && (m.source === 'manual' || m.vessel?.source === 'manual') ? (
            <HStack gap="1" wrap="wrap">
              {m.source === 'manual' ? (
                <Button size="xs" variant="outline" color="white" onClick={() => redetect('lumen')}>
                  Re-detect lumen
                </Button>
              ) : null}
              {m.vessel?.source === 'manual' ? (
                <Button size="xs" variant="outline" color="white" onClick={() => redetect('vessel')}>
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
