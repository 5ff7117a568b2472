import { describe, expect, it } from 'vitest';
import { createBmodeRenderer } from '../../../src/domain/synthetic/bmode-frame.ts';
import { catheterCentrePx } from '../../../src/domain/synthetic/contours.ts';
import { angleDifferenceRad, crossSectionAt } from '../../../src/domain/synthetic/cross-section.ts';
import { createPullbackModel, type PullbackModel } from '../../../src/domain/synthetic/pullback-model.ts';
import { clearAngles, frameAtMm, model } from './hard-case-fixtures.ts';
import { arcMean, bandMean } from './ray-sampling.ts';

describe('hard-case options', () => {
  it('leave the anatomy of a seed as it is and add their parameters to the model', () => {
    const plain = createPullbackModel({ seed: 5, frameCount: 900 });
    const hard = model('60mhz', { stent: true, nurd: 0.2 });
    expect(hard.anatomy).toEqual(plain.anatomy);
    expect(hard.look).toBe('60mhz');
    expect(hard.hardCases?.stent).not.toBeNull();
    expect(hard.hardCases?.echolucent).toBeNull();
    // One feature's parameters do not depend on which others are on.
    expect(model('20mhz', { stent: true }).hardCases?.stent).toEqual(hard.hardCases?.stent);
  });

  it('refuses a field of view too small for a displaced catheter', () => {
    expect(() => createPullbackModel({ seed: 1, frameCount: 10, frameSizePx: 512, pixelSpacingMm: 0.01, hardCases: { eccentricCatheter: 0.3 } })).toThrow(/needs/);
    expect(() => createPullbackModel({ seed: 1, frameCount: 10, frameSizePx: 512, pixelSpacingMm: 0.01, hardCases: { stent: true } })).not.toThrow();
  });

  it('refuses strengths that would break the geometry (a folding warp, a catheter outside the lumen)', () => {
    expect(() => model('60mhz', { nurd: 1 })).toThrow(RangeError);
    expect(() => model('60mhz', { eccentricCatheter: 0.9 })).toThrow(RangeError);
    expect(() => model('60mhz', { bloodEchoGain: -1 })).toThrow(RangeError);
  });
});

describe('echolucent plaque', () => {
  const lucent = model('60mhz', { echolucentPlaque: true });
  const plain = model('60mhz', {});
  const frame = frameAtMm(lucent.hardCases!.echolucent!.centreMm);
  const section = crossSectionAt(lucent, frame);
  const sector = section.echolucent!;
  const withPlaque = createBmodeRenderer(lucent).renderFrame(frame);
  const without = createBmodeRenderer(plain).renderFrame(frame);
  const inSector = clearAngles(lucent, frame).filter((a) => Math.abs(angleDifferenceRad(a, sector.centreAngleRad)) < sector.halfArcRad - 0.15);

  it('is as dark as blood in its sector, where the plain plaque is much brighter', () => {
    expect(inSector.length).toBeGreaterThan(3);
    // Means over the whole sector: single speckle cells vary by tens of gray levels.
    const sectorMean = (m: PullbackModel, pixels: Uint8Array, from: number, to: number): number =>
      inSector.reduce((sum, angle) => sum + bandMean(m, pixels, angle, section.lumenRadiusMm(angle) + from, section.lumenRadiusMm(angle) + to), 0) / inSector.length;
    const blood = sectorMean(lucent, withPlaque, -0.25, -0.05);
    const plaque = sectorMean(lucent, withPlaque, 0.05, 0.2);
    const plainPlaque = sectorMean(plain, without, 0.05, 0.2);
    // The plaque scatters echoRatio times as strongly as blood (about ±2 dB, 10 gray levels at
    // 5.1 gray levels per dB), less the tissue's attenuation over the band's first 0.1 mm.
    const expected = 5.1 * (20 * Math.log10(sector.echoRatio) - 20 * Math.log10(Math.E) * 1.6 * 0.125);
    expect(Math.abs(plaque - blood - expected)).toBeLessThan(4);
    // At 60 MHz blood is bright, yet the plain plaque stands well above it.
    expect(plainPlaque - blood).toBeGreaterThan(15);
  });

  it('changes the image only in its sector, from the lumen border outwards', () => {
    const centre = catheterCentrePx(lucent);
    let changed = 0;
    for (let p = 0; p < withPlaque.length; p++) {
      if (withPlaque[p] === without[p]) continue;
      changed++;
      const x = (p % lucent.frameSizePx) + 0.5 - centre.x;
      const y = Math.floor(p / lucent.frameSizePx) + 0.5 - centre.y;
      const angle = Math.atan2(y, x);
      // The sector's soft edge, the beam's width across lines and a pixel's span at the border.
      expect(Math.abs(angleDifferenceRad(angle, sector.centreAngleRad))).toBeLessThan(sector.halfArcRad + 0.12 + 0.06);
      expect(Math.hypot(x, y) * lucent.pixelSpacingMm).toBeGreaterThan(section.lumenRadiusMm(angle) - 0.08);
    }
    expect(changed).toBeGreaterThan(1000);
  });
});

/** Pixels that differ between two frames, as (angle, radius mm) around the catheter. */
function changedPixels(m: PullbackModel, a: Uint8Array, b: Uint8Array): { angle: number; radiusMm: number }[] {
  const centre = catheterCentrePx(m);
  const changed: { angle: number; radiusMm: number }[] = [];
  for (let p = 0; p < a.length; p++) {
    if (a[p] === b[p]) continue;
    const x = (p % m.frameSizePx) + 0.5 - centre.x;
    const y = Math.floor(p / m.frameSizePx) + 0.5 - centre.y;
    changed.push({ angle: Math.atan2(y, x), radiusMm: Math.hypot(x, y) * m.pixelSpacingMm });
  }
  return changed;
}

describe('bright blood (the 40-60 MHz look)', () => {
  const frame = 100;
  const bright = model('60mhz', { bloodEchoGain: 1.6 });
  const sixty = model('60mhz', {});
  const twenty = model('20mhz', {});
  const section = crossSectionAt(sixty, frame);
  const angles = clearAngles(sixty, frame);
  const means = (m: PullbackModel): { blood: number; plaque: number; pixels: Uint8Array } => {
    const pixels = createBmodeRenderer(m).renderFrame(frame);
    const band = (from: number, to: number): number =>
      angles.reduce((sum, angle) => sum + bandMean(m, pixels, angle, section.lumenRadiusMm(angle) + from, section.lumenRadiusMm(angle) + to), 0) / angles.length;
    return { blood: band(-0.3, -0.08), plaque: band(0.05, 0.15), pixels };
  };
  const brightMeans = means(bright);
  const sixtyMeans = means(sixty);
  const twentyMeans = means(twenty);

  it('brings the blood speckle close to the wall, where 20 MHz blood is black', () => {
    // 1.6 times the scattering amplitude: 4.1 dB, 21 gray levels at 5.1 per dB.
    expect(brightMeans.blood - sixtyMeans.blood).toBeGreaterThan(17);
    expect(brightMeans.blood - sixtyMeans.blood).toBeLessThan(25);
    expect(Math.abs(brightMeans.plaque - brightMeans.blood)).toBeLessThan(12);
    expect(sixtyMeans.plaque - sixtyMeans.blood).toBeGreaterThan(15);
    expect(twentyMeans.plaque - twentyMeans.blood).toBeGreaterThan(60);
  });

  it('changes only the lumen', () => {
    const changed = changedPixels(sixty, brightMeans.pixels, sixtyMeans.pixels);
    expect(changed.length).toBeGreaterThan(10_000);
    // The pulse spreads blood's echo a few hundredths of a millimetre past the border.
    for (const { angle, radiusMm } of changed) expect(radiusMm).toBeLessThan(section.lumenRadiusMm(angle) + 0.06);
  });
});

describe('side branch', () => {
  const branched = model('20mhz', { sideBranch: true });
  const plain = model('20mhz', {});
  const frame = frameAtMm(branched.hardCases!.branch!.centreMm);
  const section = crossSectionAt(branched, frame);
  const plainSection = crossSectionAt(plain, frame);
  const ostium = section.branch!;

  it('bridges the ostium in the truth: the plain borders outside the sector, a smooth curve across it', () => {
    expect(ostium.halfArcRad).toBeGreaterThan(0.3);
    let largestStepMm = 0;
    for (let k = 0; k < 720; k++) {
      const angle = (2 * Math.PI * k) / 720;
      const inside = Math.abs(angleDifferenceRad(angle, ostium.centreAngleRad)) < ostium.halfArcRad;
      for (const border of ['lumenRadiusMm', 'vesselRadiusMm'] as const) {
        const radius = section[border](angle);
        if (inside) expect(Math.abs(radius - plainSection[border](angle))).toBeLessThan(0.1);
        else expect(radius).toBe(plainSection[border](angle));
        largestStepMm = Math.max(largestStepMm, Math.abs(radius - section[border]((2 * Math.PI * (k + 1)) / 720)));
      }
      expect(section.vesselRadiusMm(angle) - section.lumenRadiusMm(angle)).toBeGreaterThan(0.15);
    }
    // No jump at the sector's edges: neighbouring half-degree samples stay within 0.01 mm.
    expect(largestStepMm).toBeLessThan(0.01);
  });

  it('defines the bridge as the cubic Hermite interpolation between the sector edges, as experts trace it', () => {
    const start = ostium.centreAngleRad - ostium.halfArcRad;
    const width = 2 * ostium.halfArcRad;
    const h = 1e-4;
    for (const border of ['lumenRadiusMm', 'vesselRadiusMm'] as const) {
      const r = (angle: number): number => plainSection[border](angle);
      const slope = (angle: number): number => ((r(angle + h) - r(angle - h)) / (2 * h)) * width;
      for (const u of [0.1, 0.3, 0.5, 0.7, 0.9]) {
        const expected =
          (2 * u ** 3 - 3 * u ** 2 + 1) * r(start) +
          (u ** 3 - 2 * u ** 2 + u) * slope(start) +
          (-2 * u ** 3 + 3 * u ** 2) * r(start + width) +
          (u ** 3 - u ** 2) * slope(start + width);
        expect(section[border](start + u * width)).toBeCloseTo(expected, 6);
      }
    }
  });

  it('draws blood through the wall in the ostium, where the plain wall is bright', () => {
    const pixels = createBmodeRenderer(branched).renderFrame(frame);
    const plainPixels = createBmodeRenderer(plain).renderFrame(frame);
    const angles = clearAngles(branched, frame).filter((a) => Math.abs(angleDifferenceRad(a, ostium.centreAngleRad)) < ostium.halfArcRad - 0.15);
    expect(angles.length).toBeGreaterThan(3);
    const mean = (m: PullbackModel, frame: Uint8Array, from: (a: number) => number, to: (a: number) => number): number =>
      angles.reduce((sum, angle) => sum + bandMean(m, frame, angle, from(angle), to(angle)), 0) / angles.length;
    const blood = mean(branched, pixels, (a) => section.lumenRadiusMm(a) - 0.4, (a) => section.lumenRadiusMm(a) - 0.05);
    const wallFrom = (a: number): number => section.lumenRadiusMm(a) + 0.05;
    const wallTo = (a: number): number => section.vesselRadiusMm(a) + 0.5 * ostium.depthMm;
    // 20 MHz blood is a few sparse speckles on black: compare means over the whole ostium.
    expect(Math.abs(mean(branched, pixels, wallFrom, wallTo) - blood)).toBeLessThan(6);
    expect(mean(plain, plainPixels, wallFrom, wallTo) - blood).toBeGreaterThan(60);
  });
});

describe('stent', () => {
  const stented = model('60mhz', { stent: true });
  const plain = model('60mhz', {});
  const stent = stented.hardCases!.stent!;
  const frame = frameAtMm((stent.startMm + stent.endMm) / 2);
  const section = crossSectionAt(stented, frame);
  const struts = section.struts!;
  const pixels = createBmodeRenderer(stented).renderFrame(frame);
  const plainPixels = createBmodeRenderer(plain).renderFrame(frame);
  const clear = new Set(clearAngles(stented, frame, 0.4).map((a) => Math.round((a * 72) / (2 * Math.PI))));
  const visible = struts.anglesRad.filter((a) => clear.has(Math.round((((a % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI) * 72) / (2 * Math.PI)) % 72));

  it('shows each strut as a bright short arc at the lumen border with a darker shadow behind', () => {
    expect(visible.length).toBeGreaterThan(2);
    const behind = (angle: number): number => bandMean(stented, pixels, angle, section.lumenRadiusMm(angle) + 0.15, section.lumenRadiusMm(angle) + 0.5);
    // The wall behind the border where no strut, wire or calcium stands in front of it.
    const openAngles = [...clear].map((k) => (2 * Math.PI * k) / 72).filter((a) => struts.anglesRad.every((s) => Math.abs(angleDifferenceRad(a, s)) > 0.15));
    const open = openAngles.reduce((sum, a) => sum + behind(a), 0) / openAngles.length;
    for (const angle of visible) {
      const lumenMm = section.lumenRadiusMm(angle);
      let peak = 0;
      for (let r = lumenMm - 0.1; r < lumenMm + 0.05; r += 0.005) peak = Math.max(peak, arcMean(stented, pixels, angle, r, 0.005));
      expect(peak).toBeGreaterThan(200);
      expect(open - behind(angle)).toBeGreaterThan(50);
    }
  });

  it('changes the image only on the struts and in their shadows', () => {
    for (const { angle, radiusMm } of changedPixels(stented, pixels, plainPixels)) {
      const nearest = Math.min(...struts.anglesRad.map((a) => Math.abs(angleDifferenceRad(angle, a))));
      // The strut's half width and soft edge as an arc, plus the beam's spread across lines.
      expect(nearest).toBeLessThan((0.5 * struts.widthMm + 0.02) / section.lumenRadiusMm(angle) + 0.04);
      // The strut's front stands half its thickness inside the lumen; the pulse (±0.03 mm) and the
      // interpolation between samples (a pixel, 0.025 mm) spread its echo a little further in.
      expect(radiusMm).toBeGreaterThan(section.lumenRadiusMm(angle) - 0.5 * struts.thicknessMm - 0.06);
    }
  });
});
