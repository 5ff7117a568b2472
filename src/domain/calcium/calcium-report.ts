/**
 * The calcium section of the PDF report (issue 28): the score with its components, the figures it
 * rests on, the slices corrected by hand, and the score's definition, as short lines. Pure.
 */
import { CALCIUM_SCORE_DEFINITION, type RecordCalcium } from './record-calcium.ts';
import { sliceRanges } from './corrected-calcium.ts';

export interface ReportSection {
  readonly heading: string;
  readonly lines: readonly string[];
}

/** Splits text into lines of at most `width` characters at spaces (a PDF line does not wrap itself). */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    if (current !== '' && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  if (current !== '') lines.push(current);
  return lines;
}

export function calciumReportSection(calcium: RecordCalcium): ReportSection {
  if (!calcium.measured) return { heading: 'Calcium', lines: ['Not measurable: these contours were detected before calcium was.'] };
  const { score } = calcium;
  const lines = [
    `IVUS calcium score ${score.total} / 4: > 270° over > 5 mm ${score.longArc.point}, 360° ${score.circumferential.point}, ` +
      `calcified nodule ${score.nodule.point}, vessel Ø < 3.5 mm ${score.smallVessel.point}`,
    score.maxArc === null
      ? 'No calcium found on the slices the detector read.'
      : `Largest arc ${score.maxArc.arcDeg.toFixed(0)}° at slice ${score.maxArc.index + 1}; longest calcium ${(score.longestCalcium?.lengthMm ?? 0).toFixed(1)} mm; ` +
        `> 270° over ${(score.longArc.run?.lengthMm ?? 0).toFixed(1)} mm; EEM mean Ø ${score.smallVessel.diameterMm === null ? 'not measurable' : `${score.smallVessel.diameterMm.toFixed(2)} mm`} beside the largest arc`,
    ...(calcium.onCorrectedBorder.length > 0 ? wrapText(`Arc measured on the lumen border corrected by hand: slices ${sliceRanges(calcium.onCorrectedBorder)}.`, 110) : []),
    ...(calcium.setByHand.length > 0 ? wrapText(`Arc set by hand: slices ${sliceRanges(calcium.setByHand)}.`, 110) : []),
    ...(calcium.handCorrected.length > 0 ? wrapText(`Border corrected by hand, arc still read on the detected border (its frame not re-read: not loaded yet): slices ${sliceRanges(calcium.handCorrected)}.`, 110) : []),
    ...wrapText(CALCIUM_SCORE_DEFINITION, 110),
  ];
  return { heading: 'Calcium', lines };
}
