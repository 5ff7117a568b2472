import { describe, expect, it } from 'vitest';
import { fitStentBorder, largestGapRad, stentBorderAreaMm2, stentRadiusAt } from '../../../src/domain/stent/stent-border.ts';
import { strutsOnCircle } from './stent-fixtures.ts';

describe('stent border through the struts', () => {
  it('gives the area of a stent seen off-centre from the catheter', () => {
    const border = fitStentBorder(strutsOnCircle(9, 1.5, 0.3, -0.2));
    expect(border).not.toBeNull();
    expect(stentBorderAreaMm2(border!)).toBeCloseTo(Math.PI * 1.5 * 1.5, 1);
    expect(Math.abs(stentBorderAreaMm2(border!) / (Math.PI * 2.25) - 1)).toBeLessThan(0.01);
  });

  it('passes through the struts, not through a stray echo far off them', () => {
    const struts = strutsOnCircle(10, 1.6);
    struts.push({ angleRad: 0.3, radiusMm: 2.4, shadowContrast: 0.9 });
    const border = fitStentBorder(struts)!;
    expect(border.strutCount).toBe(10);
    expect(stentRadiusAt(border, 0.3)).toBeCloseTo(1.6, 2);
  });

  it('is not measurable from too few struts or struts on one side only', () => {
    expect(fitStentBorder(strutsOnCircle(4, 1.5))).toBeNull();
    const oneSide = strutsOnCircle(12, 1.5).filter((s) => s.angleRad < 2);
    expect(largestGapRad(oneSide)).toBeGreaterThan(4);
    expect(fitStentBorder(oneSide)).toBeNull();
  });
});
