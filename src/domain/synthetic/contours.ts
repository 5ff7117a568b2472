/**
 * Ground-truth lumen and vessel (EEM) contours of the demo pullbacks. Automatic contour detection is
 * measured against these, so they come from the very radius functions the B-mode renderer draws.
 */
import { crossSectionAt } from './cross-section.ts';
import { imagePoint, type ImagePoint } from '../image-point.ts';
import type { PullbackModel } from './pullback-model.ts';

export const CONTOUR_POINT_COUNT = 180;

export interface TruthContours {
  /** Closed polygons (the last point connects back to the first), in image pixel coordinates. */
  readonly lumen: ImagePoint[];
  readonly vessel: ImagePoint[];
}

/** The middle of the frame, in image coordinates (both x and y). */
export function frameCentrePx(model: PullbackModel): number {
  return model.frameSizePx / 2;
}

/**
 * The catheter's centre in image coordinates: the middle of the frame, as real IVUS frames are
 * centred on the catheter, unless the model's hard cases pan the image. The same in every frame of
 * a model (so a detector built for the model holds); evaluators pass it to the detector.
 */
export function catheterCentrePx(model: PullbackModel): ImagePoint {
  const centre = frameCentrePx(model);
  const offset = model.hardCases?.imageOffsetPx;
  return offset === undefined ? imagePoint(centre, centre) : imagePoint(centre + offset.x, centre + offset.y);
}

function contourAngleRad(k: number, pointCount: number): number {
  return (2 * Math.PI * k) / pointCount;
}

export function truthContours(model: PullbackModel, frameIndex: number, pointCount = CONTOUR_POINT_COUNT): TruthContours {
  const section = crossSectionAt(model, frameIndex);
  const centre = catheterCentrePx(model);
  const toImage = (angleRad: number, radiusMm: number): ImagePoint => {
    const radiusPx = radiusMm / model.pixelSpacingMm;
    return imagePoint(centre.x + radiusPx * Math.cos(angleRad), centre.y + radiusPx * Math.sin(angleRad));
  };
  const lumen: ImagePoint[] = [];
  const vessel: ImagePoint[] = [];
  for (let k = 0; k < pointCount; k++) {
    // Drawn where the image shows it: at the display angle, with the radius the line there saw.
    const angle = contourAngleRad(k, pointCount);
    const sceneAngle = section.sceneAngleRad(angle);
    lumen.push(toImage(angle, section.lumenRadiusMm(sceneAngle)));
    vessel.push(toImage(angle, section.vesselRadiusMm(sceneAngle)));
  }
  return { lumen, vessel };
}

/** Area enclosed by a closed polygon (shoelace), in mm², whatever its orientation. */
export function polygonAreaMm2(points: readonly ImagePoint[], pixelSpacingMm: number): number {
  let twiceAreaPx2 = 0;
  for (let k = 0; k < points.length; k++) {
    const a = points[k]!;
    const b = points[(k + 1) % points.length]!;
    twiceAreaPx2 += a.x * b.y - b.x * a.y;
  }
  return (Math.abs(twiceAreaPx2) / 2) * pixelSpacingMm * pixelSpacingMm;
}

/**
 * True lumen area of every frame: the area of the truth lumen polygon, computed from its radii
 * (a fan of triangles around the centre) without building the points.
 */
export function lumenAreaProfileMm2(model: PullbackModel, pointCount = CONTOUR_POINT_COUNT): Float64Array {
  const areas = new Float64Array(model.frameCount);
  const halfSinStep = 0.5 * Math.sin((2 * Math.PI) / pointCount);
  const radii = new Float64Array(pointCount);
  for (let frame = 0; frame < model.frameCount; frame++) {
    const section = crossSectionAt(model, frame);
    for (let k = 0; k < pointCount; k++) radii[k] = section.lumenRadiusMm(section.sceneAngleRad(contourAngleRad(k, pointCount)));
    let sum = 0;
    for (let k = 0; k < pointCount; k++) sum += radii[k]! * radii[(k + 1) % pointCount]!;
    areas[frame] = sum * halfSinStep;
  }
  return areas;
}

/** The frame with the minimal lumen area (the first one if several tie). */
export function minimalLumenFrame(model: PullbackModel): number {
  const areas = lumenAreaProfileMm2(model);
  let best = 0;
  for (let frame = 1; frame < areas.length; frame++) if (areas[frame]! < areas[best]!) best = frame;
  return best;
}
