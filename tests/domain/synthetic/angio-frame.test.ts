import { describe, expect, it } from 'vitest';
import { angioFrameForSlice, firstSliceForAngioFrame } from '../../../src/domain/frame-sync.ts';
import {
  angioTransducerPosition,
  angioTree,
  cardiacPose,
  movePoint,
  pointAtArc,
  type AngioVessel,
} from '../../../src/domain/synthetic/angio-geometry.ts';
import { renderAngioFrame } from '../../../src/domain/synthetic/angio-frame.ts';
import { minimalLumenFrame } from '../../../src/domain/synthetic/contours.ts';
import type { ImagePoint } from '../../../src/domain/image-point.ts';
import { createPullbackModel } from '../../../src/domain/synthetic/pullback-model.ts';

const model = createPullbackModel({ seed: 21, frameCount: 3600 });
const ANGIO_COUNT = 120;

/** Arc length (field units) of the point of the vessel's centreline nearest to a pixel position. */
function arcOfNearest(vessel: AngioVessel, point: ImagePoint, sizePx: number): { arc: number; distancePx: number } {
  let best = { arc: 0, distancePx: Infinity };
  for (let k = 0; k < vessel.x.length; k++) {
    const distancePx = Math.hypot(vessel.x[k]! * sizePx - point.x, vessel.y[k]! * sizePx - point.y);
    if (distancePx < best.distancePx) best = { arc: vessel.arcLength[k]!, distancePx };
  }
  return best;
}

function meanAround(image: Uint8Array, sizePx: number, x: number, y: number, radiusPx: number): number {
  let sum = 0;
  let count = 0;
  for (let row = Math.floor(y - radiusPx); row <= Math.ceil(y + radiusPx); row++) {
    for (let col = Math.floor(x - radiusPx); col <= Math.ceil(x + radiusPx); col++) {
      if (Math.hypot(col + 0.5 - x, row + 0.5 - y) > radiusPx) continue;
      sum += image[row * sizePx + col]!;
      count++;
    }
  }
  return sum / count;
}

describe('angioFrameForSlice', () => {
  it('maps the slices proportionally onto the angio frames, first to first and last to last', () => {
    expect(angioFrameForSlice(0, 3600, ANGIO_COUNT)).toBe(0);
    expect(angioFrameForSlice(3599, 3600, ANGIO_COUNT)).toBe(ANGIO_COUNT - 1);
    const slicesPerFrame = new Array<number>(ANGIO_COUNT).fill(0);
    let previous = 0;
    for (let slice = 0; slice < 3600; slice++) {
      const frame = angioFrameForSlice(slice, 3600, ANGIO_COUNT);
      expect(frame).toBeGreaterThanOrEqual(previous);
      previous = frame;
      slicesPerFrame[frame]!++;
    }
    expect(new Set(slicesPerFrame)).toEqual(new Set([30]));
    for (let frame = 0; frame < ANGIO_COUNT; frame++) {
      expect(angioFrameForSlice(firstSliceForAngioFrame(frame, 3600, ANGIO_COUNT), 3600, ANGIO_COUNT)).toBe(frame);
    }
  });
});

describe('angioTransducerPosition', () => {
  it('runs along the main vessel from distal to proximal as the slices advance', () => {
    const tree = angioTree(model);
    let previousArc = Infinity;
    for (let slice = 0; slice < 3600; slice += 150) {
      const position = angioTransducerPosition(model, slice, 512);
      const nearest = arcOfNearest(tree.main, position, 512);
      expect(nearest.distancePx).toBeLessThan(1);
      expect(nearest.arc).toBeLessThan(previousArc);
      previousArc = nearest.arc;
    }
    // A 60 mm pullback spans a good part of the image, not a few pixels.
    const travelPx = Math.hypot(
      angioTransducerPosition(model, 0, 512).x - angioTransducerPosition(model, 3599, 512).x,
      angioTransducerPosition(model, 0, 512).y - angioTransducerPosition(model, 3599, 512).y,
    );
    expect(travelPx).toBeGreaterThan(150);
  });

  it('scales with the image size and follows the heart when given the angio frame count', () => {
    const small = angioTransducerPosition(model, 1000, 256);
    const large = angioTransducerPosition(model, 1000, 512);
    expect(large.x).toBeCloseTo(2 * small.x, 9);
    const still = angioTransducerPosition(model, 1000, 512);
    const moving = angioTransducerPosition(model, 1000, 512, ANGIO_COUNT);
    const shiftPx = Math.hypot(moving.x - still.x, moving.y - still.y);
    expect(shiftPx).toBeLessThan(15);
  });
});

describe('renderAngioFrame', () => {
  it('renders the same bytes for the same seed, another picture for another seed', () => {
    const frame = renderAngioFrame(model, 7, ANGIO_COUNT);
    expect(frame).toHaveLength(512 * 512);
    expect(renderAngioFrame(createPullbackModel({ seed: 21, frameCount: 3600 }), 7, ANGIO_COUNT)).toEqual(frame);
    const other = renderAngioFrame(createPullbackModel({ seed: 22, frameCount: 3600 }), 7, ANGIO_COUNT);
    let differing = 0;
    for (let k = 0; k < frame.length; k++) if (Math.abs(frame[k]! - other[k]!) > 30) differing++;
    expect(differing).toBeGreaterThan(2000);
  });

  it('shows the contrast-filled main vessel darker than the background, narrowest at the stenosis', () => {
    const angioIndex = 0;
    const frame = renderAngioFrame(model, angioIndex, ANGIO_COUNT);
    const tree = angioTree(model);
    const pose = cardiacPose(angioIndex);
    const darkness = (slice: number): number => {
      const arc = tree.pullbackDistalArc - ((slice / model.frameRateHz) * model.pullbackSpeedMmPerS) / tree.mmPerUnit;
      const here = pointAtArc(tree.main, arc);
      const [x, y] = movePoint(tree, pose, here.x, here.y);
      return meanAround(frame, 512, x * 512, y * 512, 1.5);
    };
    const background = meanAround(frame, 512, 40, 470, 20);
    // The reference segment is darker than the background; the stenosis lets more light through.
    expect(darkness(600)).toBeLessThan(0.6 * background);
    expect(darkness(minimalLumenFrame(model))).toBeGreaterThan(darkness(600) + 10);
    expect(pointAtArc(tree.main, tree.pullbackProximalArc).diameterMm).toBeGreaterThan(2.5);
  });

  it('marks the transducer at the first slice of each angio frame with a bright bar', () => {
    for (const angioIndex of [0, 60, ANGIO_COUNT - 1]) {
      const frame = renderAngioFrame(model, angioIndex, ANGIO_COUNT);
      const slice = firstSliceForAngioFrame(angioIndex, model.frameCount, ANGIO_COUNT);
      const marker = angioTransducerPosition(model, slice, 512, ANGIO_COUNT);
      expect(meanAround(frame, 512, marker.x, marker.y, 1)).toBeGreaterThan(220);
    }
  });

  it('moves the vessels with the heart from frame to frame, by a few pixels', () => {
    const tree = angioTree(model);
    const here = pointAtArc(tree.main, tree.pullbackDistalArc);
    const positions = [0, 2, 4, 6].map((angioIndex) => movePoint(tree, cardiacPose(angioIndex), here.x, here.y));
    const [first] = positions;
    const largestShiftPx = Math.max(...positions.map(([x, y]) => Math.hypot(x - first![0], y - first![1]) * 512));
    expect(largestShiftPx).toBeGreaterThan(2);
    expect(largestShiftPx).toBeLessThan(20);
  });
});
