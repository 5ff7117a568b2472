/**
 * The gated figures in the exports (issue 28): when the clinician turned gating on and it found
 * cardiac cycles, the CSV adds a gated section after its per-slice table (the gated frames with
 * their areas, then the results computed on them) and the PDF report a "Gated analysis" section.
 * The per-slice table and the report's own figures keep all frames, so both readings stay side by
 * side and each is named. Pure.
 */
import type { CorrectedAnalysis, PullbackGeometry } from '../contours/corrected-analysis.ts';
import { lesionResults } from '../contours/lesion-results.ts';
import type { GatingResult } from './end-diastole.ts';
import { gatedAnalysis } from './gated-analysis.ts';

/** What the gating found, as the exports need it: 0-based end-diastolic frames and the heart rate. */
export interface GatedExportInput {
  readonly endDiastolicFrames: readonly number[];
  readonly heartRateBpm: number;
}

/** The gating to export: only while it is on and found cycles; otherwise the exports stay as they were. */
export function gatingToExport(gating: { readonly on: boolean; readonly result: GatingResult | null } | null | undefined): GatedExportInput | null {
  return gating?.on && gating.result?.kind === 'gated' ? gating.result : null;
}

export const GATED_FRAMES_CSV_HEADER = ['gated_slice', 'gated_position_mm', 'gated_lumen_area_mm2', 'gated_vessel_area_mm2', 'gated_plaque_burden_percent'] as const;
export const GATED_RESULTS_CSV_HEADER = ['gated_result', 'value', 'unit', 'slice', 'position_mm'] as const;

/** How the gated figures were computed, said once in each export. */
export const GATED_METHOD_LINES = [
  'Image-based gating (no ECG): one end-diastolic frame per cardiac cycle, the frame of least inter-frame motion;',
  'MLA, references, stenosis and lesion length searched among these frames only; the other figures use all frames.',
] as const;

/** As the per-slice table writes its figures: empty where a border is missing. */
const fixed = (value: number | null | undefined, digits: number, scale = 1) => (value === null || value === undefined ? '' : (scale * value).toFixed(digits));

/** The gated CSV section: an empty line, the gated frames' table, an empty line, the gated results' table. */
export function gatedCsvSection(all: CorrectedAnalysis, gating: GatedExportInput, geometry: PullbackGeometry): string {
  const frames = gating.endDiastolicFrames.flatMap((index) => {
    const slice = all.slices[index];
    if (!slice) return [];
    return [[slice.slice, slice.positionMm.toFixed(3), fixed(slice.areaMm2, 2), fixed(slice.vessel?.areaMm2, 2), slice.bordersCross ? '' : fixed(slice.plaqueBurden, 1, 100)].join(',')];
  });
  const gated = gatedAnalysis(all, gating.endDiastolicFrames, geometry);
  const results = lesionResults(gated);
  const row = (name: string, value: string, unit: string, at: { slice: number; positionMm: number } | null) =>
    [name, value, unit, at?.slice ?? '', at ? at.positionMm.toFixed(3) : ''].join(',');
  const resultRows = [
    row('gated_mla', fixed(results.mla?.areaMm2, 2), 'mm2', results.mla),
    row('gated_distal_reference', fixed(results.distalReference?.areaMm2, 2), 'mm2', results.distalReference),
    row('gated_proximal_reference', fixed(results.proximalReference?.areaMm2, 2), 'mm2', results.proximalReference),
    row('gated_area_stenosis', fixed(results.areaStenosisPercent, 1), '%', null),
    row('gated_lesion_length', fixed(results.lesionLengthMm, 2), 'mm', null),
    row('gated_heart_rate', String(Math.round(gating.heartRateBpm)), 'bpm', null),
    row('gated_frames', String(frames.length), 'frames', null),
    `gated_method,"${GATED_METHOD_LINES.join(' ')}",,,`,
  ];
  return `\r\n${[GATED_FRAMES_CSV_HEADER.join(','), ...frames].join('\r\n')}\r\n\r\n${[GATED_RESULTS_CSV_HEADER.join(','), ...resultRows].join('\r\n')}\r\n`;
}

/** The report's "Gated analysis" section: the gated results in short lines, then how they were computed. */
export function gatedReportSection(all: CorrectedAnalysis, gating: GatedExportInput, geometry: PullbackGeometry): { heading: string; lines: string[] } {
  const results = lesionResults(gatedAnalysis(all, gating.endDiastolicFrames, geometry));
  const frame = (f: { slice: number; positionMm: number; areaMm2: number } | null) =>
    f === null ? 'not measurable' : `${f.areaMm2.toFixed(2)} mm² at slice ${f.slice} (${f.positionMm.toFixed(1)} mm)`;
  return {
    heading: 'Gated analysis',
    lines: [
      `${gating.endDiastolicFrames.length} gated frames (end-diastole), heart rate ${String(Math.round(gating.heartRateBpm))} bpm`,
      `Gated MLA ${frame(results.mla)}`,
      `Gated distal reference ${frame(results.distalReference)}; proximal reference ${frame(results.proximalReference)}`,
      `Gated area stenosis ${results.areaStenosisPercent === null ? 'not measurable' : `${results.areaStenosisPercent.toFixed(0)} %`}; ` +
        `lesion length ${results.lesionLengthMm === null ? 'not measurable' : `${results.lesionLengthMm.toFixed(1)} mm`}`,
      ...GATED_METHOD_LINES,
    ],
  };
}
