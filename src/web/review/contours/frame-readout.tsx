import { Box, Button, Flex, Grid, HStack, Text } from '@chakra-ui/react';
import { memo, type CSSProperties, type ReactNode, type Ref } from 'react';
import { CONTOUR_COLOR, VESSEL_CONTOUR_COLOR } from '../../../domain/constants.ts';
import type { SliceMeasurement } from '../../../domain/contours/corrected-analysis.ts';
import { formatFigure, frameFigures, NO_FIGURE } from '../../../domain/contours/frame-figures.ts';
import { ariaKeyShortcut, useShortcut } from '../../ui/shortcuts.ts';
import { BORDERS_SHORTCUT, useBordersShown, useBordersVisibility } from './borders-visibility.ts';
import type { Rect } from './readout-placement.ts';
import { system } from '../../ui/system.ts';

/** What the readout says of a frame the detector could not read (issue 23); the e2e and component tests look for it. */
export const NO_BORDER_TEXT = 'No border — the detector could not read this frame';

/** A figure's name (with its border's colour): the same from frame to frame, so not rendered again with each. */
const FigureName = memo(function FigureName({ name, swatch }: { name: string; swatch: string | undefined }) {
  return (
    <HStack gap="1.5" color="gray.300">
      {swatch ? <Box as="span" aria-hidden width="10px" height="10px" rounded="full" bg={swatch} flexShrink={0} /> : null}
      <Text as="span">{name}</Text>
    </HStack>
  );
});

// The value's styles as plain inline styles (Chakra's tokens by their CSS variables): during
// playback the values change with every painted frame, and a styled component re-renders its
// styles each time (issue 27); these are made once.
const VALUE_BASE: CSSProperties = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' };
const VALUE_WIDE: CSSProperties = { ...VALUE_BASE, textAlign: 'end' };
const VALUE_NARROW: CSSProperties = { ...VALUE_BASE, textAlign: 'start', marginBottom: system.token('spacing.1') };
const VALUE_NUMBER: CSSProperties = { fontWeight: system.token('fontWeights.bold'), fontSize: '17px' };

/** One figure: its name, its value (or a dash) and unit; the value carries a test id only when there is one. */
function Figure({ name, value, unit, testId, swatch, narrow }: { name: string; value: string; unit: string; testId: string; swatch?: string; narrow: boolean }) {
  const known = value !== NO_FIGURE;
  return (
    <>
      <FigureName name={name} swatch={swatch} />
      <span style={narrow ? VALUE_NARROW : VALUE_WIDE}>
        <span style={VALUE_NUMBER} data-testid={known ? testId : undefined}>
          {value}
        </span>
        {known ? ` ${unit}` : ''}
      </span>
    </>
  );
}

/** The borders' on/off switch, with its keyboard shortcut; it says which way it stands. Not rendered again with each frame. */
const BordersToggle = memo(function BordersToggle() {
  const visibility = useBordersVisibility();
  const shown = useBordersShown();
  useShortcut(BORDERS_SHORTCUT, visibility.toggle);
  return (
    <Button
      size="xs"
      fontSize="14px"
      variant="outline"
      color="white"
      borderColor="gray.400"
      _hover={{ bg: 'whiteAlpha.200' }}
      aria-pressed={shown}
      aria-keyshortcuts={ariaKeyShortcut(BORDERS_SHORTCUT)}
      title={`Show or hide the borders (${BORDERS_SHORTCUT})`}
      data-testid="borders-toggle"
      pointerEvents="auto"
      // A press on the switch is not a press on the image beneath the readout.
      onPointerDown={(event) => event.stopPropagation()}
      onClick={visibility.toggle}
    >
      Borders {shown ? 'on' : 'off'}
    </Button>
  );
});

export type ReadoutLayout = 'wide' | 'narrow';
/** The layouts the readout tries, in order (use-placed-box.ts). */
export const READOUT_LAYOUTS: readonly [ReadoutLayout, ReadoutLayout] = ['wide', 'narrow'];

export interface FrameReadoutProps {
  /** The frame's borders after corrections (live while a point is dragged), or null while none is known. */
  measurement: SliceMeasurement | null;
  /** Why there are no borders yet (detection under way, failed). */
  pending: string | null;
  /** Where it sits in the panel (a corner clear of the borders: readout-placement.ts). */
  at: Rect;
  /** Names beside values, or (narrow, to fit beside the image on a laptop) above them. */
  layout: ReadoutLayout;
  ref?: Ref<HTMLDivElement> | undefined;
  children?: ReactNode;
}

/**
 * The current frame's figures, always at hand whatever the tool (issue 26): lumen area, minimal and
 * maximal lumen diameter through the centroid, vessel (EEM) area and plaque burden, in type legible
 * at arm's length (14 px names, 17 px values, white on near-black in both themes: the panel is black),
 * with the borders' switch. A frame without a border says so and shows dashes, never numbers.
 */
export function FrameReadout({ measurement, pending, at, layout, ref, children }: FrameReadoutProps) {
  const f = measurement ? frameFigures(measurement) : null;
  const narrow = layout === 'narrow';
  return (
    <Box
      ref={ref}
      role="group"
      aria-label="Current frame figures"
      data-testid="frame-readout"
      data-slice={measurement?.slice}
      data-layout={layout}
      position="absolute"
      left="0"
      top="0"
      transform={`translate(${at.x}px, ${at.y}px)`}
      // The image stays the clinician's everywhere: a press on the figures goes through to the tool
      // (a ruler may start in the corner the readout sits in), and only the switch takes a click.
      // A drag across it never selects its text.
      pointerEvents="none"
      userSelect="none"
      bg="rgba(0, 0, 0, 0.82)"
      color="white"
      rounded="l2"
      px={narrow ? '2' : '3'}
      py="2"
      fontSize="14px"
      lineHeight="1.35"
      width={narrow ? 'max-content' : undefined}
      minWidth={narrow ? undefined : '220px'}
      maxWidth={narrow ? '150px' : '280px'}
    >
      <Flex direction={narrow ? 'column' : 'row'} align={narrow ? 'flex-start' : 'center'} justify="space-between" gap={narrow ? '1' : '3'} mb="1">
        <Text as="span" fontWeight="semibold" color="gray.300">
          {measurement ? `Frame ${measurement.slice}` : 'Borders'}
        </Text>
        <BordersToggle />
      </Flex>
      {f === null ? (
        <Text as="span" color="gray.300" data-testid="readout-pending">
          {pending ?? 'No borders on this frame.'}
        </Text>
      ) : (
        <>
          {f.noBorder ? (
            <Text as="p" color="orange.300" role="status" data-testid="no-border" mb="1">
              {NO_BORDER_TEXT}
            </Text>
          ) : null}
          <Grid templateColumns={narrow ? 'auto' : 'auto auto'} columnGap="3" rowGap={narrow ? '0' : '0.5'} alignItems="baseline">
            <Figure name="Lumen area" value={formatFigure(f.lumenAreaMm2, 2)} unit="mm²" testId="contour-area" swatch={CONTOUR_COLOR} narrow={narrow} />
            <Figure name="Min lumen Ø" value={formatFigure(f.minLumenDiameterMm, 2)} unit="mm" testId="min-diameter" narrow={narrow} />
            <Figure name="Max lumen Ø" value={formatFigure(f.maxLumenDiameterMm, 2)} unit="mm" testId="max-diameter" narrow={narrow} />
            <Figure name="Vessel area" value={formatFigure(f.vesselAreaMm2, 2)} unit="mm²" testId="vessel-area" swatch={VESSEL_CONTOUR_COLOR} narrow={narrow} />
            <Figure name="Plaque burden" value={formatFigure(f.plaqueBurdenPercent, 0)} unit="%" testId="plaque-burden" narrow={narrow} />
          </Grid>
          {f.bordersCross ? (
            <Text as="p" color="orange.300" role="status" data-testid="borders-cross" mt="1">
              The vessel border crosses the lumen: no plaque figure
            </Text>
          ) : null}
        </>
      )}
      {children}
    </Box>
  );
}
