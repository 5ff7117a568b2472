import { LOCALE } from '../constants.ts';
import type { AcquisitionFact } from '../records.ts';
import { formatDate } from './format-date.ts';

/**
 * How a record's acquisition facts are written wherever they are shown (review, records list,
 * report, CSV). A figure the files did not give is a stand-in chosen by the import: it is written
 * with "(assumed)", and an acquisition date the files did not give is "unknown", so an invented
 * figure is never read as a measured one.
 */
export const ASSUMED = '(assumed)';
export const UNKNOWN_DATE = 'unknown';

/** The part of a record these helpers read. */
export interface AcquisitionFacts {
  acquiredAt: string;
  assumed?: readonly AcquisitionFact[] | undefined;
}

export function isAssumed(record: { assumed?: readonly AcquisitionFact[] | undefined }, fact: AcquisitionFact): boolean {
  return record.assumed?.includes(fact) ?? false;
}

const withAssumed = (text: string, assumed: boolean) => (assumed ? `${text} ${ASSUMED}` : text);

/** '03/12/26', or 'unknown' when the files gave no acquisition date (the record then holds the import's time). */
export function formatAcquisitionDate(record: AcquisitionFacts): string {
  return isAssumed(record, 'acquiredAt') ? UNKNOWN_DATE : formatDate(record.acquiredAt) || UNKNOWN_DATE;
}

/** '03/12/26, 10:15 AM' for the report, or 'unknown'. */
export function formatAcquisitionTime(record: AcquisitionFacts): string {
  const date = new Date(record.acquiredAt);
  return isAssumed(record, 'acquiredAt') || Number.isNaN(date.getTime()) ? UNKNOWN_DATE : date.toLocaleString(LOCALE);
}

const SPACING = new Intl.NumberFormat(LOCALE, { maximumSignificantDigits: 3 });
const RATE = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 2 });

/** '0.01 mm/px', '0.01 mm/px (assumed)'. */
export function formatPixelSpacing(mm: number, assumed: boolean): string {
  return withAssumed(`${SPACING.format(mm)} mm/px`, assumed);
}

/** '30 frames/s', '30 frames/s (assumed)'. */
export function formatFrameRate(hz: number, assumed: boolean): string {
  return withAssumed(`${RATE.format(hz)} frames/s`, assumed);
}

/** '0.5 mm/s', '0.5 mm/s (assumed)'. */
export function formatPullbackSpeed(mmPerS: number, assumed: boolean): string {
  return withAssumed(`${RATE.format(mmPerS)} mm/s`, assumed);
}

/** Positions along the pullback (mm) come from the frame rate and the pullback speed: assumed when either is. */
export function positionAssumed(record: { assumed?: readonly AcquisitionFact[] | undefined }): boolean {
  return isAssumed(record, 'frameRate') || isAssumed(record, 'pullbackSpeed');
}

/** The figures a record's measurements rest on. */
export interface AcquisitionFigures {
  pixelSpacingMm: number;
  frameRateHz: number;
  pullbackSpeedMmPerS: number;
}

/**
 * The figures measurements rest on: '0.01 mm/px (assumed) · 30 frames/s · 0.5 mm/s (assumed)'. A
 * figure not known yet (the record's image lists still loading) is left out rather than guessed.
 */
export function figuresLine(record: Omit<AcquisitionFacts, 'acquiredAt'>, figures: Partial<AcquisitionFigures>): string {
  const { pixelSpacingMm, frameRateHz, pullbackSpeedMmPerS } = figures;
  return [
    pixelSpacingMm === undefined ? null : formatPixelSpacing(pixelSpacingMm, isAssumed(record, 'pixelSpacing')),
    frameRateHz === undefined ? null : formatFrameRate(frameRateHz, isAssumed(record, 'frameRate')),
    pullbackSpeedMmPerS === undefined ? null : formatPullbackSpeed(pullbackSpeedMmPerS, isAssumed(record, 'pullbackSpeed')),
  ]
    .filter((part) => part !== null)
    .join(' · ');
}

/** One line naming the acquisition and its figures: 'Acquired unknown · 0.01 mm/px (assumed) · 30 frames/s · 0.5 mm/s'. */
export function acquisitionLine(record: AcquisitionFacts, figures: Partial<AcquisitionFigures>): string {
  const known = figuresLine(record, figures);
  return `Acquired ${formatAcquisitionDate(record)}${known ? ` · ${known}` : ''}`;
}

/** A record's title: 'Record of 03/12/26', or 'Record, acquisition date unknown'. */
export function recordTitle(prefix: string, record: AcquisitionFacts): string {
  const date = formatAcquisitionDate(record);
  return date === UNKNOWN_DATE ? `${prefix}, acquisition date unknown` : `${prefix} of ${date}`;
}

const FIGURE_NAMES = { pixelSpacing: 'pixel spacing', frameRate: 'frame rate', pullbackSpeed: 'pullback speed' } as const;

/** Names of the assumed figures (not the date), in a fixed order: ['pixel spacing', 'pullback speed']. */
export function assumedFigureNames(record: { assumed?: readonly AcquisitionFact[] | undefined }): string[] {
  return (Object.keys(FIGURE_NAMES) as (keyof typeof FIGURE_NAMES)[]).filter((fact) => isAssumed(record, fact)).map((fact) => FIGURE_NAMES[fact]);
}

/** Which run of its day a record is: the 2nd of 3 pullbacks that patient had that day. */
export interface RunOfDay {
  run: number;
  of: number;
}

/**
 * Numbers each patient's records within their day of acquisition (the day as formatAcquisitionDate
 * shows it), earliest first: a clinician tells "pre-PCI" from "post-PCI" runs of one procedure apart.
 * A record whose date is unknown gets no number.
 */
export function runsOfDay(records: readonly (AcquisitionFacts & { recordId: string })[]): Map<string, RunOfDay> {
  const byDay = new Map<string, (AcquisitionFacts & { recordId: string })[]>();
  for (const record of records) {
    const day = formatAcquisitionDate(record);
    if (day === UNKNOWN_DATE) continue;
    byDay.set(day, [...(byDay.get(day) ?? []), record]);
  }
  const runs = new Map<string, RunOfDay>();
  for (const day of byDay.values()) {
    day.sort((a, b) => Date.parse(a.acquiredAt) - Date.parse(b.acquiredAt) || a.recordId.localeCompare(b.recordId));
    day.forEach((record, index) => runs.set(record.recordId, { run: index + 1, of: day.length }));
  }
  return runs;
}

/** The time of day of the acquisition ("14:05"), or null when the date is unknown. */
export function formatAcquisitionClock(record: AcquisitionFacts): string | null {
  const date = new Date(record.acquiredAt);
  if (isAssumed(record, 'acquiredAt') || Number.isNaN(date.getTime())) return null;
  return date.toLocaleTimeString(LOCALE, { hour: '2-digit', minute: '2-digit' });
}
