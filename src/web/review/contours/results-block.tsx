import { Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { lesionResults, type ResultFrame } from '../../../domain/contours/lesion-results.ts';
import type { CorrectedAnalysis } from '../../../domain/contours/corrected-analysis.ts';
import type { SliceMover } from '../frames/slice-cursor.ts';
import { MLA_COLOR, REFERENCE_COLOR } from './pullback-plot.tsx';

const MM = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const TWO = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export interface ResultsBlockProps {
  /** Null while the borders are on their way: the block keeps its room, with dashes. */
  result: Pick<CorrectedAnalysis, 'slices' | 'analysis'> | null;
  cursor: SliceMover;
  /** The frame rate or the pullback speed was assumed: every mm position (and the lesion length) says so. */
  positionAssumed: boolean;
  /**
   * Set while `result` is provisional (issue 23): figures from the frames detected so far, which the
   * block labels as such, every one of them, until the final contours replace them.
   */
  provisional?: { readonly detectedFrames: number; readonly frameCount: number } | null;
  /**
   * Why the figures are held back (manifest/saved-corrections.ts): the saved corrections are on
   * their way or could not be loaded. Said once above the dashes, in place of each tile's reason,
   * which would mislead ("no lumen border yet").
   */
  held?: string | null;
}

/** The column's width: the figures' longest line at 14 px, beside the strip and the plot. */
export const RESULTS_BLOCK_WIDTH_PX = 288;

/** A figure's box: a marker colour on its left, a name, the figure large, and its details (one line each). */
function Tile({ color, name, value, lines = [], testId }: { color: string | null; name: string; value: string; lines?: readonly string[]; testId: string }) {
  return (
    <Stack as="span" gap="0" align="start" textAlign="start" borderInlineStartWidth="4px" borderColor={color ?? 'border.emphasized'} ps="2" data-testid={testId} color="fg">
      <HStack as="span" gap="2" align="baseline" wrap="wrap">
        <Text as="span" textStyle="sm" fontWeight="semibold">
          {name}
        </Text>
        <Text as="span" textStyle="lg" fontWeight="bold" fontVariantNumeric="tabular-nums" data-testid={`${testId}-value`}>
          {value}
        </Text>
      </HStack>
      {lines.map((line) => (
        <Text key={line} as="span" textStyle="sm" color="fg.muted" fontVariantNumeric="tabular-nums">
          {line}
        </Text>
      ))}
    </Stack>
  );
}

/**
 * The results a stent is sized by, at a glance (issue 26): the MLA with its MLD, the distal and
 * proximal references with their areas and diameters, the area stenosis and the lesion length, each
 * placed in mm along the pullback. Each frame's figures are a button that goes to that frame.
 */
export function ResultsBlock({ result, cursor, positionAssumed, provisional = null, held = null }: ResultsBlockProps) {
  const results = result ? lesionResults(result) : null;
  const assumed = positionAssumed ? ' (assumed)' : '';
  const at = (frame: ResultFrame) => `at ${MM.format(frame.positionMm)} mm${assumed} · slice ${frame.slice}`;
  // Held back: the block says why once, above; the tiles keep their room with dashes.
  const none = (why: string) => (held ? [] : [why, '—']);
  const frameButton = (frame: ResultFrame | null, tile: ReactNode, testId: string, what: string) =>
    frame ? (
      <Button
        variant="outline"
        borderColor="border"
        height="auto"
        width="full"
        justifyContent="start"
        py="1"
        px="1"
        onClick={() => cursor.setSlice(frame.slice)}
        data-testid={testId}
        data-slice={frame.slice}
        data-provisional={provisional ? 'true' : undefined}
        title={`Go to the ${what} frame`}
        fontWeight="normal"
        whiteSpace="normal"
      >
        {tile}
      </Button>
    ) : (
      <Box py="1" px="1" borderWidth="1px" borderColor="transparent" data-testid={testId}>
        {tile}
      </Box>
    );
  const reference = (frame: ResultFrame | null, side: 'Distal' | 'Proximal') =>
    frameButton(
      frame,
      <Tile
        color={REFERENCE_COLOR}
        name={`${side} reference`}
        value={frame ? `${TWO.format(frame.areaMm2)} mm²` : '—'}
        lines={frame ? [`mean Ø ${TWO.format(frame.meanDiameterMm)} mm · min Ø ${TWO.format(frame.minDiameterMm)} mm`, at(frame)] : none('no reference frame')}
        testId={`result-${side.toLowerCase()}-figures`}
      />,
      `result-${side.toLowerCase()}-reference`,
      `${side.toLowerCase()} reference`,
    );
  const mla = results?.mla ?? null;
  return (
    // A column beside the strip and the plot: on a laptop a row of these took the panels' height.
    <Stack as="section" aria-label="Pullback results" data-testid="results-block" gap="1" width={`${RESULTS_BLOCK_WIDTH_PX}px`} flexShrink={0} px="2" py="1">
      {provisional ? (
        // A clinician must not take these for the final figures: said above them, in words, while they last.
        <Text role="status" textStyle="sm" fontWeight="semibold" color="fg.warning" data-testid="results-provisional">
          Provisional: from {provisional.detectedFrames.toLocaleString('en-US')} of {provisional.frameCount.toLocaleString('en-US')} frames, refining…
        </Text>
      ) : null}
      {held ? (
        <Text role="status" textStyle="sm" fontWeight="semibold" color="fg.muted" data-testid="results-held">
          {held}
        </Text>
      ) : null}
      {frameButton(
        mla,
        <Tile color={MLA_COLOR} name={provisional ? 'MLA (provisional)' : 'MLA'} value={mla ? `${TWO.format(mla.areaMm2)} mm²` : '—'} lines={mla ? [`MLD ${TWO.format(mla.minDiameterMm)} mm`, at(mla)] : none('no lumen border yet')} testId="result-mla-figures" />,
        'result-mla',
        'MLA',
      )}
      {reference(results?.distalReference ?? null, 'Distal')}
      {reference(results?.proximalReference ?? null, 'Proximal')}
      <Box py="1" px="1" title="Against the mean of the two reference areas">
        <Tile color={null} name="Area stenosis" value={results?.areaStenosisPercent != null ? `${results.areaStenosisPercent.toFixed(0)} %` : '—'} testId="result-stenosis" />
      </Box>
      <Box py="1" px="1" title="From the distal to the proximal reference frame">
        <Tile color={null} name="Lesion length" value={results?.lesionLengthMm != null ? `${MM.format(results.lesionLengthMm)} mm${assumed}` : '—'} testId="result-lesion-length" />
      </Box>
    </Stack>
  );
}
