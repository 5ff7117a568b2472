/**
 * The stent's markers on the pullback plot (issue 28): its distal and proximal edges and its MSA
 * frame, drawn and laid out as the MLA and reference markers are (marker-labels.tsx), so their
 * labels never overlap those. The MSA label carries the expansion flag itself (the clinician sees
 * "under-expanded" on the plot without opening the results), its tooltip the figures and how they
 * are computed. It lives beside the plot (contours) because the stent folder does not import the
 * contours folder (no folder cycles).
 */
import { EXPANSION_DISTAL_LIMIT, EXPANSION_MEAN_LIMIT } from '../../../domain/stent/stent-analysis.ts';
import { STENT_FIGURE_HELP, STENT_FLAG_TEXT, stentCorrectedText } from '../../../domain/stent/stent-results.ts';
import type { SliceMarker } from './marker-labels.tsx';
import type { ShownStent } from '../stent/stent-section.tsx';

/** The stent markers' colour: the stent area curve's, so marker and curve read as one. */
export const STENT_MARKER_COLOR = '#B98CFF';
/** The MSA marker when the stent is under-expanded: a warning orange, dark text still legible on it. */
export const STENT_UNDEREXPANDED_COLOR = '#FFA24D';

const percent = (fraction: number | null): string => (fraction === null ? 'not measurable' : `${Math.round(100 * fraction)} %`);

/** Distal edge, MSA, proximal edge (distal to proximal); none when no stent was found. */
export function stentMarkers({ results, figures, manualSlices }: ShownStent): SliceMarker[] {
  const segment = results.segment;
  if (segment === null) return [];
  const underExpanded = figures.flags.some((flag) => flag === 'expansion-below-80-mean' || flag === 'expansion-below-90-distal');
  const corrected = manualSlices.length > 0 ? ` Lumen or vessel borders corrected by hand on slices ${manualSlices.join(', ')}.` : '';
  const edge = (which: 'distal' | 'proximal', slice: number): SliceMarker => ({
    slice,
    color: STENT_MARKER_COLOR,
    label: which === 'distal' ? 'Stent D' : 'Stent P',
    testId: `stent-${which}-edge-marker`,
    title: `Stent ${which} edge: slice ${slice} (stent length ${segment.lengthMm.toFixed(1)} mm). ${STENT_FIGURE_HELP.segment}`,
  });
  const markers: SliceMarker[] = [edge('distal', segment.distalSlice)];
  if (results.msa !== null) {
    const expansionFlags = figures.flags.filter((flag) => flag === 'expansion-below-80-mean' || flag === 'expansion-below-90-distal').map((flag) => STENT_FLAG_TEXT[flag]);
    markers.push({
      slice: results.msa.slice,
      color: underExpanded ? STENT_UNDEREXPANDED_COLOR : STENT_MARKER_COLOR,
      label: figures.expansionMean === null ? 'MSA' : `MSA ${percent(figures.expansionMean)}${underExpanded ? ' ⚠' : ''}`,
      testId: 'stent-msa-marker',
      title: [
        `MSA ${results.msa.areaMm2.toFixed(2)} mm² at slice ${results.msa.slice}.`,
        `Expansion ${percent(figures.expansionMean)} of the mean reference (flag under ${percent(EXPANSION_MEAN_LIMIT)}), ${percent(figures.expansionDistal)} of the distal reference (flag under ${percent(EXPANSION_DISTAL_LIMIT)}).`,
        expansionFlags.length > 0 ? `${expansionFlags.join('. ')}.` : 'Expansion not flagged.',
        STENT_FIGURE_HELP.msa,
        STENT_FIGURE_HELP.expansion + corrected,
        // The stent borders drawn by hand, where there are any (the MSA reads them).
        ...(stentCorrectedText(results) === '' ? [] : [stentCorrectedText(results)]),
      ].join(' '),
    });
  }
  markers.push(edge('proximal', segment.proximalSlice));
  return markers;
}
