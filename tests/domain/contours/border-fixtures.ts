/**
 * Synthetic detected pullbacks for the key-frame tests: round lumen and vessel borders about the
 * frame centre, with the radius per slice chosen by the test, and slices the detector could not read.
 */
import type { Point } from '../../../src/domain/annotations/point.ts';
import type { DetectedContour, RecordContours } from '../../../src/domain/contours/api.ts';
import { lumenAreaMm2 } from '../../../src/domain/contours/measurements.ts';

export const CENTRE: Point = { x: 256, y: 256 };
export const PIXEL_SPACING_MM = 0.01;
/** 30 frames/s at 0.5 mm/s: 60 frames per mm, so 2 mm is 120 frames and 2 cm 1,200. */
export const GEOMETRY = { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };
export const FRAMES_PER_MM = 60;

/** A circle of `radius` px about `centre` as `count` control points. */
export const circle = (radius: number, count = 16, centre: Point = CENTRE): Point[] =>
  Array.from({ length: count }, (_, i) => ({ x: centre.x + radius * Math.cos((i / count) * 2 * Math.PI), y: centre.y + radius * Math.sin((i / count) * 2 * Math.PI) }));

/** Area in mm² of the circle of `radius` px, as measured (the smooth curve through 16 points). */
export const circleAreaMm2 = (radius: number) => lumenAreaMm2(circle(radius), PIXEL_SPACING_MM);

/** Mean distance of a border's control points from the centre: the radius of a round border. */
export const meanRadius = (points: readonly Point[], centre: Point = CENTRE) => points.reduce((sum, p) => sum + Math.hypot(p.x - centre.x, p.y - centre.y), 0) / points.length;

export interface PullbackShape {
  readonly frames: number;
  /** Detected lumen radius (px) of a 1-based slice. */
  readonly lumen: (slice: number) => number;
  /** Detected vessel radius (px); 200 unless given. */
  readonly vessel?: (slice: number) => number;
  /** Slices the detector could not read. */
  readonly unreadable?: (slice: number) => boolean;
}

export function detectedPullback(shape: PullbackShape): RecordContours {
  const contours = Array.from({ length: shape.frames }, (_, i): DetectedContour => {
    const slice = i + 1;
    if (shape.unreadable?.(slice)) return { slice, noBorder: true, confidence: 0.05 };
    const lumen = shape.lumen(slice);
    const vessel = shape.vessel?.(slice) ?? 200;
    const areaMm2 = circleAreaMm2(lumen);
    const vesselAreaMm2 = circleAreaMm2(vessel);
    return {
      slice,
      controlPoints: circle(lumen),
      areaMm2,
      minDiameterMm: 2 * lumen * PIXEL_SPACING_MM,
      maxDiameterMm: 2 * lumen * PIXEL_SPACING_MM,
      eccentricity: 0,
      vessel: { controlPoints: circle(vessel), areaMm2: vesselAreaMm2 },
      plaqueAreaMm2: vesselAreaMm2 - areaMm2,
      plaqueBurden: (vesselAreaMm2 - areaMm2) / vesselAreaMm2,
      confidence: 0.9,
    };
  });
  // The analysis figures of the body are not read by the corrected analysis: placeholders.
  return { version: 'v1', frameCount: shape.frames, pixelSpacingMm: PIXEL_SPACING_MM, contours, mla: null, references: { proximal: null, distal: null }, stenosisPercent: null, maxPlaqueBurden: null, lowConfidenceSlices: [] };
}
