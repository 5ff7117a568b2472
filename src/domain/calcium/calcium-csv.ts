/**
 * The calcium tables of the pullback CSV export (issue 28), appended after the export's other
 * tables with an empty line before each: the IVUS calcium score with its components and its
 * definition, then one row per slice showing calcium or whose arc was corrected (arc, where it starts
 * and ends, nodule, whether the slice's border was corrected by hand, and what the arc was measured on:
 * the detected border, the corrected border, or set by hand). Pure.
 */
import { CALCIUM_SCORE_DEFINITION, type RecordCalcium } from './record-calcium.ts';
import { sliceRanges } from './corrected-calcium.ts';

export const CALCIUM_SCORE_CSV_HEADER = ['calcium_score', 'points', 'detail'] as const;
export const CALCIUM_SLICES_CSV_HEADER = ['slice', 'position_mm', 'calcium_arc_deg', 'calcium_start_deg', 'calcium_end_deg', 'calcified_nodule', 'border_corrected_by_hand', 'calcium_measured_on'] as const;

/** Free text in one cell: quoted, quotes doubled (the texts here are ours, never a formula). */
const quoted = (text: string): string => `"${text.replaceAll('"', '""')}"`;

export function calciumCsv(calcium: RecordCalcium, mmPerSlice: number): string {
  const lines: string[] = [CALCIUM_SCORE_CSV_HEADER.join(',')];
  if (!calcium.measured) {
    lines.push(`total,,${quoted('not measurable: these contours were detected before calcium was')}`);
    return `${lines.join('\r\n')}\r\n`;
  }
  const { score } = calcium;
  const mm = (value: number | undefined) => (value === undefined ? '' : `${value.toFixed(1)} mm`);
  lines.push(
    `total,${score.total},${quoted(CALCIUM_SCORE_DEFINITION)}`,
    `arc_over_270_deg_over_5_mm,${score.longArc.point},${quoted(`longest run over 270°: ${mm(score.longArc.run?.lengthMm ?? 0)}`)}`,
    `circumferential_360_deg,${score.circumferential.point},${score.circumferential.index === null ? '' : quoted(`first at slice ${score.circumferential.index + 1}`)}`,
    `calcified_nodule,${score.nodule.point},${score.nodule.run === null ? '' : quoted(`slices ${score.nodule.run.first + 1}-${score.nodule.run.last + 1}`)}`,
    `vessel_diameter_under_3_5_mm,${score.smallVessel.point},${score.smallVessel.diameterMm === null ? quoted('no calcium') : quoted(`EEM mean diameter ${score.smallVessel.diameterMm.toFixed(2)} mm`)}`,
    `max_arc_deg,,${score.maxArc === null ? '' : quoted(`${score.maxArc.arcDeg.toFixed(1)}° at slice ${score.maxArc.index + 1}`)}`,
    `longest_calcium_mm,,${score.longestCalcium === null ? '' : quoted(mm(score.longestCalcium.lengthMm))}`,
    `measured_on_corrected_border,,${quoted(calcium.onCorrectedBorder.length === 0 ? 'none' : `slices ${sliceRanges(calcium.onCorrectedBorder)}`)}`,
    `set_by_hand,,${quoted(calcium.setByHand.length === 0 ? 'none' : `slices ${sliceRanges(calcium.setByHand)}`)}`,
  );
  const onCorrected = new Set(calcium.onCorrectedBorder);
  const byHand = new Set(calcium.setByHand);
  const borderCorrected = new Set(calcium.bordersCorrected);
  const measuredOn = (slice: number) => (byHand.has(slice) ? 'set by hand' : onCorrected.has(slice) ? 'corrected border' : 'detected border');
  const rows = calcium.bySlice.flatMap((slice, index) =>
    slice === null || (slice.arcDeg <= 0 && !byHand.has(index + 1) && !onCorrected.has(index + 1))
      ? []
      : [
          [
            index + 1,
            (index * mmPerSlice).toFixed(3),
            slice.arcDeg.toFixed(1),
            slice.startDeg.toFixed(1),
            slice.endDeg.toFixed(1),
            slice.nodule ? 'yes' : 'no',
            borderCorrected.has(index + 1) ? 'yes' : 'no',
            measuredOn(index + 1),
          ].join(','),
        ],
  );
  return `${lines.join('\r\n')}\r\n\r\n${[CALCIUM_SLICES_CSV_HEADER.join(','), ...rows].join('\r\n')}\r\n`;
}
