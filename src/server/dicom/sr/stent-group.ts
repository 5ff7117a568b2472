/**
 * The stent measurement group of the SR (issue 28), written when the server's detection found a
 * stent: the stented segment (its edges' frames and length), the MSA on its frame, both reference
 * lumen areas on theirs, expansion against the mean and the distal reference, every malapposed
 * region (widest arc on its frame, length), the largest plaque burden within 5 mm of each edge on
 * its frame, the flags, the slices whose lumen or vessel border was corrected by hand, and how the
 * figures are computed. Private codes (99IVUSREV) where DICOM has none, as the calcium group:
 *
 * | concept                                   | code                                                         | unit |
 * |-------------------------------------------|--------------------------------------------------------------|------|
 * | stent distal / proximal edge              | (STENTDISTALEDGE / STENTPROXEDGE, 99IVUSREV) IMAGE of the frame |    |
 * | stent length                              | (STENTLENGTH, 99IVUSREV, "Stent length")                     | mm   |
 * | minimal stent area                        | (MSA, 99IVUSREV, "Minimal stent area") > IMAGE of its frame  | mm2  |
 * | stent distal / proximal reference lumen   | (STENTDISTALREF / STENTPROXREF, 99IVUSREV) > IMAGE           | mm2  |
 * | expansion vs mean / distal reference      | (EXPANSIONMEAN / EXPANSIONDISTAL, 99IVUSREV)                 | %    |
 * | malapposed region: widest arc, length     | (MALAPPOSITIONARC, ...) > IMAGE; (MALAPPOSITIONLENGTH, ...) | deg, mm |
 * | edge plaque burden distal / proximal      | (EDGEBURDENDISTAL / EDGEBURDENPROX, 99IVUSREV) > IMAGE       | %    |
 * | flag                                      | (STENTFLAG, 99IVUSREV) = (EXPBELOW80MEAN / EXPBELOW90DISTAL / EDGEPBDISTAL / EDGEPBPROXIMAL / MALAPPOSITION, 99IVUSREV), its whole wording as a Comment under it | |
 * | hand-corrected slices, method             | (121106, DCM, "Comment")                                     |      |
 * | slices whose stent border was drawn by hand | (STENTBYHAND, 99IVUSREV, "Stent border corrected by hand") = "slices 12, 14-16" (TEXT); absent when none was |  |
 *
 * A figure that is not measurable is left out (an SR NUM needs a number). Texts are ASCII.
 */
import { EDGE_SEGMENT_MM, type StentFigures, type StentFlag } from '../../../domain/stent/stent-analysis.ts';
import { sliceRanges } from '../../../domain/calcium/corrected-calcium.ts';
import { STENT_FIGURE_HELP, STENT_FLAG_TEXT, stentCorrectedSlices, type StentResults } from '../../../domain/stent/stent-results.ts';
import { newUid, type Naturalized } from './dcmjs.ts';
import { CODES, codeItem, codeValue, container, image, num, PRIVATE_SCHEME, text, uidRef, UNITS, type Code, type FrameReference } from './sr-content.ts';

const privateCode = (value: string, meaning: string): Code => ({ value, scheme: PRIVATE_SCHEME, meaning });

export const STENT_CODES = {
  distalEdge: privateCode('STENTDISTALEDGE', 'Stent distal edge'),
  proximalEdge: privateCode('STENTPROXEDGE', 'Stent proximal edge'),
  length: privateCode('STENTLENGTH', 'Stent length'),
  msa: privateCode('MSA', 'Minimal stent area'),
  distalReference: privateCode('STENTDISTALREF', 'Stent distal reference lumen area'),
  proximalReference: privateCode('STENTPROXREF', 'Stent proximal reference lumen area'),
  expansionMean: privateCode('EXPANSIONMEAN', 'Stent expansion (MSA / mean reference lumen area)'),
  expansionDistal: privateCode('EXPANSIONDISTAL', 'Stent expansion (MSA / distal reference lumen area)'),
  malappositionArc: privateCode('MALAPPOSITIONARC', 'Malapposition widest arc'),
  malappositionLength: privateCode('MALAPPOSITIONLENGTH', 'Malapposition length'),
  edgeBurdenDistal: privateCode('EDGEBURDENDISTAL', `Max plaque burden within ${EDGE_SEGMENT_MM} mm of the distal stent edge`),
  edgeBurdenProximal: privateCode('EDGEBURDENPROX', `Max plaque burden within ${EDGE_SEGMENT_MM} mm of the proximal stent edge`),
  flag: privateCode('STENTFLAG', 'Stent flag'),
  borderByHand: privateCode('STENTBYHAND', 'Stent border corrected by hand'),
} as const;

/** Each flag's code: an SH value (16 characters at most) and an LO meaning (64 at most); the whole wording follows in a comment. */
export const STENT_FLAG_CODES: { readonly [flag in StentFlag]: Code } = {
  'expansion-below-80-mean': privateCode('EXPBELOW80MEAN', 'MSA under 80 % of the mean reference lumen area'),
  'expansion-below-90-distal': privateCode('EXPBELOW90DISTAL', 'MSA under 90 % of the distal reference lumen area'),
  'edge-burden-distal': privateCode('EDGEPBDISTAL', `Plaque burden >= 50 % within ${EDGE_SEGMENT_MM} mm of the distal edge`),
  'edge-burden-proximal': privateCode('EDGEPBPROXIMAL', `Plaque burden >= 50 % within ${EDGE_SEGMENT_MM} mm of the proximal edge`),
  malapposition: privateCode('MALAPPOSITION', 'Malapposed struts (more than 0.4 mm off the wall)'),
};

/** An IMAGE item with a concept name: which frame is this edge. */
const named = (item: Naturalized, concept: Code): Naturalized => ({ ...item, ConceptNameCodeSequence: [codeItem(concept)] });

/** Our fixed texts hold a few typographic signs; the SR's are plain ASCII (as the calcium group's). */
const ascii = (value: string): string =>
  value.replaceAll('÷', '/').replaceAll('−', '-').replaceAll('–', '-').replaceAll('’', "'").replaceAll('≥', '>=').replaceAll('°', ' degrees').replaceAll('²', '2');

export interface StentContent {
  readonly results: StentResults;
  readonly figures: StentFigures;
  /** Slices whose lumen or vessel border was corrected by hand (the expansion and edge figures read them). */
  readonly manualSlices: readonly number[];
}

/** The group, or null where no stent was found (nothing to report but its absence, which the PDF says). */
export function stentGroup(stent: StentContent, frameOf: (slice: number) => FrameReference): Naturalized | null {
  const { results, figures, manualSlices } = stent;
  const { segment, msa } = results;
  if (segment === null) return null;
  const onFrame = (slice: number) => [image('INFERRED FROM', frameOf(slice))];
  const items: Naturalized[] = [
    named(image('CONTAINS', frameOf(segment.distalSlice)), STENT_CODES.distalEdge),
    named(image('CONTAINS', frameOf(segment.proximalSlice)), STENT_CODES.proximalEdge),
    num('CONTAINS', STENT_CODES.length, segment.lengthMm, UNITS.mm),
  ];
  if (msa !== null) items.push(num('CONTAINS', STENT_CODES.msa, msa.areaMm2, UNITS.mm2, onFrame(msa.slice)));
  const { distal, proximal } = figures.references;
  if (distal) items.push(num('CONTAINS', STENT_CODES.distalReference, distal.areaMm2, UNITS.mm2, onFrame(distal.frame + 1)));
  if (proximal) items.push(num('CONTAINS', STENT_CODES.proximalReference, proximal.areaMm2, UNITS.mm2, onFrame(proximal.frame + 1)));
  if (figures.expansionMean !== null) items.push(num('CONTAINS', STENT_CODES.expansionMean, 100 * figures.expansionMean, UNITS.percent));
  if (figures.expansionDistal !== null) items.push(num('CONTAINS', STENT_CODES.expansionDistal, 100 * figures.expansionDistal, UNITS.percent));
  for (const region of results.malapposition) {
    items.push(
      num('CONTAINS', STENT_CODES.malappositionArc, region.maxArcDeg, UNITS.deg, onFrame(region.maxArcSlice)),
      num('CONTAINS', STENT_CODES.malappositionLength, region.lengthMm, UNITS.mm, [
        image('INFERRED FROM', frameOf(region.firstSlice)),
        image('INFERRED FROM', frameOf(region.lastSlice)),
      ]),
    );
  }
  const edges = [
    [figures.edges.distal, STENT_CODES.edgeBurdenDistal],
    [figures.edges.proximal, STENT_CODES.edgeBurdenProximal],
  ] as const;
  for (const [burden, concept] of edges) if (burden) items.push(num('CONTAINS', concept, burden.maxBurdenPercent, UNITS.percent, onFrame(burden.frame + 1)));
  for (const flag of figures.flags) items.push(codeValue('CONTAINS', STENT_CODES.flag, STENT_FLAG_CODES[flag], [text('HAS PROPERTIES', CODES.comment, ascii(STENT_FLAG_TEXT[flag]))]));
  items.push(
    text(
      'CONTAINS',
      CODES.comment,
      manualSlices.length === 0
        ? 'No lumen or vessel border corrected by hand.'
        : `Lumen or vessel borders corrected by hand on slices ${manualSlices.join(', ')}: the expansion and edge figures read them.`,
    ),
  );
  // Which slices' stent area is the one the clinician drew (the MSA may be one of them), as slice ranges like the calcium group's.
  const byHand = stentCorrectedSlices(results);
  if (byHand.length > 0) items.push(text('CONTAINS', STENT_CODES.borderByHand, `slices ${sliceRanges(byHand).replaceAll('–', '-')}`));
  const method = [STENT_FIGURE_HELP.stentArea, STENT_FIGURE_HELP.msa, STENT_FIGURE_HELP.expansion, STENT_FIGURE_HELP.malapposition, STENT_FIGURE_HELP.edgeBurden].join(' ');
  items.push(text('CONTAINS', CODES.comment, ascii(method)));
  return container('CONTAINS', CODES.measurementGroup, [
    text('HAS OBS CONTEXT', CODES.trackingIdentifier, 'Stent'),
    uidRef('HAS OBS CONTEXT', CODES.trackingUid, newUid()),
    ...items,
  ]);
}
