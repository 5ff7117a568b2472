/**
 * The calcium figures (issue 28), in the pullback analysis's header row so that they take no height
 * from the panels: a button with the IVUS calcium score that opens its details (one click): the four
 * components, the largest arc (a button to its slice: the second click) and the longest calcium, the
 * current slice's arc, the band's colour legend, and how it was all computed. Says "not measurable"
 * where the contours carry no calcium (detected before calcium was), names the slices whose arc was
 * measured on a border corrected by hand or set by hand, and holds the current slice's arc editor.
 */
import { Box, Button, HStack, Popover, Portal, Stack, Text } from '@chakra-ui/react';
import { useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { sliceRanges } from '../../../domain/calcium/corrected-calcium.ts';
import type { AnnotationStore } from '../manifest/annotation-store.ts';
import { CalciumArcEditor } from './calcium-arc-editor.tsx';
import type { RecordCalcium } from '../../../domain/calcium/record-calcium.ts';
import { CALCIUM_SCORE_DEFINITION, calciumOrigin } from '../../../domain/calcium/record-calcium.ts';
import { LONG_ARC_DEG, LONG_ARC_LENGTH_MM, SMALL_VESSEL_DIAMETER_MM } from '../../../domain/calcium/calcium-score.ts';
import type { SliceMover } from '../frames/slice-cursor.ts';
import { CALCIUM_ARC_BANDS } from './calcium-colors.ts';
import { framePacedSlice } from '../frames/frame-paced-slice.ts';

const ONE = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const TWO = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export interface CalciumResultsProps {
  calcium: RecordCalcium | null;
  cursor: SliceMover;
  /** The record's annotations, where a hand-set arc is stored; without them the arc cannot be corrected. */
  annotations?: AnnotationStore | undefined;
}

function Line({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Text as="span" textStyle="sm" color="fg.muted" fontVariantNumeric="tabular-nums" data-testid={testId}>
      {children}
    </Text>
  );
}

const mark = (point: 0 | 1) => (point === 1 ? '1 point' : '0');
const NO_SUBSCRIPTION = () => () => {};

export function CalciumResults({ calcium, cursor, annotations }: CalciumResultsProps) {
  // Only the open details follow the slice (their "This slice" line): the closed button does not
  // depend on it, and following it re-rendered the popover on every playback tick (issue 27).
  const [open, setOpen] = useState(false);
  if (calcium === null) return null;
  const { score } = calcium;
  const measurable = calcium.measured;
  const goTo = (index: number | null | undefined, label: string, testId: string) =>
    index == null ? null : (
      <Button size="xs" variant="outline" onClick={() => cursor.setSlice(index + 1)} data-testid={testId} data-slice={index + 1} title={`Go to the slice of ${label}`}>
        {label} · slice {index + 1}
      </Button>
    );
  return (
    <Popover.Root positioning={{ placement: 'top-start' }} lazyMount open={open} onOpenChange={(details) => setOpen(details.open)}>
      <Popover.Trigger asChild>
        <Button size="xs" variant="outline" data-testid="calcium-score" title={CALCIUM_SCORE_DEFINITION}>
          <Box as="span" aria-hidden width="10px" height="10px" bg={CALCIUM_ARC_BANDS[3].color} />
          Calcium score{' '}
          <Text as="span" fontWeight="bold" data-testid="calcium-score-value">
            {measurable ? `${score.total} / 4` : 'not measurable'}
          </Text>
        </Button>
      </Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          <Popover.Content width="340px" maxHeight="70vh" overflowY="auto">
            <Popover.Arrow />
            <Popover.Body p="3">
              <CalciumDetails calcium={calcium} cursor={cursor} open={open} goTo={goTo} annotations={annotations} />
            </Popover.Body>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}

interface CalciumDetailsProps {
  calcium: RecordCalcium;
  cursor: SliceMover;
  /** Shown: it follows the slice; hidden (kept mounted, with its editor's state), it does not. */
  open: boolean;
  goTo: (index: number | null | undefined, label: string, testId: string) => ReactNode;
  annotations: AnnotationStore | undefined;
}

function CalciumDetails({ calcium, cursor, open, goTo, annotations }: CalciumDetailsProps) {
  // The slice as the panels draw it, once per painted frame: this slice's arc beside its image.
  const slices = useMemo(() => framePacedSlice(cursor), [cursor]);
  const slice = useSyncExternalStore(open ? slices.subscribe : NO_SUBSCRIPTION, () => slices.getSnapshot().slice);
  const { score } = calcium;
  const measurable = calcium.measured;
  const here = calcium.bySlice[slice - 1];
  const [editing, setEditing] = useState(false);
  return (
    <Stack as="section" aria-label="Calcium" gap="0.5" data-testid="calcium-results">
      <Text textStyle="sm" fontWeight="semibold">
        IVUS calcium score {measurable ? `${score.total} / 4` : 'not measurable'}
      </Text>
      {measurable ? (
        <>
          <Line testId="calcium-long-arc">
            &gt; {LONG_ARC_DEG}° over &gt; {LONG_ARC_LENGTH_MM} mm: {mark(score.longArc.point)} ({ONE.format(score.longArc.run?.lengthMm ?? 0)} mm)
          </Line>
          <Line testId="calcium-circumferential">360° calcium: {mark(score.circumferential.point)}</Line>
          <Line testId="calcium-nodule">Calcified nodule: {mark(score.nodule.point)}</Line>
          <Line testId="calcium-small-vessel">
            Vessel Ø &lt; {SMALL_VESSEL_DIAMETER_MM} mm: {mark(score.smallVessel.point)}
            {score.smallVessel.diameterMm === null ? ' (no calcium)' : ` (${TWO.format(score.smallVessel.diameterMm)} mm)`}
          </Line>
          <Line testId="calcium-longest">Longest calcium: {score.longestCalcium ? `${ONE.format(score.longestCalcium.lengthMm)} mm` : 'none'}</Line>
          <HStack gap="1" wrap="wrap">
            {goTo(score.maxArc?.index, score.maxArc ? `max arc ${Math.round(score.maxArc.arcDeg)}°` : '', 'calcium-max-arc')}
          </HStack>
          <HStack gap="1" justify="space-between">
            <Line testId="calcium-this-slice">
              This slice: {here == null ? 'not measurable' : here.arcDeg > 0 ? `${Math.round(here.arcDeg)}° (${Math.round(here.startDeg)}°–${Math.round(here.endDeg)}°)${here.nodule ? ', nodule' : ''}` : 'no calcium'}
              {` · ${calciumOrigin(calcium, slice)}`}
            </Line>
            {annotations ? (
              <Button size="2xs" variant="ghost" aria-expanded={editing} onClick={() => setEditing((e) => !e)} data-testid="calcium-arc-correct">
                {editing ? 'Close' : 'Correct arc'}
              </Button>
            ) : null}
          </HStack>
          {editing && annotations ? <CalciumArcEditor key={slice} slice={slice} current={here ?? null} setByHand={calcium.setByHand.includes(slice)} annotations={annotations} /> : null}
          {calcium.onCorrectedBorder.length > 0 ? (
            <Line testId="calcium-on-corrected-border">Measured on a border corrected by hand: slice{calcium.onCorrectedBorder.length === 1 ? '' : 's'} {sliceRanges(calcium.onCorrectedBorder)}</Line>
          ) : null}
          {calcium.setByHand.length > 0 ? (
            <Line testId="calcium-set-by-hand">Arc set by hand: slice{calcium.setByHand.length === 1 ? '' : 's'} {sliceRanges(calcium.setByHand)}</Line>
          ) : null}
          {calcium.handCorrected.length > 0 ? (
            <Line testId="calcium-hand-corrected">
              Border corrected by hand, arc still read on the detected border (its frame not re-read: not loaded yet): slice{calcium.handCorrected.length === 1 ? '' : 's'} {sliceRanges(calcium.handCorrected)}
            </Line>
          ) : null}
          <HStack gap="1.5" wrap="wrap" aria-label="Calcium band legend" data-testid="calcium-legend">
            {CALCIUM_ARC_BANDS.map((band) => (
              <HStack key={band.label} gap="1">
                <Box as="span" aria-hidden width="10px" height="10px" bg={band.color} flexShrink={0} />
                <Line>{band.label}</Line>
              </HStack>
            ))}
          </HStack>
        </>
      ) : (
        <Line>These contours were detected before calcium was; detect again to see it.</Line>
      )}
      <Line>{CALCIUM_SCORE_DEFINITION}</Line>
    </Stack>
  );
}
