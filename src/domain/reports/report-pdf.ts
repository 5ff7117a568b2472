/**
 * The one-page pullback report as a PDF, made with pdf-lib: pure JavaScript, no DOM and no Node, so
 * the browser's download and the server's Encapsulated PDF for "Send to PACS" are the same report
 * from the same code (the server makes its own rather than trusting one a browser sends).
 *
 * Names and notes are set in an embedded Unicode font (DejaVu Sans: Latin, Greek, Cyrillic and
 * common symbols) whose bytes the caller supplies: the server reads the file the product ships, the
 * browser fetches it as a static asset when a report is made, so neither pays for it otherwise.
 * The fixed headings stay in the standard Helvetica Bold.
 */
import { allAnnotations } from '../annotations/edits.ts';
import type { AnnotationManifest } from '../annotations/manifest.ts';
import { measureAnnotation } from '../annotations/kinds/index.ts';
import type { CorrectedAnalysis } from '../contours/corrected-analysis.ts';
import { lesionResults, type ResultFrame } from '../contours/lesion-results.ts';
import type { AcquisitionFact } from '../records.ts';
import { figuresLine, formatAcquisitionTime, type AcquisitionFigures } from './acquisition-format.ts';
// Types only: pdf-lib itself is loaded when a report is made (buildReportPdf).
import type { PDFDocument, PDFFont, rgb as rgbOf } from 'pdf-lib';
import { measuredOutline } from '../contours/measurements.ts';
import { grayPng, type ReportFrame, type ReportFrameRole } from './report-frames.ts';
import { drawLModeMarkers, lmodeOfLoadedFrames, type LModeMarker, type ReportLMode } from './report-lmode.ts';
import { drawableText } from './report-text.ts';

export interface ReportInput {
  /** `birthDate`: ISO YYYY-MM-DD, or null/absent when unknown. */
  patient: { name: string; patientId: string; birthDate?: string | null | undefined };
  /** `assumed`: the facts the files did not give (see ACQUISITION_FACTS). */
  record: { acquiredAt: string; modality: string; recordId: string; assumed?: readonly AcquisitionFact[] | undefined };
  result: CorrectedAnalysis;
  manifest: AnnotationManifest;
  /** The figures measurements rest on (mm from pixel spacing, positions from frame rate and pullback speed). */
  figures: AcquisitionFigures;
  /** When the report was made, shown in its footer. */
  madeAt: Date;
  /** The MLA and reference frames to show with their borders (report-frames.ts); absent where the frames are not at hand. */
  frames?: readonly { role: ReportFrameRole; slice: number; frame: ReportFrame }[] | undefined;
  /** The L-mode along the horizontal cut through the frames' centre (report-lmode.ts); absent where the frames are not at hand. */
  lmode?: ReportLMode | undefined;
  /** The frames at hand by 1-based slice (a browser's frame store): the L-mode is taken from them when `lmode` is not given and every frame it shows is loaded. */
  frameAt?: ((slice: number) => ReportFrame | null | undefined) | undefined;
  /** Who saved the annotations the report shows, and when (the record's saved version); absent or null fields while unsaved. */
  review?: { savedBy: string | null; savedAt: string | null } | null | undefined;
  /** Sections other analyses add before the annotations (issue 28: calcium), each a heading and its lines. */
  sections?: readonly { readonly heading: string; readonly lines: readonly string[] }[] | undefined;
}

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 48;
const KIND = { ruler: 'Ruler', area: 'Area', angle: 'Angle', text: 'Note' } as const;

/**
 * The report's lines about the patient and the acquisition: an acquisition date the files did not
 * give is 'unknown', and figures they did not give are marked '(assumed)', with a note saying what
 * rests on them.
 */
export function reportHeaderLines(input: Pick<ReportInput, 'patient' | 'record' | 'figures' | 'review'>): string[] {
  const { patient, record, figures, review } = input;
  const lines = [
    `Patient: ${patient.name}, ID ${patient.patientId}, born ${patient.birthDate || 'unknown'}`,
    `Record: ${record.modality}, acquired ${formatAcquisitionTime(record)}`,
    `Acquisition: ${figuresLine(record, figures)}`,
    review?.savedBy
      ? `Reviewed by ${review.savedBy}${review.savedAt ? ` on ${new Date(review.savedAt).toLocaleString('en-US')}` : ''}`
      : 'Review: annotations not saved yet',
  ];
  if (record.assumed?.some((fact) => fact !== 'acquiredAt')) {
    lines.push('Figures marked (assumed) were not in the files: lengths, areas and positions along the pullback rest on them.');
  }
  return lines;
}

/** A reference frame's figures as the report gives them: area, mean and minimal diameters, slice and position. */
const referenceText = (frame: ResultFrame | null) =>
  frame
    ? `${frame.areaMm2.toFixed(2)} mm², mean diameter ${frame.meanDiameterMm.toFixed(2)} mm (min ${frame.minDiameterMm.toFixed(2)} mm), slice ${frame.slice} at ${frame.positionMm.toFixed(1)} mm`
    : '-';

/**
 * The quantitative lines of the report: the MLA with its vessel area and plaque burden, the
 * references, the area stenosis, the maximal plaque burden, how many slices the detector flagged
 * as low confidence, how many were corrected and how many took a propagated border. Exported for the tests: the PDF's text is compressed.
 */
export function analysisLines(result: CorrectedAnalysis): string[] {
  const { slices, analysis, maxPlaqueBurden, lowConfidenceSlices, noBorderSlices, manualCount, propagatedCount } = result;
  const { mla, stenosisPercent } = analysis;
  const results = lesionResults(result);
  const atMla = mla ? slices[mla.index] : undefined;
  const burden = (fraction: number) => `${(100 * fraction).toFixed(0)} %`;
  const low = lowConfidenceSlices.length;
  // Slices the detector could not read have no border: they are counted, never measured (issue 23).
  const noBorder = noBorderSlices.length;
  const unmeasurable = slices.length > 0 && slices.every((slice) => slice.areaMm2 === null);
  const atMlaPlaque = atMla?.bordersCross ? '- (corrected borders cross)' : atMla?.plaqueBurden == null ? '- (no vessel border)' : burden(atMla.plaqueBurden);
  return [
    mla && atMla
      ? `Minimal lumen area: ${mla.areaMm2.toFixed(2)} mm² at slice ${mla.index + 1} (${atMla.positionMm.toFixed(1)} mm)`
      : `Minimal lumen area: -${unmeasurable ? ' (no slice has a lumen border)' : ''}`,
    atMla
      ? `At the MLA: ${atMla.minDiameterMm === null ? '' : `minimal lumen diameter ${atMla.minDiameterMm.toFixed(2)} mm, `}vessel area ${atMla.vessel ? `${atMla.vessel.areaMm2.toFixed(2)} mm²` : '- (no vessel border)'}, plaque burden ${atMlaPlaque}`
      : 'At the MLA: -',
    `Distal reference: ${referenceText(results.distalReference)}`,
    `Proximal reference: ${referenceText(results.proximalReference)}`,
    // The lesion runs between the two references (lesion-results.ts): what a stent's length is chosen from.
    `Area stenosis: ${stenosisPercent === null ? '-' : `${stenosisPercent.toFixed(0)} %`}; lesion length (distal to proximal reference): ${
      results.lesionLengthMm === null ? '-' : `${results.lesionLengthMm.toFixed(1)} mm`
    }`,
    maxPlaqueBurden
      ? `Maximal plaque burden: ${burden(maxPlaqueBurden.plaqueBurden)} at slice ${maxPlaqueBurden.index + 1} (${slices[maxPlaqueBurden.index]?.positionMm.toFixed(1)} mm)`
      : 'Maximal plaque burden: -',
    `Low-confidence slices (automatic borders to check): ${low}${noBorder > 0 ? `, ${noBorder} of them without a border (the detector could not read the frame)` : ''}`,
    // Borders carried from a key frame are figures nobody drew on their slice: the report says how many.
    `Contours: automatic lumen and vessel detection, ${manualCount} slice${manualCount === 1 ? '' : 's'} corrected by hand${
      propagatedCount > 0 ? `, ${propagatedCount} slice${propagatedCount === 1 ? '' : 's'} with borders propagated from those corrections` : ''
    }`,
  ];
}

/**
 * The one-page pullback report (issues 9 and 15): patient, record, MLA (with vessel area and plaque
 * burden there), reference areas and stenosis, maximal plaque burden, low-confidence count, the
 * lumen-area and plaque-burden plot, and the annotation list with measurements. pdf-lib is loaded only when a report
 * is made: the review does not pay for it otherwise, nor does a server that never sends to a PACS.
 */
export async function buildReportPdf(input: ReportInput, unicodeFont: Uint8Array): Promise<Uint8Array> {
  const [{ PDFDocument, StandardFonts, rgb }, { default: fontkit }] = await Promise.all([import('pdf-lib'), import('@pdf-lib/fontkit')]);
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  pdf.setTitle(`IVUS pullback report ${input.patient.patientId}`);
  pdf.setCreator('IVUS Review');
  let page = pdf.addPage([A4.width, A4.height]);
  // Subset: the PDF carries only the glyphs it uses, not the whole font.
  const font = await pdf.embedFont(unicodeFont, { subset: true });
  const covered = new Set(font.getCharacterSet());
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const drawable = (text: string) => drawableText(text, covered);
  let y = A4.height - MARGIN;
  const line = (text: string, size = 10, useBold = false) => {
    page.drawText(useBold ? text : drawable(text), { x: MARGIN, y, size, font: useBold ? bold : font });
    y -= size + 5;
  };

  line('IVUS pullback report', 16, true);
  y -= 4;
  const header = reportHeaderLines(input);
  header.forEach((text, index) => line(text, index < 2 ? 10 : 9));
  line(`Record id: ${input.record.recordId}`, 8);
  y -= 6;

  const { slices, analysis } = input.result;
  const { mla, references } = analysis;
  line('Quantitative analysis', 12, true);
  const figures = analysisLines(input.result);
  figures.forEach((text, index) => line(text, index === figures.length - 1 ? 9 : 10));
  y -= 8;

  // The plot: lumen area (left scale) and plaque burden (0-100 %) against slice, MLA in red, references in green.
  const plot = { x: MARGIN, y: y - 180, width: A4.width - 2 * MARGIN, height: 170 };
  page.drawRectangle({ ...plot, borderColor: rgb(0.7, 0.7, 0.7), borderWidth: 0.5 });
  const maxArea = Math.max(1, ...slices.map((s) => s.areaMm2 ?? 0)) * 1.1;
  const px = (slice: number) => plot.x + (slices.length > 1 ? ((slice - 1) / (slices.length - 1)) * plot.width : 0);
  const py = (area: number) => plot.y + (area / maxArea) * plot.height;
  const step = Math.max(1, Math.floor(slices.length / 600));
  for (let i = step; i < slices.length; i += step) {
    const a = slices[i - step]!;
    const b = slices[i]!;
    // A slice without a lumen border has no area: the curve breaks there rather than dropping to 0.
    if (a.areaMm2 !== null && b.areaMm2 !== null) {
      page.drawLine({ start: { x: px(a.slice), y: py(a.areaMm2) }, end: { x: px(b.slice), y: py(b.areaMm2) }, thickness: 0.8, color: rgb(0.2, 0.5, 0.55) });
    }
    // Slices whose corrected borders cross, or that lack a border, have no plaque burden: the curve breaks there.
    if (a.bordersCross || b.bordersCross || a.plaqueBurden === null || b.plaqueBurden === null) continue;
    const pb = (fraction: number) => plot.y + fraction * plot.height;
    page.drawLine({ start: { x: px(a.slice), y: pb(a.plaqueBurden) }, end: { x: px(b.slice), y: pb(b.plaqueBurden) }, thickness: 0.8, color: rgb(0.85, 0.5, 0.2) });
  }
  const flag = (slice: number, color: ReturnType<typeof rgb>, label: string) => {
    page.drawLine({ start: { x: px(slice), y: plot.y }, end: { x: px(slice), y: plot.y + plot.height }, thickness: 0.6, color, dashArray: [3, 2] });
    page.drawText(label, { x: px(slice) + 2, y: plot.y + plot.height - 10, size: 7, font, color });
  };
  if (references.distal) flag(references.distal.index + 1, rgb(0.1, 0.6, 0.2), 'D ref');
  if (references.proximal) flag(references.proximal.index + 1, rgb(0.1, 0.6, 0.2), 'P ref');
  if (mla) flag(mla.index + 1, rgb(0.85, 0.2, 0.1), 'MLA');
  page.drawText(`${maxArea.toFixed(0)} mm² (lumen area)`, { x: plot.x + 2, y: plot.y + plot.height + 3, size: 7, font, color: rgb(0.2, 0.5, 0.55) });
  page.drawText('100 % (plaque burden)', { x: plot.x + plot.width - 80, y: plot.y + plot.height + 3, size: 7, font, color: rgb(0.85, 0.5, 0.2) });
  page.drawText(`slice ${slices.length} · ${(slices.at(-1)?.positionMm ?? 0).toFixed(1)} mm`, { x: plot.x + plot.width - 80, y: plot.y - 10, size: 7, font });
  page.drawText('slice 1 · 0 mm', { x: plot.x, y: plot.y - 10, size: 7, font });
  y = plot.y - 28;

  const annotations = allAnnotations(input.manifest).sort((a, b) => a.slice - b.slice || a.label.localeCompare(b.label));
  const lmode = input.lmode ?? (input.frameAt ? lmodeOfLoadedFrames(slices.length, input.frameAt) : undefined);
  if (lmode) {
    // Under the plot and on its scale, so a marker on one is above the same slice on the other.
    line('L-mode (horizontal cut through the centre of each slice)', 12, true);
    const strip = { x: plot.x, y: y - 80, width: plot.width, height: 78 };
    page.drawImage(await pdf.embedPng(grayPng(lmode.image)), strip);
    const markers: LModeMarker[] = [
      ...(references.distal ? [{ slice: references.distal.index + 1, label: 'D ref', kind: 'reference' as const }] : []),
      ...(references.proximal ? [{ slice: references.proximal.index + 1, label: 'P ref', kind: 'reference' as const }] : []),
      ...(mla ? [{ slice: mla.index + 1, label: 'MLA', kind: 'mla' as const }] : []),
      ...annotations.map((a) => ({ slice: a.slice, label: drawable(a.label), kind: 'annotation' as const })),
    ];
    drawLModeMarkers(page, strip, lmode.sliceCount, markers, { font, rgb });
    y = strip.y - 26;
  }

  for (const section of input.sections ?? []) {
    // A section too long for the page continues on another.
    const roomFor = () => {
      if (y >= MARGIN + 20) return;
      page = pdf.addPage([A4.width, A4.height]);
      y = A4.height - MARGIN;
    };
    roomFor();
    line(section.heading, 12, true);
    for (const text of section.lines) {
      roomFor();
      line(text, 9);
    }
    y -= 6;
  }

  line('Annotations', 12, true);
  if (annotations.length === 0) line('None.');
  for (const annotation of annotations) {
    // Every saved measurement is in the report: a long list continues on another page.
    if (y < MARGIN + 20) {
      page = pdf.addPage([A4.width, A4.height]);
      y = A4.height - MARGIN;
      line('Annotations (continued)', 12, true);
    }
    const measured = measureAnnotation(annotation, input.figures.pixelSpacingMm);
    const value = annotation.type === 'text' ? `"${annotation.text.slice(0, 80)}"` : `${measured?.value} ${measured?.unit}`;
    line(`Slice ${annotation.slice}  ${annotation.label}  ${KIND[annotation.type]}  ${value}`, 9);
  }
  await drawFramesPage(pdf, input, { font, bold, rgb, drawable });
  const pages = pdf.getPages();
  pages.forEach((each, index) =>
    each.drawText(drawable(`Made ${input.madeAt.toLocaleString('en-US')} with IVUS Review · page ${index + 1} of ${pages.length}`), { x: MARGIN, y: MARGIN / 2, size: 7, font, color: rgb(0.4, 0.4, 0.4) }),
  );
  return pdf.save();
}

type Rgb = typeof rgbOf;

/**
 * A page of the MLA and reference frames side by side, each with its lumen (teal) and vessel
 * (orange) borders drawn over the image as vector lines, and what it is under it.
 */
async function drawFramesPage(pdf: PDFDocument, input: ReportInput, tools: { font: PDFFont; bold: PDFFont; rgb: Rgb; drawable: (text: string) => string }): Promise<void> {
  const frames = input.frames ?? [];
  if (frames.length === 0) return;
  const { font, bold, rgb, drawable } = tools;
  const page = pdf.addPage([A4.width, A4.height]);
  page.drawText('Frames', { x: MARGIN, y: A4.height - MARGIN, size: 12, font: bold });
  const gap = 12;
  const boxWidth = (A4.width - 2 * MARGIN - 2 * gap) / 3;
  const top = A4.height - MARGIN - 20;
  for (const [k, { role, slice, frame }] of frames.slice(0, 3).entries()) {
    const height = (boxWidth * frame.height) / frame.width;
    const box = { x: MARGIN + k * (boxWidth + gap), y: top - height, width: boxWidth, height };
    page.drawImage(await pdf.embedPng(grayPng(frame)), box);
    const measured = input.result.slices[slice - 1];
    const toPage = ({ x, y }: { x: number; y: number }) => ({ x: box.x + (x / frame.width) * box.width, y: box.y + box.height - (y / frame.height) * box.height });
    const outline = (points: readonly { x: number; y: number }[], color: ReturnType<Rgb>) => {
      const path = measuredOutline(points).map(toPage);
      path.forEach((start, i) => page.drawLine({ start, end: path[(i + 1) % path.length]!, thickness: 0.8, color }));
    };
    if (measured && measured.controlPoints.length >= 3) outline(measured.controlPoints, rgb(0.35, 0.8, 0.8));
    if (measured?.vessel && measured.vessel.controlPoints.length >= 3) outline(measured.vessel.controlPoints, rgb(0.95, 0.55, 0.15));
    const area = measured?.areaMm2 == null ? 'no lumen border' : `lumen ${measured.areaMm2.toFixed(2)} mm²`;
    const lines = [`${role[0]!.toUpperCase()}${role.slice(1)}`, `slice ${slice} · ${measured ? measured.positionMm.toFixed(1) : '-'} mm`, area];
    lines.forEach((text, i) => page.drawText(drawable(text), { x: box.x, y: box.y - 12 - 11 * i, size: 8, font }));
  }
}
