import { describe, expect, it } from 'vitest';
import { analysisAssumedNote, withAssumedColumn } from '../../../../src/web/review/contours/assumed-export.ts';

describe('pullback analysis exports', () => {
  const csv = 'slice,position_mm,area_mm2\r\n1,0.000,5.00\r\n2,0.017,5.10\r\n';

  it('adds an assumed column naming the figures each row rests on', () => {
    expect(withAssumedColumn(csv, { assumed: ['pullbackSpeed', 'pixelSpacing', 'acquiredAt'] })).toBe(
      'slice,position_mm,area_mm2,assumed\r\n1,0.000,5.00,pixel spacing; pullback speed\r\n2,0.017,5.10,pixel spacing; pullback speed\r\n',
    );
    expect(withAssumedColumn(csv, { assumed: ['acquiredAt'] })).toBe(csv);
    expect(withAssumedColumn(csv, {})).toBe(csv);
  });

  it('notes the assumed figures beside the analysis', () => {
    expect(analysisAssumedNote({ assumed: ['pixelSpacing', 'frameRate'] }, { pixelSpacingMm: 0.01, frameRateHz: 30, pullbackSpeedMmPerS: 0.5 })).toBe('Rests on 0.01 mm/px (assumed), 30 frames/s (assumed)');
    expect(analysisAssumedNote({ assumed: ['acquiredAt'] }, { pixelSpacingMm: 0.01, frameRateHz: 30, pullbackSpeedMmPerS: 0.5 })).toBeNull();
  });
});
