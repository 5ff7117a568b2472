/**
 * Benches only (IMAGING_TIMELINE_FILE): when each demo chunk was asked for, made on a frame
 * worker and stored, as JSON lines with wall-clock ms, so that bench/first-open-timeline.ts can
 * put the server's side of a first open beside the page's (issue 27). Off, it costs nothing.
 */
import fs from 'node:fs';

export type ImagingTimelineEvent = 'asked' | 'render-start' | 'rendered' | 'encoded' | 'stored' | 'detection-asked';

export type ImagingTimeline = (event: ImagingTimelineEvent, detail: Readonly<Record<string, string | number>>) => void;

export const NO_TIMELINE: ImagingTimeline = () => {};

export function imagingTimeline(file: string | null): ImagingTimeline {
  if (!file) return NO_TIMELINE;
  // Synchronous and small (a few lines per chunk): the order of lines is the order of events.
  return (event, detail) => fs.appendFileSync(file, `${JSON.stringify({ at: performance.timeOrigin + performance.now(), event, ...detail })}\n`);
}
