import type { Point } from '../../../../src/domain/annotations/manifest.ts';
import type { DetectedContour, RecordContours } from '../../../../src/domain/contours/api.ts';

/** A circle of `radius` px round (256, 256) as 16 control points. */
export const circle = (radius: number): Point[] =>
  Array.from({ length: 16 }, (_, i) => ({ x: 256 + radius * Math.cos((i / 16) * 2 * Math.PI), y: 256 + radius * Math.sin((i / 16) * 2 * Math.PI) }));

/**
 * Detected contours of `count` slices at 0.01 mm/px: lumen areas waving round 5 mm², a 12 mm²
 * vessel, and the confidences given per slice (0.9 where none is given). The `unreadable` slices
 * have no border (confidence 0.05), as the server sends a frame the detector could not read.
 */
export function detectedContours(count: number, confidences: Record<number, number> = {}, unreadable: readonly number[] = []): RecordContours {
  const contours = Array.from({ length: count }, (_, i): DetectedContour => {
    if (unreadable.includes(i + 1)) return { slice: i + 1, noBorder: true, confidence: 0.05 };
    const areaMm2 = 5 + Math.sin(i / 5);
    return {
      slice: i + 1,
      controlPoints: circle(100),
      areaMm2,
      minDiameterMm: 2,
      maxDiameterMm: 3,
      eccentricity: 1 / 3,
      vessel: { controlPoints: circle(200), areaMm2: 12 },
      plaqueAreaMm2: 12 - areaMm2,
      plaqueBurden: (12 - areaMm2) / 12,
      confidence: confidences[i + 1] ?? 0.9,
    };
  });
  const lowConfidenceSlices = contours.filter((c) => c.confidence < 0.5).map((c) => c.slice);
  return { version: 'v1', frameCount: count, pixelSpacingMm: 0.01, contours, mla: null, references: { proximal: null, distal: null }, stenosisPercent: null, maxPlaqueBurden: null, lowConfidenceSlices };
}
