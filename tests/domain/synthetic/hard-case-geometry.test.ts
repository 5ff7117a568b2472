import { describe, expect, it } from 'vitest';
import { createBmodeRenderer } from '../../../src/domain/synthetic/bmode-frame.ts';
import { catheterCentrePx, polygonAreaMm2, truthContours } from '../../../src/domain/synthetic/contours.ts';
import { crossSectionAt } from '../../../src/domain/synthetic/cross-section.ts';
import { framePositionMm } from '../../../src/domain/synthetic/pullback-model.ts';
import { centroidPx, FRAME_RATE_HZ, model, quantile, vesselEdgeErrorsPx } from './hard-case-fixtures.ts';

/**
 * The hard cases that move or warp the borders: the renderer must draw the EEM where the truth says,
 * ray by ray, and a truth that ignored the movement must miss it (so the check can fail).
 */
const FRAME = 100;

describe('eccentric catheter', () => {
  const eccentric = model('60mhz', { eccentricCatheter: 0.33 });
  const centred = model('60mhz', {});
  const section = crossSectionAt(eccentric, FRAME);
  const truth = truthContours(eccentric, FRAME);

  it('puts the lumen centre off the catheter by the configured share of the lumen radius', () => {
    const areaMm2 = polygonAreaMm2(truth.lumen, eccentric.pixelSpacingMm);
    const offsetMm = Math.hypot(section.lumenCentreMm.x, section.lumenCentreMm.y);
    expect(offsetMm).toBeCloseTo(0.33 * Math.sqrt(areaMm2 / Math.PI), 2);
    // The configured direction is the catheter's from the lumen centre; the lumen lies the other way.
    const parameters = eccentric.hardCases!.eccentric!;
    const catheterAngle = parameters.angleStartRad + parameters.angleRadPerMm * section.zMm;
    expect(section.lumenCentreMm.x).toBeCloseTo(-offsetMm * Math.cos(catheterAngle), 6);
    expect(section.lumenCentreMm.y).toBeCloseTo(-offsetMm * Math.sin(catheterAngle), 6);
    // The truth polygon's centroid sits there too (the lumen's harmonics move it by hundredths of a mm).
    const centre = catheterCentrePx(eccentric);
    const centroid = centroidPx(truth.lumen);
    expect(Math.abs((centroid.x - centre.x) * eccentric.pixelSpacingMm - section.lumenCentreMm.x)).toBeLessThan(0.03);
    expect(Math.abs((centroid.y - centre.y) * eccentric.pixelSpacingMm - section.lumenCentreMm.y)).toBeLessThan(0.03);
    // Moving the catheter changes neither area.
    expect(areaMm2).toBeCloseTo(polygonAreaMm2(truthContours(centred, FRAME).lumen, centred.pixelSpacingMm), 3);
  });

  it('keeps the image centred on the catheter, with the EEM drawn on the truth', () => {
    const pixels = createBmodeRenderer(eccentric).renderFrame(FRAME);
    const errors = vesselEdgeErrorsPx(eccentric, FRAME, pixels, (a) => section.vesselRadiusMm(a));
    expect(quantile(errors, 0.9)).toBeLessThan(1.5);
    const centredSection = crossSectionAt(centred, FRAME);
    expect(quantile(vesselEdgeErrorsPx(eccentric, FRAME, pixels, (a) => centredSection.vesselRadiusMm(a)), 0.9)).toBeGreaterThan(3);
  });
});

describe('NURD', () => {
  // An eccentric catheter makes the EEM's radius vary round the circle, so a warp of angle shows.
  const warped = model('60mhz', { eccentricCatheter: 0.33, nurd: 0.3 });
  // The frame of the strongest warp within one swell of the distortion.
  const largestWarp = (frame: number): number => {
    const s = crossSectionAt(warped, frame);
    let largest = 0;
    for (let k = 0; k < 360; k++) largest = Math.max(largest, Math.abs(s.sceneAngleRad((2 * Math.PI * k) / 360) - (2 * Math.PI * k) / 360));
    return largest;
  };
  const frames = Array.from({ length: Math.ceil(warped.hardCases!.nurd!.periodFrames) }, (_, k) => FRAME + k);
  const nurdFrame = frames.reduce((best, frame) => (largestWarp(frame) > largestWarp(best) ? frame : best));
  const section = crossSectionAt(warped, nurdFrame);

  it('warps angles smoothly and monotonically round the whole circle', () => {
    let previous = section.sceneAngleRad(0);
    let largestWarp = 0;
    for (let k = 1; k <= 720; k++) {
      const display = (2 * Math.PI * k) / 720;
      const scene = section.sceneAngleRad(display);
      expect(scene).toBeGreaterThan(previous);
      largestWarp = Math.max(largestWarp, Math.abs(scene - display));
      previous = scene;
    }
    expect(previous - section.sceneAngleRad(0)).toBeCloseTo(2 * Math.PI, 9);
    expect(largestWarp).toBeGreaterThan(0.1);
  });

  it('warps the truth as the image: the EEM lies on the warped truth on every clear ray, not on the unwarped one', () => {
    const truth = truthContours(warped, nurdFrame);
    const centre = catheterCentrePx(warped);
    truth.vessel.forEach((point, k) => {
      const display = (2 * Math.PI * k) / truth.vessel.length;
      const radiusMm = Math.hypot(point.x - centre.x, point.y - centre.y) * warped.pixelSpacingMm;
      expect(radiusMm).toBeCloseTo(section.vesselRadiusMm(section.sceneAngleRad(display)), 9);
    });
    const pixels = createBmodeRenderer(warped).renderFrame(nurdFrame);
    const errors = vesselEdgeErrorsPx(warped, nurdFrame, pixels, (a) => section.vesselRadiusMm(section.sceneAngleRad(a)));
    expect(quantile(errors, 0.9)).toBeLessThan(1.5);
    expect(Math.max(...errors)).toBeLessThan(2.5);
    const unwarped = vesselEdgeErrorsPx(warped, nurdFrame, pixels, (a) => section.vesselRadiusMm(a));
    expect(quantile(unwarped, 0.9)).toBeGreaterThan(2.5);
  });
});

describe('cardiac motion', () => {
  const beating = model('60mhz', { cardiacMotion: 1 });
  const cardiac = beating.hardCases!.cardiac!;
  const periodFrames = Math.round(FRAME_RATE_HZ / cardiac.heartRateHz);

  it('moves, turns, dilates and pushes the section back and forth at the heart rate', () => {
    const centre = catheterCentrePx(beating);
    const xs: number[] = [];
    const areas: number[] = [];
    const zShifts: number[] = [];
    for (let frame = FRAME; frame < FRAME + periodFrames; frame++) {
      const truth = truthContours(beating, frame);
      xs.push((centroidPx(truth.vessel).x - centre.x) * beating.pixelSpacingMm);
      areas.push(polygonAreaMm2(truth.lumen, beating.pixelSpacingMm));
      zShifts.push(crossSectionAt(beating, frame).zMm - framePositionMm(beating, frame));
    }
    const range = (values: number[]): number => Math.max(...values) - Math.min(...values);
    // Peak to peak: the cycle's waveform reaches about ±0.95 of its amplitude.
    expect(range(xs)).toBeGreaterThan(1.5 * cardiac.shiftMm * Math.abs(Math.cos(cardiac.shiftAngleRad)) - 0.01);
    expect(range(zShifts)).toBeGreaterThan(1.5 * cardiac.longitudinalMm);
    expect(range(areas) / Math.min(...areas)).toBeGreaterThan(2 * cardiac.dilation);
    // One beat later the motion repeats (only the pullback has moved on).
    const later = crossSectionAt(beating, FRAME + Math.round(periodFrames * 4));
    expect(Math.abs(later.zMm - framePositionMm(beating, FRAME + Math.round(periodFrames * 4)))).toBeLessThan(cardiac.longitudinalMm * 1.01);
  });

  it('draws each frame where its own truth says, not where another phase of the beat would put it', () => {
    // Two frames half a beat apart, when the shift differs most.
    const a = FRAME;
    const b = FRAME + Math.round(periodFrames / 2);
    const renderer = createBmodeRenderer(beating);
    const pixelsA = renderer.renderFrame(a);
    const sectionA = crossSectionAt(beating, a);
    const sectionB = crossSectionAt(beating, b);
    expect(quantile(vesselEdgeErrorsPx(beating, a, pixelsA, (angle) => sectionA.vesselRadiusMm(angle)), 0.9)).toBeLessThan(1.5);
    expect(quantile(vesselEdgeErrorsPx(beating, b, renderer.renderFrame(b), (angle) => sectionB.vesselRadiusMm(angle)), 0.9)).toBeLessThan(1.5);
    expect(quantile(vesselEdgeErrorsPx(beating, a, pixelsA, (angle) => sectionB.vesselRadiusMm(angle)), 0.9)).toBeGreaterThan(2);
  });
});

describe('frame sizes and pixel spacings of real scanners', () => {
  it.each([
    ['20mhz', 384, 0.035],
    ['60mhz', 500, 0.02],
    ['20mhz', 512, 0.03],
  ] as const)('renders %s %i px frames at %f mm/px with the truth on the drawn EEM', (look, sizePx, spacingMm) => {
    const m = model(look, {}, 7, sizePx, spacingMm);
    const pixels = createBmodeRenderer(m).renderFrame(FRAME);
    expect(pixels).toHaveLength(sizePx * sizePx);
    for (const corner of [0, sizePx - 1, sizePx * (sizePx - 1), sizePx * sizePx - 1]) expect(pixels[corner]).toBe(0);
    expect(catheterCentrePx(m)).toEqual({ x: sizePx / 2, y: sizePx / 2 });
    const truth = truthContours(m, FRAME);
    for (const point of [...truth.lumen, ...truth.vessel]) expect(Math.hypot(point.x - sizePx / 2, point.y - sizePx / 2)).toBeLessThan(sizePx / 2);
    const section = crossSectionAt(m, FRAME);
    // The 20 MHz pulse and beam are wider: its edges are softer and move a little more with the speckle.
    const tolerancePx = look === '20mhz' ? 2 : 1.5;
    expect(quantile(vesselEdgeErrorsPx(m, FRAME, pixels, (a) => section.vesselRadiusMm(a)), 0.9)).toBeLessThan(tolerancePx);
  });
});

describe('a panned image (catheter off the frame centre)', () => {
  it('moves the catheter centre, the truth and the picture by the same pixels', () => {
    const panned = model('60mhz', { imageOffsetPx: { x: 10, y: -7 } });
    const plain = model('60mhz', {});
    expect(catheterCentrePx(panned)).toEqual({ x: 202, y: 185 });
    const truth = truthContours(panned, FRAME);
    const plainTruth = truthContours(plain, FRAME);
    truth.lumen.forEach((p, k) => {
      expect(p.x - plainTruth.lumen[k]!.x).toBeCloseTo(10, 9);
      expect(p.y - plainTruth.lumen[k]!.y).toBeCloseTo(-7, 9);
    });
    const pixels = createBmodeRenderer(panned).renderFrame(FRAME);
    const plainPixels = createBmodeRenderer(plain).renderFrame(FRAME);
    const size = plain.frameSizePx;
    let compared = 0;
    for (let row = 10; row < size - 10; row++) {
      for (let col = 10; col < size - 10; col++) {
        if (Math.hypot(col + 0.5 - size / 2, row + 0.5 - size / 2) > size / 2 - 12) continue;
        expect(pixels[(row - 7) * size + col + 10]).toBe(plainPixels[row * size + col]);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(90_000);
  });
});
