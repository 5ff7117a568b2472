/**
 * The L-mode of the report (issue 26): the pullback seen along its length, each slice's pixels on
 * the horizontal cut through the frame's centre, one column per slice, with the MLA, the
 * references and the annotations marked on it. The frames are fed one at a time (the server reads
 * them chunk by chunk), and the image is bounded whatever the pullback's length or frame size: at
 * most LMODE_MAX_COLUMNS columns (slices sampled evenly) of at most LMODE_MAX_ROWS pixels.
 */
import type { PDFFont, PDFPage, RGB } from 'pdf-lib';
import type { ReportFrame } from './report-frames.ts';

export const LMODE_MAX_COLUMNS = 1200;
export const LMODE_MAX_ROWS = 256;

/** The L-mode image and how many slices its width spans (column c shows slice 1 + floor(c x sliceCount / width)). */
export interface ReportLMode {
  readonly image: ReportFrame;
  readonly sliceCount: number;
}

export interface LModeCollector {
  /** Whether frame `index` (0-based) is one the image shows: the others need not be read. */
  wants(index: number): boolean;
  /** Adds frame `index` (frameWidth x frameHeight grey bytes); frames not wanted are ignored. */
  add(index: number, pixels: Uint8Array): void;
  result(): ReportLMode;
}

/** Collects the L-mode of a pullback of `sliceCount` frames of frameWidth x frameHeight. */
export function lmodeCollector(sliceCount: number, frameWidth: number, frameHeight: number): LModeCollector {
  const width = Math.max(1, Math.min(sliceCount, LMODE_MAX_COLUMNS));
  const height = Math.max(1, Math.min(frameWidth, LMODE_MAX_ROWS));
  const pixels = new Uint8Array(width * height);
  const cutRow = Math.floor(frameHeight / 2);
  // The first slice of each column is the one it shows.
  const columnOf = (index: number) => Math.floor((index * width) / sliceCount);
  const wants = (index: number) => index >= 0 && index < sliceCount && (index === 0 || columnOf(index) !== columnOf(index - 1));
  return {
    wants,
    add(index, frame) {
      if (!wants(index) || frame.length < frameWidth * frameHeight) return;
      const column = columnOf(index);
      for (let row = 0; row < height; row++) pixels[row * width + column] = frame[cutRow * frameWidth + Math.floor((row * frameWidth) / height)]!;
    },
    result: () => ({ image: { width, height, pixels }, sliceCount }),
  };
}

/**
 * The L-mode from frames at hand (a browser's frame store, `frameAt` by 1-based slice): undefined
 * unless every frame it shows is loaded, so a report never shows an L-mode with holes.
 */
export function lmodeOfLoadedFrames(sliceCount: number, frameAt: (slice: number) => ReportFrame | null | undefined): ReportLMode | undefined {
  const first = sliceCount > 0 ? frameAt(1) : null;
  if (!first) return undefined;
  const collector = lmodeCollector(sliceCount, first.width, first.height);
  for (let index = 0; index < sliceCount; index++) {
    if (!collector.wants(index)) continue;
    const frame = frameAt(index + 1);
    if (!frame || frame.width !== first.width || frame.height !== first.height) return undefined;
    collector.add(index, frame.pixels);
  }
  return collector.result();
}

export interface LModeMarker {
  readonly slice: number;
  readonly label: string;
  readonly kind: 'mla' | 'reference' | 'annotation';
}

type Box = { x: number; y: number; width: number; height: number };

/**
 * Draws the markers over an L-mode image drawn in `box` (slice 1 at its left edge, the last slice at
 * its right, as the plot above it): the MLA and references as lines across it, annotations as ticks
 * under it, each labelled.
 */
export function drawLModeMarkers(page: PDFPage, box: Box, sliceCount: number, markers: readonly LModeMarker[], tools: { font: PDFFont; rgb: (r: number, g: number, b: number) => RGB }): void {
  const { font, rgb } = tools;
  const xOf = (slice: number) => box.x + (sliceCount > 1 ? ((slice - 1) / (sliceCount - 1)) * box.width : 0);
  const colours = { mla: rgb(0.9, 0.1, 0.05), reference: rgb(0.1, 0.75, 0.2), annotation: rgb(0.95, 0.75, 0.1) };
  for (const { slice, label, kind } of markers) {
    const x = xOf(slice);
    const color = colours[kind];
    if (kind === 'annotation') {
      page.drawLine({ start: { x, y: box.y - 6 }, end: { x, y: box.y }, thickness: 1.2, color });
      page.drawText(label, { x: x - 2, y: box.y - 14, size: 6, font, color: rgb(0.35, 0.3, 0.05) });
    } else {
      page.drawLine({ start: { x, y: box.y }, end: { x, y: box.y + box.height }, thickness: 1.4, color });
      page.drawText(label, { x: x + 2, y: box.y + box.height + 2, size: 7, font, color });
    }
  }
}
