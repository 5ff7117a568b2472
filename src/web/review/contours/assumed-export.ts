import type { AcquisitionFact } from '../../../domain/records.ts';
import {
  assumedFigureNames,
  formatFrameRate,
  formatPixelSpacing,
  formatPullbackSpeed,
  isAssumed,
  type AcquisitionFigures,
} from '../../../domain/reports/acquisition-format.ts';

type Assumed = { assumed?: readonly AcquisitionFact[] | undefined };

/** The assumed figures the pullback analysis rests on (areas on pixel spacing, mm on frame rate and speed), or null when none is. */
export function analysisAssumedNote(record: Assumed, figures: AcquisitionFigures): string | null {
  const parts = [
    isAssumed(record, 'pixelSpacing') ? formatPixelSpacing(figures.pixelSpacingMm, true) : null,
    isAssumed(record, 'frameRate') ? formatFrameRate(figures.frameRateHz, true) : null,
    isAssumed(record, 'pullbackSpeed') ? formatPullbackSpeed(figures.pullbackSpeedMmPerS, true) : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? `Rests on ${parts.join(', ')}` : null;
}

/**
 * The measurements CSV with an `assumed` column naming, on every row, the figures its millimetres
 * rest on that the files did not give ('pixel spacing; pullback speed'). A spreadsheet keeps the
 * mark with each value; a comment line above the header would break CSV readers. Unchanged when
 * nothing is assumed.
 */
export function withAssumedColumn(csv: string, record: Assumed): string {
  const names = assumedFigureNames(record);
  if (names.length === 0) return csv;
  const value = names.join('; ');
  const lines = csv.split('\r\n');
  return lines.map((line, index) => (line === '' ? line : `${line},${index === 0 ? 'assumed' : value}`)).join('\r\n');
}
