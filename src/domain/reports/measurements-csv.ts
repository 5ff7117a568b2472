/**
 * The clinician's own measurements as CSV rows (issue 26): one row per ruler, area, angle and note of
 * the manifest, with its slice and position along the pullback, appended as a second table under
 * the per-slice table of the pullback export (corrected-analysis.ts measurementsCsv), after an
 * empty line, with its own header. Pure.
 */
import { allAnnotations } from '../annotations/edits.ts';
import { measureAnnotation } from '../annotations/kinds/index.ts';
import type { AnnotationManifest } from '../annotations/manifest.ts';
import type { AcquisitionFigures } from './acquisition-format.ts';

export const MEASUREMENTS_CSV_HEADER = ['measurement', 'slice', 'position_mm', 'kind', 'value', 'unit', 'note'] as const;

const KIND = { ruler: 'length', area: 'area', angle: 'angle', text: 'note' } as const;

/**
 * One CSV cell of free text: quoted (commas, quotes and line breaks stay inside), and a cell a
 * spreadsheet would run as a formula (=, +, -, @, tab or carriage return first) is kept as text.
 */
export function textCell(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** The measurement table: its header and one row per annotation, by slice then label. */
export function userMeasurementsCsv(manifest: AnnotationManifest, figures: AcquisitionFigures): string {
  const annotations = allAnnotations(manifest).sort((a, b) => a.slice - b.slice || a.label.localeCompare(b.label) || a.type.localeCompare(b.type));
  const rows = annotations.map((annotation) => {
    const measured = annotation.type === 'text' ? null : measureAnnotation(annotation, figures.pixelSpacingMm);
    const positionMm = ((annotation.slice - 1) / figures.frameRateHz) * figures.pullbackSpeedMmPerS;
    return [
      annotation.label,
      annotation.slice,
      positionMm.toFixed(3),
      KIND[annotation.type],
      measured?.value ?? '',
      measured?.unit ?? '',
      annotation.type === 'text' ? textCell(annotation.text) : '',
    ].join(',');
  });
  return `${[MEASUREMENTS_CSV_HEADER.join(','), ...rows].join('\r\n')}\r\n`;
}

/** The pullback export: the per-slice table, an empty line, then the measurement table. */
export function pullbackExportCsv(slicesCsv: string, manifest: AnnotationManifest, figures: AcquisitionFigures): string {
  return `${slicesCsv}\r\n${userMeasurementsCsv(manifest, figures)}`;
}
