/**
 * The geometry of one frame: lumen and vessel (EEM) borders as radius functions of the angle around
 * the catheter, the calcium arc and the guidewire. The B-mode renderer and the truth contours both
 * read these functions, so what is drawn and what is measured are the same curves.
 *
 * Angles are measured in image coordinates: 0 along +x (right), increasing towards +y (down).
 */
import {
  applyNurdWarp,
  cardiacStateAt,
  nurdWarpAt,
  sectorHalfArcRad,
  strutAnglesAt,
  type HardCaseParameters,
} from './hard-cases.ts';
import {
  CATHETER_RADIUS_MM,
  GUIDEWIRE_RADIUS_MM,
  LUMEN_CLEARANCE_MM,
  MAX_CATHETER_DISPLACEMENT_MM,
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
import { angleDifferenceRad, bridgedRadius, shiftedRadius, turnedRadius } from './section-geometry.ts';
import { stentedSection } from './deployed-stent.ts';
import { noduleProtrusionMm, type CalciumCaseParameters } from './calcium-cases.ts';

export { angleDifferenceRad } from './section-geometry.ts';

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

/** An angular sector around the catheter. */
export interface Sector {
  readonly centreAngleRad: number;
  readonly halfArcRad: number;
}

export interface EcholucentSector extends Sector {
  /** Plaque echo over blood echo (1: as dark as blood). */
  readonly echoRatio: number;
  /** What is left of the bright lumen-intima echo (a thin fibrous cap). */
  readonly capSpecular: number;
}

export interface BranchOpening extends Sector {
  readonly depthMm: number;
}

export interface StentStruts {
  readonly anglesRad: readonly number[];
  readonly thicknessMm: number;
  readonly widthMm: number;
  /** The stent border the struts' middles lie on (a deployed stent); absent, they sit on the lumen border. */
  readonly borderRadiusMm?: (angleRad: number) => number;
}

export interface CrossSection {
  readonly frameIndex: number;
  readonly zMm: number;
  readonly plaqueAngleRad: number;
  /** Radii around the catheter, by angle in the scene (the angle an A-line actually looks along). */
  lumenRadiusMm(angleRad: number): number;
  vesselRadiusMm(angleRad: number): number;
  readonly calcium: CalciumArc | null;
  readonly guidewire: GuidewirePosition;
  /**
   * The scene angle the A-line drawn at `displayAngleRad` looked along: the identity, except under
   * NURD, where the catheter's rotation speed varies within the frame. Truth and image both go
   * through it, so the truth is warped as the image is.
   */
  sceneAngleRad(displayAngleRad: number): number;
  /** The anatomy's turn (cardiac motion): its texture is read this much further back in angle. */
  readonly anatomyRotationRad: number;
  /** Centre of the lumen's base circle relative to the catheter, in mm (x right, y down). */
  readonly lumenCentreMm: { readonly x: number; readonly y: number };
  readonly echolucent: EcholucentSector | null;
  /** Where a side branch opens the wall; the radius functions bridge it. */
  readonly branch: BranchOpening | null;
  readonly struts: StentStruts | null;
  /** How far a calcified nodule stands into the lumen here, mm (present only on the nodule case: calcium-cases.ts). */
  readonly noduleProtrusionMm?: number;
}

/** The calcium arc fades in over this angle at each end instead of starting with a hard edge. */
export const CALCIUM_EDGE_RAD = 0.08;
/** Gap between the catheter and the guidewire lying next to it. */
const GUIDEWIRE_GAP_MM = 0.03;
/** Share of the room for eccentricity given to shifting the EEM (the rest shifts the lumen). */
const VESSEL_SHIFT_SHARE = 0.35;
const AREA_SAMPLES = 90;
const NODULE_CLEARANCE_MM = 0.15;

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

const identity = (angleRad: number): number => angleRad;

export function crossSectionAt(model: PullbackModel, frameIndex: number): CrossSection {
  if (model.hardCases !== undefined) return hardSectionAt(model, model.hardCases, frameIndex);
  return plainSectionAt(model, frameIndex, framePositionMm(model, frameIndex)).section;
}

/** The demo model's section, with what the hard cases need to move it. */
interface PlainSection {
  readonly section: CrossSection;
  readonly lumenRadius0Mm: number;
  readonly harmonicSum: number;
}

function plainSectionAt(model: PullbackModel, frameIndex: number, zMm: number): PlainSection {
  const anatomy = model.anatomy;
  // A small vessel (calcium-score case) scales both areas; absent, the areas are the profile's as always.
  const areaScale = model.hardCases?.vesselAreaScale ?? 1;
  const lumenAreaMm2 = lumenAreaTargetMm2(model, zMm) * areaScale;
  const vesselAreaMm2 = vesselAreaTargetMm2(model, zMm) * areaScale;
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

  const section: CrossSection = {
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
    sceneAngleRad: identity,
    anatomyRotationRad: 0,
    lumenCentreMm: { x: lumenShiftMm * Math.cos(plaqueAngle + Math.PI), y: lumenShiftMm * Math.sin(plaqueAngle + Math.PI) },
    echolucent: null,
    branch: null,
    struts: null,
  };
  return { section, lumenRadius0Mm: lumenRadius0, harmonicSum };
}

/**
 * A section with the hard cases: the plain section at the heart cycle's z, turned and scaled by the
 * cycle, moved so that the catheter sits off the lumen's centre, with the side branch's ostium
 * bridged; and the sectors, struts and NURD warp that the renderer draws on top.
 */
function hardSectionAt(model: PullbackModel, hard: HardCaseParameters, frameIndex: number): CrossSection {
  const heart = cardiacStateAt(hard.cardiac, frameIndex, model.frameRateHz);
  const zMm = framePositionMm(model, frameIndex) + heart.zShiftMm;
  const plain = plainSectionAt(model, frameIndex, zMm);
  const base = plain.section;
  const turn = heart.rotationRad;
  const scale = heart.scale;

  // The lumen's centre after the turn and dilation, relative to the catheter.
  const cos = Math.cos(turn);
  const sin = Math.sin(turn);
  const lx = scale * (cos * base.lumenCentreMm.x - sin * base.lumenCentreMm.y);
  const ly = scale * (sin * base.lumenCentreMm.x + cos * base.lumenCentreMm.y);
  // Where the catheter should sit relative to the lumen's centre: the eccentric offset, moved by the heart.
  let cx = -lx + heart.shiftXMm;
  let cy = -ly + heart.shiftYMm;
  if (hard.eccentric !== null) {
    const angle = hard.eccentric.angleStartRad + hard.eccentric.angleRadPerMm * zMm;
    const offsetMm = hard.eccentric.fraction * scale * plain.lumenRadius0Mm;
    cx = offsetMm * Math.cos(angle) + heart.shiftXMm;
    cy = offsetMm * Math.sin(angle) + heart.shiftYMm;
  }
  // The catheter stays inside the lumen with its clearance, and within the displacement the field of view allows.
  const roomMm = Math.max(0, scale * plain.lumenRadius0Mm * (1 - plain.harmonicSum) - CATHETER_RADIUS_MM - LUMEN_CLEARANCE_MM);
  const offset = Math.hypot(cx, cy);
  if (offset > roomMm) {
    cx *= roomMm / offset;
    cy *= roomMm / offset;
  }
  // The anatomy moves by -(catheter - its plain position); the plain catheter sits at -l from the lumen's centre.
  let dx = -(cx + lx);
  let dy = -(cy + ly);
  const displacement = Math.hypot(dx, dy);
  if (displacement > MAX_CATHETER_DISPLACEMENT_MM) {
    dx *= MAX_CATHETER_DISPLACEMENT_MM / displacement;
    dy *= MAX_CATHETER_DISPLACEMENT_MM / displacement;
  }

  let lumen = shiftedRadius(turnedRadius(base.lumenRadiusMm, turn, scale), dx, dy);
  let vessel = shiftedRadius(turnedRadius(base.vesselRadiusMm, turn, scale), dx, dy);
  let branch: BranchOpening | null = null;
  if (hard.branch !== null) {
    const halfArcRad = sectorHalfArcRad(hard.branch, zMm);
    if (halfArcRad > 0) {
      branch = { centreAngleRad: hard.branch.angleRad + turn, halfArcRad, depthMm: hard.branch.depthMm };
      lumen = bridgedRadius(lumen, branch.centreAngleRad, halfArcRad);
      vessel = bridgedRadius(vessel, branch.centreAngleRad, halfArcRad);
    }
  }
  const calcium = base.calcium === null ? null : { ...base.calcium, centreAngleRad: base.calcium.centreAngleRad + turn };
  let noduleProtrusion: number | undefined;
  if (hard.calciumCase?.kind === 'nodule') {
    noduleProtrusion = 0;
    if (calcium !== null) {
      const plainLumen = lumen;
      lumen = noduleRadius(lumen, hard.calciumCase, calcium);
      for (let k = -8; k <= 8; k++) {
        const angle = calcium.centreAngleRad + (k / 8) * calcium.halfArcRad;
        noduleProtrusion = Math.max(noduleProtrusion, plainLumen(angle) - lumen(angle));
      }
    }
  }
  const lumenCentre = { x: lx + dx, y: ly + dy };
  // A deployed stent holds the lumen open on its border (deployed-stent.ts); it replaces the plain `stent`.
  const stented = hard.deployedStent === undefined ? null : stentedSection(hard.deployedStent, zMm, lumenCentre, turn, scale, vessel, MIN_WALL_THICKNESS_MM);
  if (stented !== null) {
    lumen = stented.lumen;
    vessel = stented.vessel;
  }
  const lucentHalfArcRad = hard.echolucent === null ? 0 : sectorHalfArcRad(hard.echolucent, zMm);
  const strutAngles = strutAnglesAt(hard.stent, zMm);
  const warp = nurdWarpAt(hard.nurd, frameIndex);
  const plaqueAngle = base.plaqueAngleRad + turn;
  // The guidewire keeps to the roomy side of the lumen, wherever the catheter has moved: it keeps its
  // angle from the direction of the lumen's centre (which the plain model puts opposite the plaque).
  const guidewire =
    hard.eccentric === null
      ? base.guidewire
      : { ...base.guidewire, angleRad: Math.atan2(lumenCentre.y, lumenCentre.x) + base.guidewire.angleRad - (base.plaqueAngleRad + Math.PI) };
  return {
    frameIndex,
    zMm,
    plaqueAngleRad: plaqueAngle,
    lumenRadiusMm: lumen,
    vesselRadiusMm: vessel,
    calcium,
    guidewire,
    sceneAngleRad: warp === null ? identity : (angleRad) => applyNurdWarp(warp, angleRad),
    anatomyRotationRad: turn,
    lumenCentreMm: lumenCentre,
    echolucent:
      hard.echolucent === null || lucentHalfArcRad === 0
        ? null
        : {
            centreAngleRad: plaqueAngle + hard.echolucent.angleRad,
            halfArcRad: lucentHalfArcRad,
            echoRatio: hard.echolucent.echoRatio,
            capSpecular: hard.echolucent.capSpecular,
          },
    branch,
    struts:
      stented !== null && hard.deployedStent !== undefined
        ? { anglesRad: stented.strutAnglesRad, thicknessMm: hard.deployedStent.thicknessMm, widthMm: hard.deployedStent.widthMm, borderRadiusMm: stented.stent }
        : strutAngles.length === 0 || hard.stent === null
          ? null
          : { anglesRad: strutAngles.map((a) => a + turn), thicknessMm: hard.stent.thicknessMm, widthMm: hard.stent.widthMm },
    ...(noduleProtrusion === undefined ? {} : { noduleProtrusionMm: noduleProtrusion }),
  };
}

/** The calcium arc grows from nothing to its full width and back over its length (raised cosine). */
function calciumArcAt(model: PullbackModel, zMm: number, plaqueAngle: number): CalciumArc | null {
  const calcium = model.anatomy.calcium;
  const override = model.hardCases?.calciumCase;
  const u = (zMm - (override?.centreMm ?? calcium.centreMm)) / (override?.halfLengthMm ?? calcium.halfLengthMm);
  if (u <= -1 || u >= 1) return null;
  const window = 0.5 * (1 + Math.cos(Math.PI * u));
  return {
    centreAngleRad: plaqueAngle + calcium.angleOffsetRad,
    // Wide arcs (issue 23's low-signal arcs): the same calcium, its arc up to a third of the circle;
    // the calcium-score cases (calcium-cases.ts) set their own widest arc.
    halfArcRad: (model.hardCases?.calciumCase?.maxHalfArcRad ?? model.hardCases?.wideArcHalfRad ?? calcium.maxHalfArcRad) * Math.sqrt(window),
    depthMm: calcium.depthMm,
    thicknessMm: calcium.thicknessMm,
  };
}

/**
 * The lumen with a calcified nodule standing into it over the calcium's arc, never nearer the
 * catheter than NODULE_CLEARANCE_MM beyond its clearance (the catheter would not pass a nodule it touched).
 */
function noduleRadius(lumen: (angleRad: number) => number, nodule: CalciumCaseParameters, calcium: CalciumArc): (angleRad: number) => number {
  const floorMm = CATHETER_RADIUS_MM + LUMEN_CLEARANCE_MM + NODULE_CLEARANCE_MM;
  return (angleRad) => {
    const radius = lumen(angleRad);
    const protrusion = noduleProtrusionMm(nodule, calcium.halfArcRad, angleDifferenceRad(angleRad, calcium.centreAngleRad));
    return protrusion === 0 ? radius : Math.max(Math.min(radius, floorMm), radius - protrusion);
  };
}
