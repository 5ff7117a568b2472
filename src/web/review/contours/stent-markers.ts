/**
 * The stent's markers on the pullback plot (issue 28): its distal and proximal edges and its MSA
 * frame, drawn and laid out as the MLA and reference markers are (marker-labels.tsx), so their
 * labels never overlap those. The MSA label carries the expansion flag itself (the clinician sees
 * "under-expanded" on the plot without opening the results), its tooltip the figures and how they
 * are computed. It lives beside the plot (contours) because the stent folder does not import the
 * contours folder (no folder cycles).
 */
import { EXPANSION_DISTAL_LIMIT, EXPANSION_MEAN_LIMIT } from '../../../domain/stent/stent-analysis.ts';
import { isMovedReference, movedReferenceText, referenceRange, type ReferenceSide } from '../../../domain/stent/stent-references.ts';
import { STENT_FIGURE_HELP, STENT_FLAG_TEXT, stentCorrectedText } from '../../../domain/stent/stent-results.ts';
import type { SliceMarker } from './marker-labels.tsx';
import type { ShownStent } from '../stent/stent-section.tsx';

/** The stent markers' colour: the stent area curve's, so marker and curve read as one. */
export const STENT_MARKER_COLOR = '#B98CFF';
/** The MSA marker when the stent is under-expanded: a warning orange, dark text still legible on it. */
export const STENT_UNDEREXPANDED_COLOR = '#FFA24D';

const percent = (fraction: number | null): string => (fraction === null ? 'not measurable' : `${Math.round(100 * fraction)} %`);

/** The stent's references: a lighter shade of the stent's colour, told apart from the lesion's references (green). */
export const STENT_REFERENCE_COLOR = '#DCC6FF';

/**
 * A stent reference marker (issue 28): where expansion's reference lumen area is read, movable by
 * hand along its side of the stent (drag, or arrow keys once focused) when the section can move it.
 */
function referenceMarker(stent: ShownStent, side: ReferenceSide, sliceCount: number): SliceMarker | null {
  const { figures, results } = stent;
  const reference = figures.references[side];
  const segment = results.segment;
  if (reference === null || segment === null) return null;
  const slice = reference.frame + 1;
  const moved = isMovedReference(figures, side);
  const range = referenceRange(side, { distalFrame: segment.distalSlice - 1, proximalFrame: segment.proximalSlice - 1, lengthMm: segment.lengthMm }, sliceCount);
  const { moveReference, stepReference } = stent;
  const movable = moveReference !== undefined && stepReference !== undefined && range !== null;
  return {
    slice,
    color: STENT_REFERENCE_COLOR,
    label: `Stent ${side === 'distal' ? 'D' : 'P'} ref${moved ? ' moved' : ''}`,
    testId: `stent-${side}-reference-marker`,
    title: [
      `Stent ${side} reference: lumen ${reference.areaMm2.toFixed(2)} mm² at slice ${slice}${moved ? `, ${movedReferenceText(side, reference.frame)}` : ', taken by default'}.`,
      `Expansion ${percent(figures.expansionMean)} of the mean reference, ${percent(figures.expansionDistal)} of the distal reference.`,
      movable ? 'Drag it along the plot, or focus it and use the arrow keys, to move it.' : '',
      STENT_FIGURE_HELP.expansion,
    ]
      .filter((part) => part !== '')
      .join(' '),
    ...(movable
      ? { move: { min: range.first + 1, max: range.last + 1, to: (to: number) => moveReference(side, to), by: (steps: number) => stepReference(side, steps) } }
      : {}),
  };
}

/**
 * Distal reference, distal edge, MSA, proximal edge, proximal reference (distal to proximal); none
 * when no stent was found. `sliceCount`: the record's slices (the proximal reference may go to the last).
 */
export function stentMarkers(stent: ShownStent, sliceCount = Infinity): SliceMarker[] {
  const { results, figures, manualSlices } = stent;
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
  const distalReference = referenceMarker(stent, 'distal', sliceCount);
  const markers: SliceMarker[] = [...(distalReference ? [distalReference] : []), edge('distal', segment.distalSlice)];
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
        ...(['distal', 'proximal'] as const).flatMap((side) => {
          const reference = figures.references[side];
          return reference !== null && isMovedReference(figures, side) ? [`The ${movedReferenceText(side, reference.frame)}.`] : [];
        }),
        STENT_FIGURE_HELP.msa,
        STENT_FIGURE_HELP.expansion + corrected,
        // The stent borders drawn by hand, where there are any (the MSA reads them).
        ...(stentCorrectedText(results) === '' ? [] : [stentCorrectedText(results)]),
      ].join(' '),
    });
  }
  markers.push(edge('proximal', segment.proximalSlice));
  const proximalReference = referenceMarker(stent, 'proximal', sliceCount);
  if (proximalReference) markers.push(proximalReference);
  return markers;
}
