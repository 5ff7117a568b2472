import { describe, expect, it } from 'vitest';
import { DEFAULT_PANEL_SIZES, MIN_PANEL_PERCENT, bmodeShare, moveSplitter, panelWidths } from '../../../../src/web/review/panels/panel-sizes.ts';

describe('bmodeShare (spec section 2)', () => {
  it('takes 5 off a B-mode size below 50', () => {
    expect(bmodeShare([30, 45, 20])).toBe(40);
    expect(bmodeShare([30, 49.9, 20])).toBeCloseTo(44.9);
  });

  it('takes 2 off a B-mode size of 50 or more', () => {
    expect(bmodeShare([20, 50, 20])).toBe(48);
    expect(bmodeShare([10, 70, 15])).toBe(68);
  });

  it('lays the defaults out at 30 / 45 / 20: the rule applies only to set sizes', () => {
    expect(panelWidths(DEFAULT_PANEL_SIZES)).toEqual([30, 45, 20]);
    expect(panelWidths([30, 45, 20])).toEqual([30, 40, 20]);
    expect(panelWidths(moveSplitter(DEFAULT_PANEL_SIZES, 0, 0))).toEqual([30, 40, 20]);
    expect(panelWidths(moveSplitter(DEFAULT_PANEL_SIZES, 1, 10))).toEqual([30, 53, 10]);
  });
});

describe('moveSplitter', () => {
  it('grows the panel before the splitter and shrinks the one after', () => {
    expect(moveSplitter([30, 45, 20], 0, 10)).toEqual([40, 35, 20]);
    expect(moveSplitter([30, 45, 20], 1, -5)).toEqual([30, 40, 25]);
  });

  it('keeps both panels at least the minimum wide', () => {
    expect(moveSplitter([30, 45, 20], 0, 100)).toEqual([75 - MIN_PANEL_PERCENT, MIN_PANEL_PERCENT, 20]);
    expect(moveSplitter([30, 45, 20], 0, -100)).toEqual([MIN_PANEL_PERCENT, 65, 20]);
  });

  it('moving into the 50 band switches the B-mode rule', () => {
    const sizes = moveSplitter([30, 45, 20], 0, -6);
    expect(sizes).toEqual([24, 51, 20]);
    expect(bmodeShare(sizes)).toBe(49);
  });
});
