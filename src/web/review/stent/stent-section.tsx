import { Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { CorrectedAnalysis } from '../../../domain/contours/corrected-analysis.ts';
import type { StentBorderCorrection } from '../../../domain/annotations/stent-corrections.ts';
import type { BorderAreas, StentFigures } from '../../../domain/stent/stent-analysis.ts';
import type { ReferenceSide } from '../../../domain/stent/stent-references.ts';
import { stentOfReadings } from '../../../domain/stent/stent-frame-readings.ts';
import { stentDetectionOf } from '../../../domain/stent/stored-stent.ts';
import { stentResults, type StentResults } from '../../../domain/stent/stent-results.ts';
import type { SliceMover } from '../frames/slice-cursor.ts';
import { StentResultsBlock } from './stent-results-block.tsx';
import { readStentFrames, type StentFrame, type StentFramesRead } from './stent-reading.ts';
import { useStentReferences, type StentReferencesStore } from './use-stent-references.ts';
import type { StentReferenceSlices } from '../../../domain/annotations/stent-reference-slices.ts';

export interface StentSectionProps {
  result: Pick<CorrectedAnalysis, 'slices' | 'analysis'>;
  /**
   * The stent the server read with the borders (issue 28): shown at once when it found one, with no
   * reading in the page. Absent on contours detected before the server read stents: read on request.
   */
  stored?: StentResults | undefined;
  /**
   * The server's contours are final but their stent is still being read (issue 23): the section
   * says so and shows, tells and offers nothing of a stent (not even "no stent") until it comes, unless a
   * stent border corrected by hand has the page read the frames itself.
   */
  pending?: boolean;
  cursor: SliceMover;
  frameAt: (slice: number) => StentFrame | null;
  pixelSpacingMm: number;
  framesPerMm: number;
  /** Told the stent's results whenever they change (the plot draws the stent area, the CSV adds them). */
  onResults?: (stent: ShownStent | null) => void;
  /** The stent borders the clinician corrected by hand (the manifest's): they replace the fitted ones on their slices. */
  corrections?: readonly StentBorderCorrection[] | undefined;
  /** The annotation store: references moved by hand are kept in its manifest (saved, drafted, undoable); without it, for the session. */
  store?: StentReferencesStore<{ readonly stentReferences?: StentReferenceSlices | undefined }> | undefined;
}

/** What the section shows: the detection's results and the figures from the corrected borders. */
export interface ShownStent {
  readonly results: StentResults;
  readonly figures: StentFigures;
  readonly manualSlices: readonly number[];
  /** Moves a stent reference by hand to (the measured slice nearest) a 1-based slice beyond its edge. */
  readonly moveReference?: (side: ReferenceSide, slice: number) => void;
  /** Moves a stent reference by hand by this many slices (to the next measured one that way). */
  readonly stepReference?: (side: ReferenceSide, steps: number) => void;
  /** Puts a moved reference back where the analysis takes it by default. */
  readonly resetReference?: (side: ReferenceSide) => void;
}

type Reading = { status: 'idle' } | { status: 'reading'; done: number } | { status: 'ready'; read: StentFramesRead };

const NO_CORRECTIONS: readonly StentBorderCorrection[] = [];

/**
 * The stent analysis in the results column (issue 28): one button reads the stent from the loaded
 * frames, then its results show, their expansion and edge figures following the corrected borders
 * and the references where the clinician put them (use-stent-references.ts: the plot's reference
 * markers move them).
 */
export function StentSection({ result, stored, pending = false, cursor, frameAt, pixelSpacingMm, framesPerMm, onResults, corrections = NO_CORRECTIONS, store }: StentSectionProps) {
  const [reading, setReading] = useState<Reading>({ status: 'idle' });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);
  const sliceCount = result.slices.length;

  const start = useCallback(() => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setReading({ status: 'reading', done: 0 });
    void readStentFrames(frameAt, sliceCount, pixelSpacingMm, (done) => setReading({ status: 'reading', done }), controller.signal).then((read) => {
      if (read !== null && !controller.signal.aborted) setReading({ status: 'ready', read });
    });
  }, [frameAt, sliceCount, pixelSpacingMm]);

  const read = reading.status === 'ready' ? reading.read : null;
  // Measured again from the frames' readings whenever a stent border is corrected by hand (or a correction undone).
  const readDetection = useMemo(() => {
    // The same measure as the PACS report's on the server (domain/stent/stent-frame-readings.ts).
    return read === null ? null : stentOfReadings(read, framesPerMm, corrections, pixelSpacingMm);
  }, [read, corrections, framesPerMm, pixelSpacingMm]);
  // A stored stent stands for a reading done; where the server found none, the button still reads the loaded frames.
  // The stored stent has no per-frame readings, so with a border corrected by hand it is never shown as it is:
  // the page reads the frames itself and measures the stent on the corrected borders.
  const storedDetection = useMemo(() => (stored?.segment ? stentDetectionOf(stored, sliceCount) : null), [stored, sliceCount]);
  const storedStands = reading.status === 'idle' && corrections.length === 0;
  const detection = readDetection ?? (storedStands ? storedDetection : null);
  const mustRead = reading.status === 'idle' && corrections.length > 0 && (storedDetection !== null || pending);
  const waiting = pending && reading.status === 'idle' && !mustRead;
  useEffect(() => {
    // The reading is an outside process (tasks over the loaded frames) that a correction starts, as the button does.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (mustRead) start();
  }, [mustRead, start]);
  const areas = useMemo((): BorderAreas => {
    const references = result.analysis.references;
    return {
      frameCount: sliceCount,
      framesPerMm,
      lumenAreasMm2: result.slices.map((s) => s.areaMm2 ?? NaN),
      vesselAreasMm2: result.slices.map((s) => s.vessel?.areaMm2 ?? NaN),
      referenceFrames: { distal: references.distal?.index ?? null, proximal: references.proximal?.index ?? null },
    };
  }, [result, sliceCount, framesPerMm]);
  const { figures, moveReference, stepReference, resetReference } = useStentReferences(detection, areas, store ?? null);
  const shown = useMemo((): ShownStent | null => {
    if (detection === null || figures === null) return null;
    const manualSlices = result.slices.filter((s) => s.source === 'manual' || s.vessel?.source === 'manual').map((s) => s.slice);
    const results = detection === storedDetection && stored ? stored : stentResults(detection);
    return { results, figures, manualSlices, moveReference, stepReference, resetReference };
  }, [detection, storedDetection, stored, figures, result, moveReference, stepReference, resetReference]);
  useEffect(() => {
    onResults?.(shown);
  }, [shown, onResults]);

  return (
    <Stack gap="1" px="2" pb="1" data-testid="stent-section">
      <HStack gap="2">
        {waiting ? (
          <Text textStyle="sm" color="fg.muted" data-testid="stent-pending">
            Reading the stent…
          </Text>
        ) : (
          <Button size="xs" variant="outline" onClick={start} disabled={reading.status === 'reading'} title="Find the stent's struts in the loaded frames and measure the stent">
            {reading.status === 'ready' || storedDetection !== null ? 'Read the stent again' : 'Stent analysis'}
          </Button>
        )}
        {reading.status === 'reading' ? (
          <Text textStyle="sm" color="fg.muted" data-testid="stent-progress">
            Reading struts… {reading.done} of {sliceCount} frames
          </Text>
        ) : null}
      </HStack>
      {shown ? <StentResultsBlock results={shown.results} figures={shown.figures} cursor={cursor} manualSlices={shown.manualSlices} onResetReference={resetReference} /> : null}
    </Stack>
  );
}
