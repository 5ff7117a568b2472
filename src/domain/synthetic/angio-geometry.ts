/**
 * The projected coronary tree of a demo angiogram and where the IVUS transducer sits on it.
 *
 * Geometry is kept in "field units" (the image width is 1, x right, y down) so that any image size
 * draws the same picture; a fixed field of view in mm ties it to the pullback. The main vessel runs
 * from the ostium (left main) into the vessel that was pulled back; the pullback covers a stretch of
 * it, distal end first, and its diameter there follows the model's lumen, so the stenosis shows.
 */
import { angioFrameForSlice } from '../frame-sync.ts';
import { seededRandom } from '../random.ts';
import { deriveSeed } from './hash.ts';
import { imagePoint, type ImagePoint } from '../image-point.ts';
import { framePositionMm, lumenAreaTargetMm2, type PullbackModel } from './pullback-model.ts';

export const ANGIO_FRAME_RATE_HZ = 15;
const HEART_RATE_BPM = 72;
/** Width of the angiogram's field of view at the heart. */
const FIELD_OF_VIEW_MM = 110;
/** Share of the main vessel's length, from the ostium, where the pullback's distal end lies. */
const PULLBACK_DISTAL_SHARE = 0.93;
const ANGIO_STREAM = 0xa9610;
const SAMPLES_PER_SPAN = 48;

/** A sampled curve in field units with its diameter (mm) at every sample. */
export interface AngioVessel {
  readonly x: Float64Array;
  readonly y: Float64Array;
  /** Arc length from the first sample, in field units. */
  readonly arcLength: Float64Array;
  readonly diameterMm: Float64Array;
}

export interface AngioTree {
  /** Ostium to distal end of the vessel the pullback ran in. */
  readonly main: AngioVessel;
  /** Every vessel to draw, main first; the guiding catheter last. */
  readonly vessels: readonly AngioVessel[];
  readonly mmPerUnit: number;
  /** Arc lengths on the main vessel of the pullback's distal start and proximal end. */
  readonly pullbackDistalArc: number;
  readonly pullbackProximalArc: number;
  readonly heartCentre: readonly [number, number];
}

type Point = readonly [number, number];

function catmullRom(controls: readonly Point[]): { x: number[]; y: number[] } {
  const x: number[] = [];
  const y: number[] = [];
  for (let k = 0; k < controls.length - 1; k++) {
    const p0 = controls[Math.max(0, k - 1)]!;
    const p1 = controls[k]!;
    const p2 = controls[k + 1]!;
    const p3 = controls[Math.min(controls.length - 1, k + 2)]!;
    for (let n = 0; n < SAMPLES_PER_SPAN; n++) {
      const t = n / SAMPLES_PER_SPAN;
      const t2 = t * t;
      const t3 = t2 * t;
      const blend = (a: number, b: number, c: number, d: number): number =>
        0.5 * (2 * b + (c - a) * t + (2 * a - 5 * b + 4 * c - d) * t2 + (3 * b - a - 3 * c + d) * t3);
      x.push(blend(p0[0], p1[0], p2[0], p3[0]));
      y.push(blend(p0[1], p1[1], p2[1], p3[1]));
    }
  }
  const last = controls[controls.length - 1]!;
  x.push(last[0]);
  y.push(last[1]);
  return { x, y };
}

/** Coronary arteries are tortuous: a smooth sideways wave along the curve, in field units. */
interface Wiggle {
  readonly amplitude: number;
  readonly wavelength: number;
  readonly phaseRad: number;
}

function wiggled(points: { x: number[]; y: number[] }, wiggle: Wiggle): { x: number[]; y: number[] } {
  const x: number[] = [];
  const y: number[] = [];
  let arc = 0;
  const count = points.x.length;
  for (let k = 0; k < count; k++) {
    if (k > 0) arc += Math.hypot(points.x[k]! - points.x[k - 1]!, points.y[k]! - points.y[k - 1]!);
    const a = Math.max(0, k - 1);
    const b = Math.min(count - 1, k + 1);
    const tx = points.x[b]! - points.x[a]!;
    const ty = points.y[b]! - points.y[a]!;
    const norm = Math.hypot(tx, ty) || 1;
    // Zero at the start, so a branch stays attached to its parent.
    const offset = wiggle.amplitude * Math.sin((2 * Math.PI * arc) / wiggle.wavelength + wiggle.phaseRad) - wiggle.amplitude * Math.sin(wiggle.phaseRad);
    x.push(points.x[k]! - (ty / norm) * offset);
    y.push(points.y[k]! + (tx / norm) * offset);
  }
  return { x, y };
}

function vesselFrom(points: { x: number[]; y: number[] }, diameterAt: (arc: number, length: number) => number): AngioVessel {
  const count = points.x.length;
  const arcLength = new Float64Array(count);
  for (let k = 1; k < count; k++) {
    arcLength[k] = arcLength[k - 1]! + Math.hypot(points.x[k]! - points.x[k - 1]!, points.y[k]! - points.y[k - 1]!);
  }
  const length = arcLength[count - 1]!;
  const diameterMm = new Float64Array(count);
  for (let k = 0; k < count; k++) diameterMm[k] = diameterAt(arcLength[k]!, length);
  return { x: Float64Array.from(points.x), y: Float64Array.from(points.y), arcLength, diameterMm };
}

export interface VesselPoint {
  readonly x: number;
  readonly y: number;
  /** Unit tangent, pointing away from the vessel's start. */
  readonly tx: number;
  readonly ty: number;
  readonly diameterMm: number;
}

/** Position, tangent and diameter at an arc length along a vessel (clamped to its ends). */
export function pointAtArc(vessel: AngioVessel, arc: number): VesselPoint {
  const { x, y, arcLength, diameterMm } = vessel;
  const lastIndex = arcLength.length - 1;
  let low = 0;
  let high = lastIndex;
  const target = Math.min(Math.max(arc, 0), arcLength[lastIndex]!);
  while (high - low > 1) {
    const mid = (low + high) >> 1;
    if (arcLength[mid]! <= target) low = mid;
    else high = mid;
  }
  const span = arcLength[high]! - arcLength[low]!;
  const t = span > 0 ? (target - arcLength[low]!) / span : 0;
  const dx = x[high]! - x[low]!;
  const dy = y[high]! - y[low]!;
  const norm = Math.hypot(dx, dy) || 1;
  return {
    x: x[low]! + dx * t,
    y: y[low]! + dy * t,
    tx: dx / norm,
    ty: dy / norm,
    diameterMm: diameterMm[low]! + (diameterMm[high]! - diameterMm[low]!) * t,
  };
}

/** A side branch leaving `parent` at `arc`, turned by `angleRad`, bending by `bendRad` along its length. */
function branch(
  parent: AngioVessel,
  arc: number,
  angleRad: number,
  bendRad: number,
  lengthUnits: number,
  endDiameterMm: number,
  startShare: number,
  wiggle: Wiggle,
): AngioVessel {
  const origin = pointAtArc(parent, arc);
  const start = Math.atan2(origin.ty, origin.tx) + angleRad;
  const controls: Point[] = [];
  for (let k = 0; k <= 3; k++) {
    const heading = start + (bendRad * k) / 3;
    const previous = controls[k - 1] ?? [origin.x, origin.y];
    controls.push(k === 0 ? [origin.x, origin.y] : [previous[0] + (Math.cos(heading) * lengthUnits) / 3, previous[1] + (Math.sin(heading) * lengthUnits) / 3]);
  }
  const startDiameter = origin.diameterMm * startShare;
  return vesselFrom(wiggled(catmullRom(controls), wiggle), (s, length) => startDiameter + (endDiameterMm - startDiameter) * (s / length));
}

export function angioTree(model: PullbackModel): AngioTree {
  const random = seededRandom(deriveSeed(model.seed, ANGIO_STREAM));
  const jitter = (amount: number): number => (random() - 0.5) * 2 * amount;
  const wiggle = (amplitude: number, wavelength: number): Wiggle => ({
    amplitude: amplitude * (0.6 + 0.8 * random()),
    wavelength: wavelength * (0.7 + 0.6 * random()),
    phaseRad: 2 * Math.PI * random(),
  });
  const ostium: Point = [0.34 + jitter(0.03), 0.14 + jitter(0.02)];
  const bifurcation: Point = [ostium[0] + 0.04 + jitter(0.01), ostium[1] + 0.08 + jitter(0.01)];
  const mainControls: Point[] = [ostium, bifurcation];
  let heading = Math.PI * (0.36 + jitter(0.04));
  let previous = bifurcation;
  for (let k = 0; k < 6; k++) {
    heading += jitter(0.25);
    previous = [previous[0] + Math.cos(heading) * 0.125, previous[1] + Math.sin(heading) * 0.125];
    mainControls.push(previous);
  }
  const mainPoints = wiggled(catmullRom(mainControls), wiggle(0.0025, 0.08));
  const mainLength = vesselFrom(mainPoints, () => 0).arcLength.at(-1)!;
  const pullbackDistalArc = PULLBACK_DISTAL_SHARE * mainLength;
  const mmPerUnit = Math.max(FIELD_OF_VIEW_MM, model.lengthMm / (0.8 * pullbackDistalArc));
  const pullbackProximalArc = pullbackDistalArc - model.lengthMm / mmPerUnit;
  const lumenDiameterMm = (zMm: number): number => 2 * Math.sqrt(lumenAreaTargetMm2(model, zMm) / Math.PI);
  const proximalDiameter = lumenDiameterMm(model.lengthMm);
  const distalDiameter = lumenDiameterMm(0);
  const main = vesselFrom(mainPoints, (arc, length) => {
    if (arc < pullbackProximalArc) return proximalDiameter * (1 + (0.3 * (pullbackProximalArc - arc)) / Math.max(pullbackProximalArc, 1e-6));
    if (arc > pullbackDistalArc) return distalDiameter * (1 - (0.55 * (arc - pullbackDistalArc)) / Math.max(length - pullbackDistalArc, 1e-6));
    return lumenDiameterMm((pullbackDistalArc - arc) * mmPerUnit);
  });

  const bifurcationArc = pointArcNear(main, bifurcation);
  const vessels: AngioVessel[] = [main];
  // Small branches off a branch, alternating sides.
  const addTwigs = (parent: AngioVessel, count: number, side: number): void => {
    for (let k = 0; k < count; k++) {
      const arc = parent.arcLength.at(-1)! * ((k + 0.6 + jitter(0.2)) / (count + 0.5));
      const turn = (k % 2 === 0 ? side : -side) * (0.6 + jitter(0.2));
      vessels.push(branch(parent, arc, turn, jitter(0.4), 0.05 + random() * 0.06, 0.45, 0.55, wiggle(0.0015, 0.04)));
    }
  };
  // The other big vessel from the bifurcation, with its marginal branches.
  const circumflex = branch(main, bifurcationArc, 1.05 + jitter(0.15), 0.5 + jitter(0.2), 0.5 + jitter(0.05), 1.2, 0.85, wiggle(0.0025, 0.08));
  vessels.push(circumflex);
  for (let k = 0; k < 3; k++) {
    const arc = circumflex.arcLength.at(-1)! * (0.22 + 0.25 * k + jitter(0.05));
    const marginal = branch(circumflex, arc, -0.7 + jitter(0.15), -0.2 + jitter(0.2), 0.2 + jitter(0.05), 0.7, 0.65, wiggle(0.002, 0.06));
    vessels.push(marginal);
    addTwigs(marginal, 2, 1);
  }
  // Diagonals leave the main vessel on one side, septals (short and thin) on the other.
  for (let k = 0; k < 3; k++) {
    const arc = bifurcationArc + (mainLength - bifurcationArc) * (0.14 + 0.26 * k + jitter(0.04));
    const diagonal = branch(main, arc, -0.7 + jitter(0.15), 0.35 + jitter(0.2), 0.24 + jitter(0.05) - 0.04 * k, 0.7, 0.62, wiggle(0.002, 0.06));
    vessels.push(diagonal);
    addTwigs(diagonal, 3 - k, -1);
  }
  for (let k = 0; k < 6; k++) {
    const arc = bifurcationArc + (mainLength - bifurcationArc) * (0.08 + 0.14 * k + jitter(0.03));
    vessels.push(branch(main, arc, 1.15 + jitter(0.2), jitter(0.3), 0.06 + random() * 0.05, 0.45, 0.3, wiggle(0.001, 0.035)));
  }
  // The guiding catheter comes down from the aorta (above the image) into the ostium.
  const guide = catmullRom([
    [ostium[0] + 0.3, -0.05],
    [ostium[0] + 0.18, ostium[1] - 0.1],
    [ostium[0] + 0.05, ostium[1] - 0.04],
    ostium,
  ]);
  vessels.push(vesselFrom(guide, () => 2));
  return { main, vessels, mmPerUnit, pullbackDistalArc, pullbackProximalArc, heartCentre: [0.45 + jitter(0.05), 0.62 + jitter(0.05)] };
}

function pointArcNear(vessel: AngioVessel, point: Point): number {
  let best = 0;
  let bestDistance = Infinity;
  for (let k = 0; k < vessel.x.length; k++) {
    const distance = Math.hypot(vessel.x[k]! - point[0], vessel.y[k]! - point[1]);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = k;
    }
  }
  return vessel.arcLength[best]!;
}

/** The heart's motion at an angio frame: a contraction towards the heart's centre with a slight twist and shift. */
export interface CardiacPose {
  readonly scale: number;
  readonly cos: number;
  readonly sin: number;
  readonly shiftX: number;
  readonly shiftY: number;
}

export function cardiacPose(angioIndex: number): CardiacPose {
  const phase = (2 * Math.PI * angioIndex * HEART_RATE_BPM) / (60 * ANGIO_FRAME_RATE_HZ);
  const systole = 0.5 * (1 - Math.cos(phase));
  const twist = 0.025 * systole;
  return { scale: 1 - 0.03 * systole, cos: Math.cos(twist), sin: Math.sin(twist), shiftX: 0.006 * systole, shiftY: -0.004 * systole };
}

/** Where a point of the still tree lies in a frame with this pose (field units). */
export function movePoint(tree: AngioTree, pose: CardiacPose, x: number, y: number): [number, number] {
  const [cx, cy] = tree.heartCentre;
  const dx = (x - cx) * pose.scale;
  const dy = (y - cy) * pose.scale;
  return [cx + dx * pose.cos - dy * pose.sin + pose.shiftX, cy + dx * pose.sin + dy * pose.cos + pose.shiftY];
}

/** Arc length along the main vessel (field units from the ostium) of the transducer at a slice. */
export function transducerArc(tree: AngioTree, model: PullbackModel, slice: number): number {
  return tree.pullbackDistalArc - framePositionMm(model, slice) / tree.mmPerUnit;
}

/**
 * The transducer's position in the angiogram at a B-mode slice, in image pixels of a sizePx image.
 * With `angioFrameCount`, the position includes the heart's motion in the angio frame shown with
 * that slice; without it, the position on the motionless tree.
 */
export function angioTransducerPosition(model: PullbackModel, slice: number, sizePx = 512, angioFrameCount?: number): ImagePoint {
  const tree = angioTree(model);
  const onVessel = pointAtArc(tree.main, transducerArc(tree, model, slice));
  if (angioFrameCount === undefined) return imagePoint(onVessel.x * sizePx, onVessel.y * sizePx);
  const pose = cardiacPose(angioFrameForSlice(slice, model.frameCount, angioFrameCount));
  const [x, y] = movePoint(tree, pose, onVessel.x, onVessel.y);
  return imagePoint(x * sizePx, y * sizePx);
}
