import { describe, expect, it } from 'vitest';
import { setKeyFrame } from '../../../src/domain/annotations/contour-edits.ts';
import { emptyManifest, parseManifest } from '../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis } from '../../../src/domain/contours/corrected-analysis.ts';
import {
  createCutBorderSampler,
  cutDistanceOfRow,
  cutToPolar,
  dragBorderOnCut,
  frameCentre,
  keyFrameFromLmodeDrag,
  rowOfCutDistance,
  sampleBordersAlongCut,
} from '../../../src/domain/contours/lmode-borders.ts';
import { polarRadii } from '../../../src/domain/contours/polar-border.ts';
import { createLmodeSampler, sampleColumn } from '../../../src/web/review/lmode/lmode-sampling.ts';
import { CENTRE, circle, detectedPullback, GEOMETRY } from './border-fixtures.ts';

const radiusAt = (points: readonly { x: number; y: number }[], angle: number) => polarRadii(points, CENTRE, 1, angle)[0]!;
const DOWN = Math.PI / 2;

describe('the borders along the L-mode cut', () => {
  it('gives two points each side per frame for the lumen and the vessel, and none where a frame has no border', () => {
    const offCentre = circle(100).map((p) => ({ x: p.x + 10, y: p.y }));
    const slices = [
      { controlPoints: circle(100), vessel: { controlPoints: circle(200) } },
      { controlPoints: offCentre, vessel: null },
      { controlPoints: [], vessel: null },
    ];
    const { lumen, vessel } = sampleBordersAlongCut(slices, frameCentre(512, 512), 0);
    expect(lumen.toward[0]).toBeCloseTo(100, 1);
    expect(lumen.away[0]).toBeCloseTo(-100, 1);
    expect(vessel.toward[0]).toBeCloseTo(200, 1);
    expect(vessel.away[0]).toBeCloseTo(-200, 1);
    expect(lumen.toward[1]).toBeCloseTo(110, 1);
    expect(lumen.away[1]).toBeCloseTo(-90, 1);
    expect(vessel.toward[1]).toBeNaN();
    expect(lumen.toward[2]).toBeNaN();
  });

  it('reads the same borders along every new cut angle from one sampler', () => {
    const oval = circle(100).map((p) => ({ x: CENTRE.x + 1.5 * (p.x - CENTRE.x), y: p.y }));
    const sampler = createCutBorderSampler([{ controlPoints: oval, vessel: null }], CENTRE);
    expect(sampler.sample(0).lumen.toward[0]).toBeCloseTo(150, 0);
    expect(sampler.sample(DOWN).lumen.toward[0]).toBeCloseTo(100, 0);
    expect(sampler.sample(DOWN).lumen.away[0]).toBeCloseTo(-100, 0);
  });

  it('puts a border on the L-mode row where the L-mode image shows it', () => {
    // A bright ring of radius 100 px round the frame centre, read by the review's own L-mode sampler.
    const width = 512;
    const frame = new Uint8Array(width * width);
    for (let row = 0; row < width; row++) for (let col = 0; col < width; col++) if (Math.abs(Math.hypot(col + 0.5 - 256, row + 0.5 - 256) - 100) < 1.5) frame[row * width + col] = 255;
    const angle = 0.7;
    const sampler = createLmodeSampler(width, width, angle);
    const column = new Uint8Array(sampler.length);
    sampleColumn(sampler, frame, column, 0, 1);
    const rows = [...column.keys()].filter((k) => column[k]! > 128);
    const toward = rows.filter((k) => cutDistanceOfRow(k, sampler.length) > 0);
    const mean = toward.reduce((a, b) => a + b, 0) / toward.length;
    const { lumen } = sampleBordersAlongCut([{ controlPoints: circle(100, 32), vessel: null }], frameCentre(width, width), angle);
    expect(rowOfCutDistance(lumen.toward[0]!, sampler.length)).toBeCloseTo(mean, 0);
    expect(cutDistanceOfRow(rowOfCutDistance(37.25, 512), 512)).toBe(37.25);
  });
});

describe('a border dragged on the L-mode', () => {
  it('takes the dropped radius at the cut and keeps its shape beyond ±30°', () => {
    const dragged = dragBorderOnCut({ controlPoints: circle(100), centre: CENTRE, to: cutToPolar(DOWN, 130) });
    expect(dragged.length).toBeLessThanOrEqual(64);
    expect(radiusAt(dragged, DOWN)).toBeCloseTo(130, 1);
    expect(radiusAt(dragged, DOWN + Math.PI / 12)).toBeGreaterThan(110);
    expect(radiusAt(dragged, DOWN + Math.PI / 4)).toBeCloseTo(100, 0);
    expect(radiusAt(dragged, DOWN + Math.PI)).toBeCloseTo(100, 0);
  });

  it('moves the other side of the catheter when dropped on the other half of the cut', () => {
    const dragged = dragBorderOnCut({ controlPoints: circle(100), centre: CENTRE, to: cutToPolar(DOWN, -80) });
    expect(radiusAt(dragged, DOWN + Math.PI)).toBeCloseTo(80, 1);
    expect(radiusAt(dragged, DOWN)).toBeCloseTo(100, 0);
  });

  it('draws a round border at the dropped radius on a frame without one, and refuses a drop that is not a number', () => {
    const drawn = dragBorderOnCut({ controlPoints: [], centre: CENTRE, to: cutToPolar(DOWN, -90) });
    for (const angle of [0, DOWN, Math.PI, 3 * DOWN]) expect(radiusAt(drawn, angle)).toBeCloseTo(90, 1);
    expect(() => dragBorderOnCut({ controlPoints: circle(100), centre: CENTRE, to: cutToPolar(DOWN, Number.NaN) })).toThrow(RangeError);
  });

  it('never crosses the other border', () => {
    const lumen = dragBorderOnCut({ controlPoints: circle(100), centre: CENTRE, to: cutToPolar(0, 250), other: { side: 'outside', controlPoints: circle(200) }, minGapPx: 10 });
    expect(radiusAt(lumen, 0)).toBeCloseTo(190, 0);
    const vessel = dragBorderOnCut({ controlPoints: circle(200), centre: CENTRE, to: cutToPolar(0, 50), other: { side: 'inside', controlPoints: circle(100) }, minGapPx: 10 });
    expect(radiusAt(vessel, 0)).toBeCloseTo(110, 0);
  });

  it('becomes a key frame the manifest accepts, which the analysis carries to the next frames and the L-mode then shows', () => {
    const detected = detectedPullback({ frames: 300, lumen: () => 100 });
    const keyFrame = keyFrameFromLmodeDrag(150, 'lumen', { controlPoints: circle(100), centre: CENTRE, to: cutToPolar(DOWN, 130) });
    expect(keyFrame).toMatchObject({ slice: 150, border: 'lumen', source: 'manual', reachMm: 2 });
    const manifest = setKeyFrame(emptyManifest(), keyFrame.slice, keyFrame.controlPoints, keyFrame.border, keyFrame.reachMm);
    expect(parseManifest(JSON.parse(JSON.stringify(manifest))).ok).toBe(true);
    const { slices } = correctedAnalysis(detected, manifest, GEOMETRY);
    const { lumen } = sampleBordersAlongCut(slices, CENTRE, DOWN);
    expect(lumen.toward[149]).toBeCloseTo(130, 0);
    expect(lumen.toward[159]).toBeGreaterThan(125);
    expect(lumen.toward[209]).toBeCloseTo(115, 0);
    expect(lumen.toward[299]).toBeCloseTo(100, 0);
    // The other side of the cut was not dragged.
    expect(lumen.away[159]).toBeCloseTo(-100, 0);
  });
});
