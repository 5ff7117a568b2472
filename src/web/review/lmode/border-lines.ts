import { CONTOUR_COLOR, VESSEL_CONTOUR_COLOR } from '../../../domain/constants.ts';
import type { ContourBorder } from '../../../domain/annotations/contour-set.ts';
import type { CorrectedAnalysis } from '../../../domain/contours/corrected-analysis.ts';
import { gatedColumns } from '../../../domain/gating/gated-analysis.ts';
import { createCutBorderSampler, frameCentre, rowOfCutDistance, type CutBorderSampler, type CutBorders } from '../../../domain/contours/lmode-borders.ts';
import type { BorderHit } from '../tools/lmode-border-tool.machine.ts';
import { lmodeXToSlice } from '../view/lmode-mapping.ts';
import type { ImagePoint, Size, ViewTransform } from '../view/view-transform.ts';
import { lmodeColumnLength } from './lmode-sampling.ts';

/**
 * The lumen and vessel borders of every frame along the L-mode cut, as four lines in L-mode image
 * coordinates (x: the frame's column, y: the row where the border crosses the cut), for both L-mode
 * views to draw and to pick a line under the pointer. The sampler (the drawn curves of 3,600 frames)
 * is built once per analysis and shared by both views; each cut angle's lines once per angle.
 */
export interface BorderLine {
  readonly border: ContourBorder;
  readonly side: 'toward' | 'away';
  /** Per frame, the image y of the line (the middle of its row); NaN where the frame has no such border. */
  readonly y: Float32Array;
}

export interface BorderLines {
  readonly frameCount: number;
  readonly columnLength: number;
  readonly angleRad: number;
  readonly lines: readonly BorderLine[];
}

/** Per frame and border, where it crosses the cut (CutBorders) turned into the L-mode's rows. */
export function borderLinesOf(borders: CutBorders, columnLength: number, angleRad: number): BorderLines {
  const lines: BorderLine[] = [];
  for (const border of ['vessel', 'lumen'] as const) {
    for (const side of ['toward', 'away'] as const) {
      const distances = borders[border][side];
      // Row k covers image y [k, k + 1): the line goes through the middle of the row.
      lines.push({ border, side, y: distances.map((d) => rowOfCutDistance(d, columnLength) + 0.5) });
    }
  }
  return { frameCount: borders.lumen.toward.length, columnLength, angleRad, lines };
}

const samplers = new WeakMap<CorrectedAnalysis, { key: string; sampler: CutBorderSampler; last: BorderLines | null }>();

/** The lines of `analysis` along the cut at `angleRad` for frames of `frame` size: from the analysis' one sampler, the last angle kept. */
export function borderLinesFor(analysis: CorrectedAnalysis, frame: Size, angleRad: number): BorderLines {
  const key = `${frame.width}x${frame.height}`;
  let entry = samplers.get(analysis);
  if (!entry || entry.key !== key) {
    entry = { key, sampler: createCutBorderSampler(analysis.slices, frameCentre(frame.width, frame.height)), last: null };
    samplers.set(analysis, entry);
  }
  if (entry.last?.angleRad !== angleRad) entry.last = borderLinesOf(entry.sampler.sample(angleRad), lmodeColumnLength(frame.width, frame.height), angleRad);
  return entry.last;
}

const gatedLines = new WeakMap<BorderLines, { frames: readonly number[]; lines: BorderLines }>();

/**
 * Gating on (issue 28): the lines as the gated L-mode shows its image, each column the border of
 * its cycle's end-diastolic frame (gated-analysis.ts gatedColumns), so the lines lose the saw-tooth
 * of cardiac motion with the image under them. The last gating of each set of lines is kept.
 */
export function gatedBorderLines(lines: BorderLines, gatedFrames: readonly number[]): BorderLines {
  const cached = gatedLines.get(lines);
  if (cached?.frames === gatedFrames) return cached.lines;
  const columns = gatedColumns(lines.frameCount, gatedFrames);
  const gated = { ...lines, lines: lines.lines.map((line) => ({ ...line, y: line.y.map((_, i) => line.y[columns[i]!]!) })) };
  gatedLines.set(lines, { frames: gatedFrames, lines: gated });
  return gated;
}

/**
 * The line nearest to an image point within `toleranceY` image rows, in the column under the point
 * (the frame the pointer is on): which border of which frame a press takes. Null off every line.
 */
export function pickBorderLine(lines: BorderLines, point: ImagePoint, toleranceY: number): BorderHit | null {
  if (lines.frameCount < 1 || point.x < 0 || point.x >= lines.frameCount) return null;
  const slice = lmodeXToSlice(point.x, lines.frameCount, lines.frameCount);
  let best: BorderHit | null = null;
  let bestDistance = toleranceY;
  for (const line of lines.lines) {
    const distance = Math.abs(line.y[slice - 1]! - point.y);
    // The lumen is listed last: where the two lines touch, the inner one wins on a tie.
    if (distance <= bestDistance) {
      bestDistance = distance;
      best = { slice, border: line.border, side: line.side };
    }
  }
  return best;
}

/** What a line is traced on: a 2D canvas context or a Pixi Graphics (panels/frame-lines.ts). */
export interface LinePath {
  moveTo(x: number, y: number): unknown;
  lineTo(x: number, y: number): unknown;
}

/**
 * Traces one line in screen pixels (`transform` maps image to screen), broken where a frame has no
 * border; false if no frame has it. Where many frames share a screen pixel only the first point of
 * each pixel column is visited, so a 3,600-frame pullback in 500 px costs 500 segments a line.
 */
export function traceBorderLine(path: LinePath, line: BorderLine, transform: ViewTransform): boolean {
  let drawing = false;
  let traced = false;
  let lastX = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < line.y.length; i++) {
    const y = line.y[i]!;
    if (!Number.isFinite(y)) {
      drawing = false;
      continue;
    }
    const sx = transform.x + (i + 0.5) * transform.scaleX;
    if (drawing && sx - lastX < 1 && i < line.y.length - 1) continue;
    const sy = transform.y + y * transform.scaleY;
    if (drawing) path.lineTo(sx, sy);
    else path.moveTo(sx, sy);
    drawing = true;
    traced = true;
    lastX = sx;
  }
  return traced;
}

/** The lines' colours: the B-mode borders'. */
export const BORDER_LINE_COLOURS: Record<ContourBorder, string> = { lumen: CONTOUR_COLOR, vessel: VESSEL_CONTOUR_COLOR };

/** The lines' width in CSS pixels, whatever the zoom, in both views. */
export const BORDER_LINE_WIDTH_PX = 1.5;

/** Strokes the lines on a 2D canvas in screen pixels (the strip's view): one path per line. */
export function strokeBorderLines(context: CanvasRenderingContext2D, lines: BorderLines, transform: ViewTransform, colours: Record<ContourBorder, string>, lineWidth = BORDER_LINE_WIDTH_PX): void {
  context.lineWidth = lineWidth;
  context.lineJoin = 'round';
  for (const line of lines.lines) {
    context.beginPath();
    context.strokeStyle = colours[line.border];
    traceBorderLine(context, line, transform);
    context.stroke();
  }
}

/** A panel that draws the lines in its own WebGL scene, over its L-mode image (the L-mode panel's controller). */
export interface BorderLinesTarget {
  setBorderLines(lines: BorderLines | null): void;
}
