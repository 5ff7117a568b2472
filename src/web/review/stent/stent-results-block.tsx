import { Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import type { StentFigures } from '../../../domain/stent/stent-analysis.ts';
import { isMovedReference, movedReferenceText, type ReferenceSide } from '../../../domain/stent/stent-references.ts';
import { STENT_FIGURE_HELP, STENT_FLAG_TEXT, stentCorrectedSlices, stentCorrectedText, type StentResults } from '../../../domain/stent/stent-results.ts';
import type { SliceMover } from '../frames/slice-cursor.ts';

const ONE = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const TWO = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const NOT_MEASURABLE = 'not measurable';

export interface StentResultsBlockProps {
  /** The stent detection (null while it is on its way). */
  results: StentResults | null;
  /** Expansion, references, edge plaque burden and flags from the (corrected) borders. */
  figures: StentFigures | null;
  cursor: SliceMover;
  /** Slices whose lumen or vessel border was corrected by hand: the figures that read them say so. */
  manualSlices: readonly number[];
  /** Puts a reference moved by hand back where the analysis takes it by default. */
  onResetReference?: (side: ReferenceSide) => void;
}

/** One figure: its name, value and details, with how it is computed as its tooltip; a button to its slice where it has one. */
function Figure({ name, value, lines = [], help, slice, cursor, testId }: {
  name: string;
  value: string;
  lines?: readonly string[];
  help: string;
  slice: number | null;
  cursor: SliceMover;
  testId: string;
}) {
  const body = (
    <Stack as="span" gap="0" align="start" textAlign="start">
      <Text as="span" textStyle="sm">
        <Text as="span" fontWeight="semibold">
          {name}
        </Text>{' '}
        <Text as="span" fontWeight="bold" fontVariantNumeric="tabular-nums" data-testid={`${testId}-value`}>
          {value}
        </Text>
      </Text>
      {lines.map((line) => (
        <Text key={line} as="span" textStyle="sm" color="fg.muted">
          {line}
        </Text>
      ))}
    </Stack>
  );
  return slice === null ? (
    <Box py="1" px="1" title={help} data-testid={testId}>
      {body}
    </Box>
  ) : (
    <Button variant="outline" height="auto" width="full" justifyContent="start" py="1" px="1" fontWeight="normal" whiteSpace="normal" title={help} data-testid={testId} data-slice={slice} onClick={() => cursor.setSlice(slice)}>
      {body}
    </Button>
  );
}

/**
 * The stent's results (issue 28): the stented segment, the MSA, the expansion against both
 * references, malapposed regions and the plaque burden beyond each edge, each with how it is
 * computed as its tooltip and, where it has a frame, a button that goes there; the criteria it
 * fails as flags; "not measurable" where a figure could not be read.
 */
export function StentResultsBlock({ results, figures, cursor, manualSlices, onResetReference }: StentResultsBlockProps) {
  if (results === null || figures === null) return null;
  if (results.segment === null) {
    return (
      <Stack as="section" aria-label="Stent results" data-testid="stent-results" px="2" py="1">
        <Text textStyle="sm" color="fg.muted">
          No stent detected
        </Text>
      </Stack>
    );
  }
  const segment = results.segment;
  const { references, edges } = figures;
  const percent = (fraction: number | null): string => (fraction === null ? NOT_MEASURABLE : `${Math.round(100 * fraction)} %`);
  const reference = (side: 'distal' | 'proximal') => {
    const ref = references[side];
    if (ref === null) return `${side} reference: ${NOT_MEASURABLE}`;
    return isMovedReference(figures, side) ? `${movedReferenceText(side, ref.frame)} · ${TWO.format(ref.areaMm2)} mm²` : `${side} reference ${TWO.format(ref.areaMm2)} mm² · slice ${ref.frame + 1}`;
  };
  const moved = (['distal', 'proximal'] as const).filter((side) => isMovedReference(figures, side));
  const corrected = manualSlices.length > 0 ? [`borders corrected by hand: slices ${manualSlices.join(', ')}`] : [];
  // The stent borders drawn by hand (contour tool): the MSA, and the expansion that divides it, read them.
  const stentCorrected = stentCorrectedSlices(results);
  const stentCorrectedLines = stentCorrected.length > 0 ? [`stent border corrected by hand: slice${stentCorrected.length > 1 ? 's' : ''} ${stentCorrected.join(', ')}`] : [];
  const stentCorrectedHelp = stentCorrectedText(results) === '' ? '' : ` ${stentCorrectedText(results)}`;
  return (
    <Stack as="section" aria-label="Stent results" data-testid="stent-results" gap="1" px="2" py="1">
      <Figure
        name="Stent"
        value={`${ONE.format(segment.lengthMm)} mm`}
        lines={[`distal edge slice ${segment.distalSlice} · proximal edge slice ${segment.proximalSlice}`]}
        help={STENT_FIGURE_HELP.segment}
        slice={segment.distalSlice}
        cursor={cursor}
        testId="stent-segment"
      />
      <Figure
        name="MSA"
        value={results.msa === null ? NOT_MEASURABLE : `${TWO.format(results.msa.areaMm2)} mm²`}
        lines={[...(results.msa === null ? [] : [`slice ${results.msa.slice}`]), ...stentCorrectedLines]}
        help={STENT_FIGURE_HELP.msa + stentCorrectedHelp}
        slice={results.msa?.slice ?? null}
        cursor={cursor}
        testId="stent-msa"
      />
      <Figure
        name="Expansion"
        value={percent(figures.expansionMean)}
        lines={[`of the mean reference · ${percent(figures.expansionDistal)} of the distal`, reference('distal'), reference('proximal'), ...corrected]}
        help={STENT_FIGURE_HELP.expansion + stentCorrectedHelp}
        slice={null}
        cursor={cursor}
        testId="stent-expansion"
      />
      {onResetReference && moved.length > 0 ? (
        <HStack gap="2" px="1" wrap="wrap">
          {moved.map((side) => (
            <Button key={side} size="2xs" variant="ghost" onClick={() => onResetReference(side)} data-testid={`stent-reset-${side}-reference`} title={`Put the ${side} reference back where the analysis takes it by default`}>
              Reset {side} reference
            </Button>
          ))}
        </HStack>
      ) : null}
      {(['distal', 'proximal'] as const).map((side) => (
        <Figure
          key={side}
          name={`Plaque burden, ${side} edge`}
          value={edges[side] === null ? NOT_MEASURABLE : `${Math.round(edges[side].maxBurdenPercent)} %`}
          lines={edges[side] === null ? [] : [`largest within 5 mm · slice ${edges[side].frame + 1}`, ...corrected]}
          help={STENT_FIGURE_HELP.edgeBurden}
          slice={edges[side] === null ? null : edges[side].frame + 1}
          cursor={cursor}
          testId={`stent-edge-${side}`}
        />
      ))}
      {results.malapposition.length === 0 ? (
        <Figure name="Malapposition" value="none" help={STENT_FIGURE_HELP.malapposition} slice={null} cursor={cursor} testId="stent-malapposition-none" />
      ) : (
        results.malapposition.map((region, k) => (
          <Figure
            key={region.firstSlice}
            name={`Malapposition ${k + 1}`}
            value={`${region.maxArcDeg}° · ${ONE.format(region.lengthMm)} mm`}
            lines={[`slices ${region.firstSlice}–${region.lastSlice}, widest at ${region.maxArcSlice}`]}
            help={STENT_FIGURE_HELP.malapposition}
            slice={region.maxArcSlice}
            cursor={cursor}
            testId={`stent-malapposition-${k + 1}`}
          />
        ))
      )}
      {figures.flags.map((flag) => (
        <Text key={flag} textStyle="sm" color="fg.error" fontWeight="semibold" data-testid={`stent-flag-${flag}`}>
          ⚑ {STENT_FLAG_TEXT[flag]}
        </Text>
      ))}
    </Stack>
  );
}
