import { Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { CorrectedAnalysis } from '../../../domain/contours/corrected-analysis.ts';
import type { StentDetection, StentFigures } from '../../../domain/stent/stent-analysis.ts';
import { stentDetectionOf, stentOnBorders } from '../../../domain/stent/stored-stent.ts';
import { stentResults, type StentResults } from '../../../domain/stent/stent-results.ts';
import type { SliceMover } from '../frames/slice-cursor.ts';
import { StentResultsBlock } from './stent-results-block.tsx';
import { readStent, type StentFrame } from './stent-reading.ts';

export interface StentSectionProps {
  result: Pick<CorrectedAnalysis, 'slices' | 'analysis'>;
  /**
   * The stent the server read with the borders (issue 28): shown at once when it found one, with no
   * reading in the page. Absent on contours detected before the server read stents: read on request.
   */
  stored?: StentResults | undefined;
  cursor: SliceMover;
  frameAt: (slice: number) => StentFrame | null;
  pixelSpacingMm: number;
  framesPerMm: number;
  /** Told the stent's results whenever they change (the plot draws the stent area, the CSV adds them). */
  onResults?: (stent: ShownStent | null) => void;
}

/** What the section shows: the detection's results and the figures from the corrected borders. */
export interface ShownStent {
  readonly results: StentResults;
  readonly figures: StentFigures;
  readonly manualSlices: readonly number[];
}

type Reading = { status: 'idle' } | { status: 'reading'; done: number } | { status: 'ready'; detection: StentDetection };

/**
 * The stent analysis in the results column (issue 28): one button reads the stent from the loaded
 * frames, then its results show, their expansion and edge figures following the corrected borders.
 */
export function StentSection({ result, stored, cursor, frameAt, pixelSpacingMm, framesPerMm, onResults }: StentSectionProps) {
  const [reading, setReading] = useState<Reading>({ status: 'idle' });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);
  const sliceCount = result.slices.length;

  const start = () => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setReading({ status: 'reading', done: 0 });
    void readStent(frameAt, sliceCount, pixelSpacingMm, framesPerMm, (done) => setReading({ status: 'reading', done }), controller.signal).then((detection) => {
      if (detection !== null && !controller.signal.aborted) setReading({ status: 'ready', detection });
    });
  };

  // A stored stent stands for a reading done; where the server found none, the button still reads the loaded frames.
  const storedDetection = useMemo(() => (stored?.segment ? stentDetectionOf(stored, sliceCount) : null), [stored, sliceCount]);
  const detection = reading.status === 'ready' ? reading.detection : reading.status === 'idle' ? storedDetection : null;
  const shown = useMemo((): ShownStent | null => {
    if (detection === null) return null;
    const { figures, manualSlices } = stentOnBorders(detection, result, framesPerMm);
    return { results: detection === storedDetection && stored ? stored : stentResults(detection), figures, manualSlices };
  }, [detection, storedDetection, stored, result, framesPerMm]);
  useEffect(() => {
    onResults?.(shown);
  }, [shown, onResults]);

  return (
    <Stack gap="1" px="2" pb="1" data-testid="stent-section">
      <HStack gap="2">
        <Button size="xs" variant="outline" onClick={start} disabled={reading.status === 'reading'} title="Find the stent's struts in the loaded frames and measure the stent">
          {reading.status === 'ready' || storedDetection !== null ? 'Read the stent again' : 'Stent analysis'}
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
