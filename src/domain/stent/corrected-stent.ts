/**
 * The stent analysis with the stent borders the clinician corrected by hand (issue 28): on a
 * corrected frame the drawn border replaces the one fitted through the struts. Its area is the area
 * inside the drawn curve (measured as the lumen and vessel borders are, contours/measurements.ts),
 * so the MSA, and the expansion that divides it, read what the clinician drew; the malapposition
 * reads the wall against the harmonic curve nearest the drawn one (it needs the border as a radius
 * per angle around the catheter). A corrected frame outside the detected segment widens the
 * segment to it (the struts at an edge can be too faint to read), and a record whose struts gave no
 * segment at all gets one from its corrected frames. Pure.
 */
import type { Point } from '../annotations/point.ts';
import { lumenAreaMm2, measuredOutline } from '../contours/measurements.ts';
import { measureStent, type StentDetection } from './stent-analysis.ts';
import { fitStentCurve, type StentBorder } from './stent-border.ts';
import { findStentSegment, stentBorders, type StentFrameResult, type StentSegment } from './stent-segment.ts';
import type { StentFrameReading } from './strut-detection.ts';

/** Where the frames' catheter is and how large a pixel is: the drawn points are in image pixels. */
export interface StentFrameGeometry {
  readonly centreX: number;
  readonly centreY: number;
  readonly pixelSpacingMm: number;
}

/** A stent border corrected by hand on a frame (0-based here; the manifest's slice is frame + 1). */
export interface StentFrameCorrection {
  readonly frame: number;
  readonly controlPoints: readonly Point[];
}

/** A detection with the frames whose stent border was drawn by hand (0-based, ascending). */
export interface CorrectedStentDetection extends StentDetection {
  readonly correctedFrames: readonly number[];
}

/** The harmonic curve nearest the drawn border: the drawn curve sampled, each point as an angle and a radius around the catheter. */
export function drawnStentBorder(controlPoints: readonly Point[], geometry: StentFrameGeometry): StentBorder | null {
  const samples = measuredOutline(controlPoints).map((p) => {
    const dx = p.x - geometry.centreX;
    const dy = p.y - geometry.centreY;
    return { angleRad: Math.atan2(dy, dx), radiusMm: Math.hypot(dx, dy) * geometry.pixelSpacingMm };
  });
  return fitStentCurve(samples);
}

/** One corrected frame's result: the drawn border's area, and the curve nearest it for the malapposition. */
export function correctedFrameResult(controlPoints: readonly Point[], geometry: StentFrameGeometry): StentFrameResult {
  return { border: drawnStentBorder(controlPoints, geometry), areaMm2: lumenAreaMm2(controlPoints, geometry.pixelSpacingMm) };
}

/** The detected segment widened to every corrected frame (or made of them alone when the struts gave none). */
export function segmentWithCorrections(detected: StentSegment | null, correctedFrames: readonly number[], framesPerMm: number): StentSegment | null {
  if (correctedFrames.length === 0) return detected;
  const distal = Math.min(detected?.distalFrame ?? Infinity, ...correctedFrames);
  const proximal = Math.max(detected?.proximalFrame ?? -Infinity, ...correctedFrames);
  if (detected !== null && distal === detected.distalFrame && proximal === detected.proximalFrame) return detected;
  return { distalFrame: distal, proximalFrame: proximal, lengthMm: (proximal - distal) / framesPerMm };
}

/**
 * The stent of the frames read, with the corrections: the segment, each frame's border and area
 * (the drawn one on a corrected frame), the MSA over them and the malapposed regions. Corrections
 * on frames beyond the pullback are ignored (a manifest is checked against the record's slices on save).
 */
export function correctedStentDetection(
  readings: readonly (StentFrameReading | null)[],
  framesPerMm: number,
  corrections: readonly StentFrameCorrection[],
  geometry: StentFrameGeometry,
): CorrectedStentDetection {
  const byFrame = new Map(corrections.filter((c) => c.frame >= 0 && c.frame < readings.length && c.controlPoints.length >= 3).map((c) => [c.frame, c.controlPoints]));
  const correctedFrames = [...byFrame.keys()].sort((a, b) => a - b);
  const strutsByFrame = readings.map((r) => r?.struts ?? null);
  const segment = segmentWithCorrections(findStentSegment(strutsByFrame, framesPerMm), correctedFrames, framesPerMm);
  if (segment === null) return { segment: null, frames: readings.map(() => null), msa: null, malapposition: [], correctedFrames: [] };
  const frames = stentBorders(strutsByFrame, segment, framesPerMm).map((result, frame) => {
    const drawn = byFrame.get(frame);
    return drawn === undefined ? result : correctedFrameResult(drawn, geometry);
  });
  return { ...measureStent(readings, segment, frames, framesPerMm), correctedFrames };
}
