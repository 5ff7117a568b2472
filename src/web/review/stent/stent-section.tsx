import { Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { CorrectedAnalysis } from '../../../domain/contours/corrected-analysis.ts';
import type { StentBorderCorrection } from '../../../domain/annotations/stent-corrections.ts';
import { correctedStentDetection } from '../../../domain/stent/corrected-stent.ts';
import { stentFigures, type StentFigures } from '../../../domain/stent/stent-analysis.ts';
import { stentResults, type StentResults } from '../../../domain/stent/stent-results.ts';
import type { SliceMover } from '../frames/slice-cursor.ts';
import { StentResultsBlock } from './stent-results-block.tsx';
import { readStentFrames, type StentFrame, type StentFramesRead } from './stent-reading.ts';

export interface StentSectionProps {
  result: Pick<CorrectedAnalysis, 'slices' | 'analysis'>;
  cursor: SliceMover;
  frameAt: (slice: number) => StentFrame | null;
  pixelSpacingMm: number;
  framesPerMm: number;
  /** Told the stent's results whenever they change (the plot draws the stent area, the CSV adds them). */
  onResults?: (stent: ShownStent | null) => void;
  /** The stent borders the clinician corrected by hand (the manifest's): they replace the fitted ones on their slices. */
  corrections?: readonly StentBorderCorrection[] | undefined;
}

/** What the section shows: the detection's results and the figures from the corrected borders. */
export interface ShownStent {
  readonly results: StentResults;
  readonly figures: StentFigures;
  readonly manualSlices: readonly number[];
}

type Reading = { status: 'idle' } | { status: 'reading'; done: number } | { status: 'ready'; read: StentFramesRead };

const NO_CORRECTIONS: readonly StentBorderCorrection[] = [];

/**
 * The stent analysis in the results column (issue 28): one button reads the stent from the loaded
 * frames, then its results show, their expansion and edge figures following the corrected borders.
 */
export function StentSection({ result, cursor, frameAt, pixelSpacingMm, framesPerMm, onResults, corrections = NO_CORRECTIONS }: StentSectionProps) {
  const [reading, setReading] = useState<Reading>({ status: 'idle' });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);
  const sliceCount = result.slices.length;

  const start = () => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setReading({ status: 'reading', done: 0 });
    void readStentFrames(frameAt, sliceCount, pixelSpacingMm, (done) => setReading({ status: 'reading', done }), controller.signal).then((read) => {
      if (read !== null && !controller.signal.aborted) setReading({ status: 'ready', read });
    });
  };

  const read = reading.status === 'ready' ? reading.read : null;
  // Measured again from the frames' readings whenever a stent border is corrected by hand (or a correction undone).
  const detection = useMemo(() => {
    if (read === null) return null;
    const size = read.frameSize;
    const geometry = { centreX: (size?.width ?? 0) / 2, centreY: (size?.height ?? 0) / 2, pixelSpacingMm };
    return correctedStentDetection(read.readings, framesPerMm, size === null ? [] : corrections.map((c) => ({ frame: c.slice - 1, controlPoints: c.controlPoints })), geometry);
  }, [read, corrections, framesPerMm, pixelSpacingMm]);
  const shown = useMemo((): ShownStent | null => {
    if (detection === null) return null;
    const lumen = result.slices.map((s) => s.areaMm2 ?? NaN);
    const vessel = result.slices.map((s) => s.vessel?.areaMm2 ?? NaN);
    const references = result.analysis.references;
    const figures = stentFigures(detection, {
      frameCount: sliceCount,
      framesPerMm,
      lumenAreasMm2: lumen,
      vesselAreasMm2: vessel,
      referenceFrames: { distal: references.distal?.index ?? null, proximal: references.proximal?.index ?? null },
    });
    const manualSlices = result.slices.filter((s) => s.source === 'manual' || s.vessel?.source === 'manual').map((s) => s.slice);
    return { results: stentResults(detection), figures, manualSlices };
  }, [detection, result, sliceCount, framesPerMm]);
  useEffect(() => {
    onResults?.(shown);
  }, [shown, onResults]);

  return (
    <Stack gap="1" px="2" pb="1" data-testid="stent-section">
      <HStack gap="2">
        <Button size="xs" variant="outline" onClick={start} disabled={reading.status === 'reading'} title="Find the stent's struts in the loaded frames and measure the stent">
          {reading.status === 'ready' ? 'Read the stent again' : 'Stent analysis'}
        </Button>
        {reading.status === 'reading' ? (
          <Text textStyle="sm" color="fg.muted" data-testid="stent-progress">
            Reading struts… {reading.done} of {sliceCount} frames
          </Text>
        ) : null}
      </HStack>
      {shown ? <StentResultsBlock results={shown.results} figures={shown.figures} cursor={cursor} manualSlices={shown.manualSlices} /> : null}
    </Stack>
  );
}
