/** Issue 23: the report made while the server still reads the stent says so, with no stent figure (none would be right yet). */
export function stentPendingReportSection(): ReportSection {
  return { heading: 'Stent', lines: ['Reading the stent: it was still being read when this report was made, so no stent figure is reported.'] };
}

/**
 * The stent section of the PDF report (issue 28): the stented segment, the MSA and its slice,
 * expansion against both references, the malapposed regions, the edge plaque burden, the flags and
 * the slices whose borders were corrected by hand, then how each figure is computed, as short lines
 * (a PDF line does not wrap itself). Pure; added to the report only once the stent has been read.
 */
import { wrapText, type ReportSection } from '../calcium/calcium-report.ts';
import { EDGE_SEGMENT_MM, type StentFigures } from './stent-analysis.ts';
import { isMovedReference, movedReferenceText } from './stent-references.ts';
import { STENT_FIGURE_HELP, STENT_FLAG_TEXT, stentCorrectedText, type StentResults } from './stent-results.ts';

const NOT_MEASURABLE = 'not measurable';
const LINE_WIDTH = 110;
const percent = (fraction: number | null): string => (fraction === null ? NOT_MEASURABLE : `${Math.round(100 * fraction)} %`);

export function stentReportSection(results: StentResults, figures: StentFigures, manualSlices: readonly number[]): ReportSection {
  const heading = 'Stent';
  const { segment, msa } = results;
  if (segment === null) return { heading, lines: ['No stent found in the frames read (no run of frames with steady struts).'] };
  const reference = (which: 'distal' | 'proximal'): string => {
    const found = figures.references[which];
    if (found === null) return `${which} reference ${NOT_MEASURABLE}`;
    return isMovedReference(figures, which) ? `${movedReferenceText(which, found.frame)}, ${found.areaMm2.toFixed(2)} mm²` : `${which} reference ${found.areaMm2.toFixed(2)} mm² at slice ${found.frame + 1}`;
  };
  const edge = (which: 'distal' | 'proximal'): string => {
    const burden = figures.edges[which];
    return burden === null ? `${which} ${NOT_MEASURABLE}` : `${which} ${Math.round(burden.maxBurdenPercent)} % at slice ${burden.frame + 1}`;
  };
  const lines = [
    `Stented segment: distal edge slice ${segment.distalSlice}, proximal edge slice ${segment.proximalSlice}, length ${segment.lengthMm.toFixed(1)} mm`,
    msa === null ? `MSA ${NOT_MEASURABLE}: no slice of the segment has a stent border` : `MSA ${msa.areaMm2.toFixed(2)} mm² at slice ${msa.slice}`,
    `Expansion ${percent(figures.expansionMean)} of the mean reference, ${percent(figures.expansionDistal)} of the distal (${reference('distal')}; ${reference('proximal')})`,
    results.malapposition.length === 0
      ? 'Malapposition: none found'
      : `Malapposition: ${results.malapposition.map((r) => `slices ${r.firstSlice}–${r.lastSlice} (${r.lengthMm.toFixed(1)} mm, widest arc ${r.maxArcDeg}° at slice ${r.maxArcSlice})`).join('; ')}`,
    `Max plaque burden within ${EDGE_SEGMENT_MM} mm of each edge: ${edge('distal')}; ${edge('proximal')}`,
    figures.flags.length === 0 ? 'Flags: none' : `Flags: ${figures.flags.map((flag) => STENT_FLAG_TEXT[flag]).join('; ')}`,
    manualSlices.length === 0
      ? 'No lumen or vessel border corrected by hand.'
      : `Lumen or vessel borders corrected by hand on slices ${manualSlices.join(', ')}: the expansion and edge figures read them.`,
    stentCorrectedText(results) || 'No stent border corrected by hand.',
  ].flatMap((line) => wrapText(line, LINE_WIDTH));
  const help = [STENT_FIGURE_HELP.stentArea, STENT_FIGURE_HELP.msa, STENT_FIGURE_HELP.expansion, STENT_FIGURE_HELP.malapposition, STENT_FIGURE_HELP.edgeBurden].flatMap((text) => wrapText(text, LINE_WIDTH));
  return { heading, lines: [...lines, ...help] };
}
