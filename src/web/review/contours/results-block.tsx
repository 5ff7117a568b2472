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
}

/** A figure's box: a marker colour on its left, a name, the figure large, and its details. */
function Tile({ color, name, value, children, testId }: { color: string | null; name: string; value: string; children?: ReactNode; testId: string }) {
  return (
    <Stack as="span" gap="0" align="start" textAlign="start" borderInlineStartWidth="4px" borderColor={color ?? 'border.emphasized'} ps="2" data-testid={testId}>
      <HStack as="span" gap="2" align="baseline">
        <Text as="span" textStyle="sm" fontWeight="semibold">
          {name}
        </Text>
        <Text as="span" textStyle="lg" fontWeight="bold" fontVariantNumeric="tabular-nums" data-testid={`${testId}-value`}>
          {value}
        </Text>
      </HStack>
      <Text as="span" textStyle="sm" color="fg.muted" fontVariantNumeric="tabular-nums">
        {children}
      </Text>
    </Stack>
  );
}

/**
 * The results a stent is sized by, at a glance (issue 26): the MLA with its MLD, the distal and
 * proximal references with their areas and diameters, the area stenosis and the lesion length, each
 * placed in mm along the pullback. Each frame's figures are a button that goes to that frame.
 */
export function ResultsBlock({ result, cursor, positionAssumed }: ResultsBlockProps) {
  const results = result ? lesionResults(result) : null;
  const assumed = positionAssumed ? ' (assumed)' : '';
  const at = (frame: ResultFrame) => `at ${MM.format(frame.positionMm)} mm${assumed} · slice ${frame.slice}`;
  const frameButton = (frame: ResultFrame | null, tile: ReactNode, testId: string, what: string) =>
    frame ? (
      <Button
        variant="ghost"
        height="auto"
        py="1"
        px="1"
        onClick={() => cursor.setSlice(frame.slice)}
        data-testid={testId}
        data-slice={frame.slice}
        title={`Go to the ${what} frame`}
        fontWeight="normal"
        whiteSpace="normal"
      >
        {tile}
      </Button>
    ) : (
      <Box py="1" px="1" data-testid={testId}>
        {tile}
      </Box>
    );
  const reference = (frame: ResultFrame | null, side: 'Distal' | 'Proximal') =>
    frameButton(
      frame,
      <Tile color={REFERENCE_COLOR} name={`${side} reference`} value={frame ? `${TWO.format(frame.areaMm2)} mm²` : '—'} testId={`result-${side.toLowerCase()}-figures`}>
        {frame ? `mean Ø ${TWO.format(frame.meanDiameterMm)} mm · min Ø ${TWO.format(frame.minDiameterMm)} mm · ${at(frame)}` : 'no reference frame'}
      </Tile>,
      `result-${side.toLowerCase()}-reference`,
      `${side.toLowerCase()} reference`,
    );
  const mla = results?.mla ?? null;
  return (
    <Box as="section" aria-label="Pullback results" data-testid="results-block" px="2" py="1" bg="bg.subtle">
      <HStack gap="3" wrap="wrap" align="stretch">
        {frameButton(
          mla,
          <Tile color={MLA_COLOR} name="MLA" value={mla ? `${TWO.format(mla.areaMm2)} mm²` : '—'} testId="result-mla-figures">
            {mla ? `MLD ${TWO.format(mla.minDiameterMm)} mm · ${at(mla)}` : 'no lumen border yet'}
          </Tile>,
          'result-mla',
          'MLA',
        )}
        {reference(results?.distalReference ?? null, 'Distal')}
        {reference(results?.proximalReference ?? null, 'Proximal')}
        <Box py="1" px="1">
          <Tile color={null} name="Area stenosis" value={results?.areaStenosisPercent != null ? `${results.areaStenosisPercent.toFixed(0)} %` : '—'} testId="result-stenosis">
            against the mean reference area
          </Tile>
        </Box>
        <Box py="1" px="1">
          <Tile color={null} name="Lesion length" value={results?.lesionLengthMm != null ? `${MM.format(results.lesionLengthMm)} mm${assumed}` : '—'} testId="result-lesion-length">
            distal to proximal reference
          </Tile>
        </Box>
      </HStack>
    </Box>
  );
}
