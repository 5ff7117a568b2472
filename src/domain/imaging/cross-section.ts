/**
 * The geometry of one frame: lumen and vessel (EEM) borders as radius functions of the angle around
 * the catheter, the calcium arc and the guidewire. The B-mode renderer and the truth contours both
 * read these functions, so what is drawn and what is measured are the same curves.
 *
 * Angles are measured in image coordinates: 0 along +x (right), increasing towards +y (down).
 */
import {
  CATHETER_RADIUS_MM,
  GUIDEWIRE_RADIUS_MM,
  LUMEN_CLEARANCE_MM,
  MAX_VESSEL_RADIUS_MM,
  MIN_WALL_THICKNESS_MM,
  clamp,
  framePositionMm,
  lumenAreaTargetMm2,
  plaqueAngleRad,
  vesselAreaTargetMm2,
  waveAt,
  type PullbackModel,
} from './pullback-model.ts';

export interface CalciumArc {
  readonly centreAngleRad: number;
  readonly halfArcRad: number;
  /** Distance from the lumen border to the calcium's leading edge. */
  readonly depthMm: number;
  readonly thicknessMm: number;
}

export interface GuidewirePosition {
  readonly angleRad: number;
  /** Distance of the wire's centre from the catheter's centre. */
  readonly distanceMm: number;
  readonly radiusMm: number;
}

export interface CrossSection {
  readonly frameIndex: number;
  readonly zMm: number;
  readonly plaqueAngleRad: number;
  lumenRadiusMm(angleRad: number): number;
  vesselRadiusMm(angleRad: number): number;
  readonly calcium: CalciumArc | null;
  readonly guidewire: GuidewirePosition;
}

/** The calcium arc fades in over this angle at each end instead of starting with a hard edge. */
export const CALCIUM_EDGE_RAD = 0.08;
/** Gap between the catheter and the guidewire lying next to it. */
const GUIDEWIRE_GAP_MM = 0.03;
/** Share of the room for eccentricity given to shifting the EEM (the rest shifts the lumen). */
const VESSEL_SHIFT_SHARE = 0.35;
const AREA_SAMPLES = 90;

/** Signed smallest difference a - b, in (-pi, pi]. */
export function angleDifferenceRad(a: number, b: number): number {
  const d = (a - b) % (2 * Math.PI);
  return d > Math.PI ? d - 2 * Math.PI : d <= -Math.PI ? d + 2 * Math.PI : d;
}

/** Distance from the origin to a circle of radius R whose centre sits at distance d in direction psi (d < R). */
function offsetCircleRadius(angleRad: number, radius: number, offset: number, offsetAngleRad: number): number {
  const c = Math.cos(angleRad - offsetAngleRad);
  const s = Math.sin(angleRad - offsetAngleRad);
  return offset * c + Math.sqrt(radius * radius - offset * offset * s * s);
}

function polarAreaMm2(radiusMm: (angleRad: number) => number): number {
  let sum = 0;
  for (let k = 0; k < AREA_SAMPLES; k++) {
    const r = radiusMm((2 * Math.PI * k) / AREA_SAMPLES);
    sum += r * r;
  }
  return (sum * Math.PI) / AREA_SAMPLES;
}

/** Calcium present at this angle: 1 inside the arc, 0 outside, a linear fade across the ends. */
export function calciumCoverage(arc: CalciumArc | null, angleRad: number): number {
  if (arc === null) return 0;
  const fromCentre = Math.abs(angleDifferenceRad(angleRad, arc.centreAngleRad));
  return clamp((arc.halfArcRad - fromCentre) / CALCIUM_EDGE_RAD + 0.5, 0, 1);
}

export function crossSectionAt(model: PullbackModel, frameIndex: number): CrossSection {
  const anatomy = model.anatomy;
  const zMm = framePositionMm(model, frameIndex);
  const lumenAreaMm2 = lumenAreaTargetMm2(model, zMm);
  const vesselAreaMm2 = vesselAreaTargetMm2(model, zMm);
  const plaqueAngle = plaqueAngleRad(model, zMm);

  const harmonics = anatomy.lumenHarmonics.map((h) => ({
    order: h.order,
    amplitude: h.amplitude,
    phaseRad: h.phaseRad + h.phaseRadPerMm * zMm,
  }));
  const harmonicSum = harmonics.reduce((sum, h) => sum + h.amplitude, 0);
  const ellipse = anatomy.vesselEllipse;
  const lumenRadius0 = Math.sqrt(lumenAreaMm2 / Math.PI);
  const vesselRadius0 = Math.sqrt(vesselAreaMm2 / Math.PI);

  // Eccentric plaque: the EEM shifts towards the plaque and the lumen away from it, within limits
  // that keep a minimal wall everywhere, the EEM in view and the catheter inside the lumen.
  const eccentricity = clamp(anatomy.eccentricityBase + waveAt(anatomy.eccentricityWave, zMm), 0, 0.9);
  const room = Math.max(0, vesselRadius0 * (1 - ellipse) - lumenRadius0 * (1 + harmonicSum) - MIN_WALL_THICKNESS_MM);
  const totalShiftMm = eccentricity * room;
  const vesselShiftMm = Math.min(VESSEL_SHIFT_SHARE * totalShiftMm, Math.max(0, MAX_VESSEL_RADIUS_MM - vesselRadius0 * (1 + ellipse)));
  const lumenShiftMm = Math.min(
    totalShiftMm - vesselShiftMm,
    Math.max(0, lumenRadius0 * (1 - harmonicSum) - CATHETER_RADIUS_MM - LUMEN_CLEARANCE_MM),
  );

  const lumenShape = (angleRad: number): number => {
    let modulation = 1;
    for (const h of harmonics) modulation += h.amplitude * Math.cos(h.order * (angleRad - h.phaseRad));
    return offsetCircleRadius(angleRad, lumenRadius0, lumenShiftMm, plaqueAngle + Math.PI) * modulation;
  };
  const vesselShape = (angleRad: number): number =>
    offsetCircleRadius(angleRad, vesselRadius0, vesselShiftMm, plaqueAngle) *
    (1 + ellipse * Math.cos(2 * (angleRad - anatomy.vesselEllipseAngleRad)));
  // The shape terms change the enclosed area slightly; rescale so the areas are exactly the profile's.
  const lumenScale = Math.sqrt(lumenAreaMm2 / polarAreaMm2(lumenShape));
  const vesselScale = Math.sqrt(vesselAreaMm2 / polarAreaMm2(vesselShape));

  return {
    frameIndex,
    zMm,
    plaqueAngleRad: plaqueAngle,
    lumenRadiusMm: (angleRad) => lumenScale * lumenShape(angleRad),
    vesselRadiusMm: (angleRad) => vesselScale * vesselShape(angleRad),
    calcium: calciumArcAt(model, zMm, plaqueAngle),
    guidewire: {
      angleRad: plaqueAngle + anatomy.guidewireAngleOffsetRad + waveAt(anatomy.guidewireDrift, zMm),
      distanceMm: CATHETER_RADIUS_MM + GUIDEWIRE_RADIUS_MM + GUIDEWIRE_GAP_MM,
      radiusMm: GUIDEWIRE_RADIUS_MM,
    },
  };
}

/** The calcium arc grows from nothing to its full width and back over its length (raised cosine). */
function calciumArcAt(model: PullbackModel, zMm: number, plaqueAngle: number): CalciumArc | null {
  const calcium = model.anatomy.calcium;
  const u = (zMm - calcium.centreMm) / calcium.halfLengthMm;
  if (u <= -1 || u >= 1) return null;
  const window = 0.5 * (1 + Math.cos(Math.PI * u));
  return {
    centreAngleRad: plaqueAngle + calcium.angleOffsetRad,
    halfArcRad: calcium.maxHalfArcRad * Math.sqrt(window),
    depthMm: calcium.depthMm,
    thicknessMm: calcium.thicknessMm,
  };
}
