import { describe, expect, it } from 'vitest';
import {
  acquisitionLine,
  formatAcquisitionDate,
  formatAcquisitionTime,
  formatFrameRate,
  formatPixelSpacing,
  formatPullbackSpeed,
  positionAssumed,
  recordTitle,
} from '../../../src/domain/reports/acquisition-format.ts';
import { sliceIndicatorText } from '../../../src/web/review/playback/slice-navigation.tsx';

const FIGURES = { pixelSpacingMm: 0.01, frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };
const read = { acquiredAt: '2026-03-12T10:15:00Z' };
const assumed = { acquiredAt: '2026-03-12T10:15:00Z', assumed: ['acquiredAt', 'pixelSpacing', 'frameRate', 'pullbackSpeed'] as const };

describe('acquisition facts', () => {
  it('marks each figure the files did not give as assumed, and only those', () => {
    expect(formatPixelSpacing(0.01, true)).toBe('0.01 mm/px (assumed)');
    expect(formatPixelSpacing(0.0123456, false)).toBe('0.0123 mm/px');
    expect(formatFrameRate(30, true)).toBe('30 frames/s (assumed)');
    expect(formatFrameRate(7.5, false)).toBe('7.5 frames/s');
    expect(formatPullbackSpeed(0.5, true)).toBe('0.5 mm/s (assumed)');
    expect(formatPullbackSpeed(1, false)).toBe('1 mm/s');
    expect(acquisitionLine({ ...read, assumed: ['pixelSpacing'] }, FIGURES)).toBe('Acquired 03/12/26 · 0.01 mm/px (assumed) · 30 frames/s · 0.5 mm/s');
    expect(acquisitionLine(read, FIGURES)).toBe('Acquired 03/12/26 · 0.01 mm/px · 30 frames/s · 0.5 mm/s');
  });

  it('writes an acquisition date the files did not give as unknown, never as the stand-in', () => {
    expect(formatAcquisitionDate(assumed)).toBe('unknown');
    expect(formatAcquisitionTime(assumed)).toBe('unknown');
    expect(recordTitle('Record', assumed)).toBe('Record, acquisition date unknown');
    expect(recordTitle('Review', read)).toBe('Review of 03/12/26');
    expect(acquisitionLine(assumed, FIGURES)).toBe('Acquired unknown · 0.01 mm/px (assumed) · 30 frames/s (assumed) · 0.5 mm/s (assumed)');
  });

  it('marks positions along the pullback when the frame rate or the pullback speed is assumed', () => {
    expect(positionAssumed({ assumed: ['pullbackSpeed'] })).toBe(true);
    expect(positionAssumed({ assumed: ['pixelSpacing', 'acquiredAt'] })).toBe(false);
    expect(positionAssumed({})).toBe(false);
    const images = { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };
    expect(sliceIndicatorText(61, 100, images, 'assumed')).toBe('Slice 61 / 100 · 1.00 mm (assumed)');
    expect(sliceIndicatorText(61, 100, images)).toBe('Slice 61 / 100 · 1.00 mm');
    expect(sliceIndicatorText(2, 40, images, 'none')).toBe('Slice 2 / 40');
  });
});

describe('figures not known yet', () => {
  it('are left out of the line rather than guessed', () => {
    expect(acquisitionLine(read, { pixelSpacingMm: 0.02 })).toBe('Acquired 03/12/26 · 0.02 mm/px');
    expect(acquisitionLine(read, {})).toBe('Acquired 03/12/26');
  });
});
