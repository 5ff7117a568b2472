/**
 * The stent results as the review, the CSV, the PDF and the SR read them (issue 28): the wire form
 * of a stent detection (slices 1-based, as everywhere in the review; what a record's detection
 * would store and send), the words every figure is explained with, the flags' wording, and the
 * CSV section. The figures that depend on the lumen and vessel borders (expansion, edge plaque
 * burden) are computed again from the corrected borders (stent-analysis.ts: stentFigures).
 */
import { z } from 'zod';
import { MALAPPOSITION_MM } from './malapposition.ts';
import {
  EDGE_BURDEN_LIMIT_PERCENT,
  EDGE_SEGMENT_MM,
  EXPANSION_DISTAL_LIMIT,
  EXPANSION_MEAN_LIMIT,
  REFERENCE_SEARCH_MM,
  type StentDetection,
  type StentFigures,
  type StentFlag,
} from './stent-analysis.ts';
import { movedReferenceText } from './stent-references.ts';

const slice = z.number().int().min(1);
const roundTo = (value: number, decimals: number): number => Math.round(value * 10 ** decimals) / 10 ** decimals;

export const StentResultsSchema = z.object({
  segment: z.object({ distalSlice: slice, proximalSlice: slice, lengthMm: z.number().nonnegative() }).nullable(),
  /** Every slice of the segment: its stent border (the five harmonic coefficients, stent-border.ts) and area; null where not measurable. */
  slices: z.array(
    z.object({
      slice,
      border: z.array(z.number()).length(5).nullable(),
      areaMm2: z.number().nonnegative().nullable(),
      /** 'manual': the clinician drew this slice's stent border by hand (its area is the drawn one); absent: fitted through the struts. */
      source: z.literal('manual').optional(),
    }),
  ),
  msa: z.object({ slice, areaMm2: z.number().nonnegative() }).nullable(),
  malapposition: z.array(
    z.object({
      firstSlice: slice,
      lastSlice: slice,
      lengthMm: z.number().nonnegative(),
      maxArcDeg: z.number().min(0).max(360),
      maxArcSlice: slice,
    }),
  ),
});
export type StentResults = z.infer<typeof StentResultsSchema>;

/** The wire form of a detection (frame f is slice f + 1). */
export function stentResults(detection: StentDetection & { readonly correctedFrames?: readonly number[] }): StentResults {
  const segment = detection.segment;
  const corrected = new Set(detection.correctedFrames ?? []);
  return {
    segment: segment === null ? null : { distalSlice: segment.distalFrame + 1, proximalSlice: segment.proximalFrame + 1, lengthMm: roundTo(segment.lengthMm, 2) },
    slices: detection.frames.flatMap((result, frame) =>
      result === null
        ? []
        : [
            {
              slice: frame + 1,
              border: result.border === null ? null : result.border.coefficients.map((c) => roundTo(c, 4)),
              areaMm2: result.areaMm2 === null ? null : roundTo(result.areaMm2, 3),
              ...(corrected.has(frame) ? { source: 'manual' as const } : {}),
            },
          ],
    ),
    msa: detection.msa === null ? null : { slice: detection.msa.frame + 1, areaMm2: roundTo(detection.msa.areaMm2, 3) },
    malapposition: detection.malapposition.map((r) => ({
      firstSlice: r.firstFrame + 1,
      lastSlice: r.lastFrame + 1,
      lengthMm: roundTo(r.lengthMm, 2),
      maxArcDeg: Math.round(r.maxArcDeg),
      maxArcSlice: r.maxArcFrame + 1,
    })),
  };
}

const percent = (fraction: number): string => `${Math.round(100 * fraction)} %`;

/** How each figure is computed: the tooltip or legend beside it. */
export const STENT_FIGURE_HELP = {
  stentArea:
    'Stent area: inside the stent border, a smooth closed curve fitted through the struts (bright short arcs with a shadow behind) of the frames within 0.2 mm.',
  segment: 'Stented segment: from the first to the last frame whose struts are seen steadily (distal edge to proximal edge).',
  msa: 'MSA: the smallest stent area over the stented segment, and its frame; frames whose struts cannot carry a border are not measurable and take no part. On a frame whose stent border was corrected by hand, the area inside the drawn border.',
  expansion: `Expansion: MSA ÷ mean of the distal and proximal reference lumen areas (flag under ${percent(EXPANSION_MEAN_LIMIT)}), and MSA ÷ distal reference lumen area (flag under ${percent(EXPANSION_DISTAL_LIMIT)}). References: the results' reference frames if they lie beyond the stent's edges, else the largest lumen within ${REFERENCE_SEARCH_MM} mm beyond each edge; both can be moved.`,
  malapposition: `Malapposition: where the wall lies more than ${MALAPPOSITION_MM} mm beyond the stent border (IVUS consensus), with its widest arc and its length along the pullback.`,
  edgeBurden: `Edge plaque burden: the largest (EEM − lumen) ÷ EEM within ${EDGE_SEGMENT_MM} mm beyond each stent edge, from the lumen and vessel borders (corrected ones where corrected); flag at ${EDGE_BURDEN_LIMIT_PERCENT} % or more.`,
} as const;

/** The flags' wording, as the results block, the PDF and the SR say them. */
export const STENT_FLAG_TEXT: { readonly [flag in StentFlag]: string } = {
  'expansion-below-80-mean': `Under-expanded: MSA under ${percent(EXPANSION_MEAN_LIMIT)} of the mean reference lumen area`,
  'expansion-below-90-distal': `MSA under ${percent(EXPANSION_DISTAL_LIMIT)} of the distal reference lumen area`,
  'edge-burden-distal': `Plaque burden of ${EDGE_BURDEN_LIMIT_PERCENT} % or more within ${EDGE_SEGMENT_MM} mm of the distal edge`,
  'edge-burden-proximal': `Plaque burden of ${EDGE_BURDEN_LIMIT_PERCENT} % or more within ${EDGE_SEGMENT_MM} mm of the proximal edge`,
  malapposition: `Malapposed struts (more than ${MALAPPOSITION_MM} mm off the wall)`,
};

const NOT_MEASURABLE = 'not measurable';

/** The slices whose stent border the clinician corrected by hand (ascending). */
export function stentCorrectedSlices(results: StentResults): number[] {
  return results.slices.filter((s) => s.source === 'manual').map((s) => s.slice);
}

/** What the figures say of the stent borders corrected by hand: empty when none was. */
export function stentCorrectedText(results: StentResults): string {
  const slices = stentCorrectedSlices(results);
  return slices.length === 0 ? '' : `Stent border corrected by hand on slice${slices.length > 1 ? 's' : ''} ${slices.join(', ')}: the stent area there is the drawn one.`;
}

/**
 * Issue 23: the CSV made while the server still reads the stent says so in the stent's table, with
 * no figure (a partial reading could be wrong, and "none detected" would be).
 */
export function stentPendingCsvSection(): string {
  return ['Stent figure,Value,Unit,Slice', 'Stent,still being read when this file was made (no figures),,'].join('\n') + '\n';
}

/**
 * The CSV's stent section: one figure a line (name, value, unit, slice), after the per-slice table.
 * `manualSlices` are the slices whose lumen or vessel border was corrected by hand, as the figures
 * that read them must say.
 */
export function stentCsvSection(results: StentResults, figures: StentFigures, manualSlices: readonly number[]): string {
  const rows: string[][] = [['Stent figure', 'Value', 'Unit', 'Slice']];
  const fixed = (v: number | null | undefined, digits: number): string => (v === null || v === undefined ? NOT_MEASURABLE : v.toFixed(digits));
  if (results.segment === null) {
    rows.push(['Stent', 'none detected', '', '']);
    return rows.map((r) => r.join(',')).join('\n') + '\n';
  }
  rows.push(['Stent distal edge', '', '', String(results.segment.distalSlice)]);
  rows.push(['Stent proximal edge', '', '', String(results.segment.proximalSlice)]);
  rows.push(['Stent length', fixed(results.segment.lengthMm, 1), 'mm', '']);
  rows.push(['MSA', fixed(results.msa?.areaMm2, 2), 'mm2', results.msa ? String(results.msa.slice) : '']);
  rows.push(['Distal reference lumen area', fixed(figures.references.distal?.areaMm2, 2), 'mm2', figures.references.distal ? String(figures.references.distal.frame + 1) : '']);
  rows.push(['Proximal reference lumen area', fixed(figures.references.proximal?.areaMm2, 2), 'mm2', figures.references.proximal ? String(figures.references.proximal.frame + 1) : '']);
  for (const side of figures.movedReferences ?? []) {
    const moved = figures.references[side];
    if (moved) rows.push(['Stent reference moved by hand', `"${movedReferenceText(side, moved.frame)}"`, '', String(moved.frame + 1)]);
  }
  rows.push(['Expansion (MSA / mean reference)', figures.expansionMean === null ? NOT_MEASURABLE : (100 * figures.expansionMean).toFixed(0), '%', '']);
  rows.push(['Expansion (MSA / distal reference)', figures.expansionDistal === null ? NOT_MEASURABLE : (100 * figures.expansionDistal).toFixed(0), '%', '']);
  for (const edge of ['distal', 'proximal'] as const) {
    const burden = figures.edges[edge];
    rows.push([`Max plaque burden within ${EDGE_SEGMENT_MM} mm of the ${edge} edge`, fixed(burden?.maxBurdenPercent, 0), '%', burden ? String(burden.frame + 1) : '']);
  }
  results.malapposition.forEach((region, k) => {
    rows.push([`Malapposition ${k + 1} arc`, String(region.maxArcDeg), 'deg', String(region.maxArcSlice)]);
    rows.push([`Malapposition ${k + 1} length`, region.lengthMm.toFixed(1), 'mm', `${region.firstSlice}-${region.lastSlice}`]);
  });
  for (const flag of figures.flags) rows.push(['Flag', `"${STENT_FLAG_TEXT[flag]}"`, '', '']);
  if (manualSlices.length > 0) rows.push(['Borders corrected by hand', `"${manualSlices.join(' ')}"`, '', '']);
  const stentCorrected = stentCorrectedSlices(results);
  if (stentCorrected.length > 0) rows.push(['Stent border corrected by hand', `"${stentCorrected.join(' ')}"`, '', '']);
  return rows.map((r) => r.join(',')).join('\n') + '\n';
}
