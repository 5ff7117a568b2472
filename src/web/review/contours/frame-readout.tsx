import { Box, Button, Flex, Grid, HStack, Text } from '@chakra-ui/react';
import { memo, useCallback, useLayoutEffect, useRef, type CSSProperties, type ReactNode, type Ref, type RefObject } from 'react';
import { CONTOUR_COLOR, VESSEL_CONTOUR_COLOR } from '../../../domain/constants.ts';
import type { SliceMeasurement } from '../../../domain/contours/corrected-analysis.ts';
import { formatFigure, frameFigures, NO_FIGURE, type FrameFigures } from '../../../domain/contours/frame-figures.ts';
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

/** One figure: its name, its value (written by FrameReadout, see writeReadout) and unit; the value carries a test id only when there is one. */
function Figure({ name, known, unit, testId, swatch, narrow, valueRef }: { name: string; known: boolean; unit: string; testId: string; swatch?: string | undefined; narrow: boolean; valueRef: Ref<HTMLSpanElement> }) {
  return (
    <>
      <FigureName name={name} swatch={swatch} />
      <span style={narrow ? VALUE_NARROW : VALUE_WIDE}>
        <span ref={valueRef} style={VALUE_NUMBER} data-testid={known ? testId : undefined} />
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

/** The figures in the order the readout lists them. */
const FIGURES = [
  { name: 'Lumen area', of: (f: FrameFigures) => formatFigure(f.lumenAreaMm2, 2), unit: 'mm²', testId: 'contour-area', swatch: CONTOUR_COLOR },
  { name: 'Min lumen Ø', of: (f: FrameFigures) => formatFigure(f.minLumenDiameterMm, 2), unit: 'mm', testId: 'min-diameter', swatch: undefined },
  { name: 'Max lumen Ø', of: (f: FrameFigures) => formatFigure(f.maxLumenDiameterMm, 2), unit: 'mm', testId: 'max-diameter', swatch: undefined },
  { name: 'Vessel area', of: (f: FrameFigures) => formatFigure(f.vesselAreaMm2, 2), unit: 'mm²', testId: 'vessel-area', swatch: VESSEL_CONTOUR_COLOR },
  { name: 'Plaque burden', of: (f: FrameFigures) => formatFigure(f.plaqueBurdenPercent, 0), unit: '%', testId: 'plaque-burden', swatch: undefined },
] as const;

/** Sets an element's text in place: replacing its text node would make the browser style and lay it out afresh. */
function setText(element: HTMLElement | null, text: string): void {
  if (!element) return;
  const node = element.firstChild;
  if (node?.nodeType === Node.TEXT_NODE && node === element.lastChild) {
    if ((node as CharacterData).data !== text) (node as CharacterData).data = text;
  } else element.textContent = text;
}

interface ReadoutShellProps {
  boxRef: (element: HTMLDivElement | null) => void;
  /** The frame's number goes in here... */
  titleRef: RefObject<HTMLParagraphElement | null>;
  /** ...and its figures' values in these, in the order of FIGURES. */
  valuesRef: RefObject<(HTMLSpanElement | null)[]>;
  layout: ReadoutLayout;
  /** What is said instead of figures (no measurement), or null when there is one. */
  pending: string | null;
  noBorder: boolean;
  bordersCross: boolean;
  /** Per figure, whether it has a value ('1') or a dash ('0'): its test id and unit are shown only with a value. */
  known: string;
  children?: ReactNode;
}

/**
 * What the readout shows that stays the same from frame to frame: its box, the figures' names,
 * the switch and the notes. During playback the figures change with every painted frame while this
 * does not: it renders again only when the kind of frame changes (a frame without a border, a
 * figure missing), and FrameReadout writes the frame's numbers into it (issue 27: the Chakra
 * components here re-rendered their styles with each frame).
 */
const ReadoutShell = memo(function ReadoutShell({ boxRef, titleRef, valuesRef, layout, pending, noBorder, bordersCross, known, children }: ReadoutShellProps) {
  const narrow = layout === 'narrow';
  return (
    <Box
      ref={boxRef}
      role="group"
      aria-label="Current frame figures"
      data-testid="frame-readout"
      data-layout={layout}
      position="absolute"
      left="0"
      top="0"
      // The image stays the clinician's everywhere: a press on the figures goes through to the tool
      // (a ruler may start in the corner the readout sits in), and only the switch takes a click.
      // A drag across it never selects its text.
      pointerEvents="none"
      userSelect="none"
      // Its own compositing layer, as the slice indicator's: the numbers written with each played frame
      // then re-rasterise this box only, not the B-mode's overlay layer it sits in (issue 27: about
      // 8 % less browser CPU per painted frame, bench/review-playback-ab.ts).
      willChange="transform"
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
        <Text ref={titleRef} as="span" fontWeight="semibold" color="gray.300" />
        <BordersToggle />
      </Flex>
      {pending !== null ? (
        <Text as="span" color="gray.300" data-testid="readout-pending">
          {pending}
        </Text>
      ) : (
        <>
          {noBorder ? (
            <Text as="p" color="orange.300" role="status" data-testid="no-border" mb="1">
              {NO_BORDER_TEXT}
            </Text>
          ) : null}
          <Grid templateColumns={narrow ? 'auto' : 'auto auto'} columnGap="3" rowGap={narrow ? '0' : '0.5'} alignItems="baseline">
            {FIGURES.map((figure, index) => (
              <Figure
                key={figure.testId}
                name={figure.name}
                known={known[index] === '1'}
                unit={figure.unit}
                testId={figure.testId}
                swatch={figure.swatch}
                narrow={narrow}
                valueRef={(element) => {
                  valuesRef.current[index] = element;
                }}
              />
            ))}
          </Grid>
          {bordersCross ? (
            <Text as="p" color="orange.300" role="status" data-testid="borders-cross" mt="1">
              The vessel border crosses the lumen: no plaque figure
            </Text>
          ) : null}
        </>
      )}
      {children}
    </Box>
  );
});

/**
 * The current frame's figures, always at hand whatever the tool (issue 26): lumen area, minimal and
 * maximal lumen diameter through the centroid, vessel (EEM) area and plaque burden, in type legible
 * at arm's length (14 px names, 17 px values, white on near-black in both themes: the panel is black),
 * with the borders' switch. A frame without a border says so and shows dashes, never numbers.
 * The frame's number, figures and place are written into the shell's elements before the browser
 * paints (a layout effect), in the same commit as the frame's borders: never a stale frame's figures.
 */
export function FrameReadout({ measurement, pending, at, layout, ref, children }: FrameReadoutProps) {
  const f = measurement ? frameFigures(measurement) : null;
  const values = f ? FIGURES.map((figure) => figure.of(f)) : null;
  const box = useRef<HTMLDivElement | null>(null);
  const titleRef = useRef<HTMLParagraphElement | null>(null);
  const valuesRef = useRef<(HTMLSpanElement | null)[]>([]);
  const boxRef = useCallback(
    (element: HTMLDivElement | null) => {
      box.current = element;
      if (typeof ref === 'function') ref(element);
      else if (ref) ref.current = element;
    },
    [ref],
  );
  const slice = measurement?.slice;
  const title = measurement ? `Frame ${measurement.slice}` : 'Borders';
  const transform = `translate(${at.x}px, ${at.y}px)`;
  useLayoutEffect(() => {
    const element = box.current;
    if (element) {
      if (element.style.transform !== transform) element.style.transform = transform;
      if (slice === undefined) element.removeAttribute('data-slice');
      else if (element.dataset.slice !== String(slice)) element.dataset.slice = String(slice);
    }
    setText(titleRef.current, title);
    values?.forEach((value, index) => setText(valuesRef.current[index] ?? null, value));
  });
  return (
    <ReadoutShell
      boxRef={boxRef}
      titleRef={titleRef}
      valuesRef={valuesRef}
      layout={layout}
      pending={f === null ? (pending ?? 'No borders on this frame.') : null}
      noBorder={f?.noBorder ?? false}
      bordersCross={f?.bordersCross ?? false}
      known={values ? values.map((value) => (value === NO_FIGURE ? '0' : '1')).join('') : ''}
    >
      {children}
    </ReadoutShell>
  );
}
