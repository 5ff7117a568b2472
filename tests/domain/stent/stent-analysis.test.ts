import { describe, expect, it } from 'vitest';
import { analyseStent } from '../../../src/domain/stent/stent-analysis.ts';
import type { StentFrameReading } from '../../../src/domain/stent/strut-detection.ts';
import { nativeReading, stentReading } from './stent-fixtures.ts';

/**
 * 100 frames at 10 frames/mm: native vessel on frames 0-29 and 80-99, a stent on 30-79 of radius
 * 1.6 mm narrowing to 1.3 mm at frame 55, its struts off the wall by 0.6 mm over 60° on frames 70-76.
 */
const FRAMES_PER_MM = 10;
function stentedPullback(): { readings: StentFrameReading[]; lumen: number[]; vessel: number[] } {
  const readings: StentFrameReading[] = [];
  const lumen: number[] = [];
  const vessel: number[] = [];
  for (let f = 0; f < 100; f++) {
    const inStent = f >= 30 && f < 80;
    const radius = inStent ? 1.6 - 0.3 * Math.max(0, 1 - Math.abs(f - 55) / 20) : 1.5;
    // The cell pattern turns the struts from frame to frame.
    const phase = 0.2 * f;
    readings.push(inStent ? stentReading(radius, f >= 70 && f <= 76 ? { from: 100, to: 160, gapMm: 0.6 } : undefined, phase) : nativeReading(radius));
    const lumenArea = Math.PI * radius * radius;
    lumen.push(f === 12 ? 8.5 : f === 92 ? 8.0 : lumenArea);
    // Plaque burden 55 % at frame 27 (inside the distal edge segment), about 35 % elsewhere.
    vessel.push(f === 27 ? lumenArea / 0.45 : lumenArea / 0.65);
  }
  return { readings, lumen, vessel };
}

describe('stent analysis of a pullback', () => {
  const { readings, lumen, vessel } = stentedPullback();
  const analysis = analyseStent({ readings, framesPerMm: FRAMES_PER_MM, lumenAreasMm2: lumen, vesselAreasMm2: vessel });

  it('finds the stented segment between its edges', () => {
    expect(analysis.segment).toMatchObject({ distalFrame: 30, proximalFrame: 79 });
    expect(analysis.frames[10]).toBeNull();
    expect(analysis.frames[32]?.areaMm2).toBeCloseTo(Math.PI * 1.6 * 1.6, 1);
  });

  it('finds the MSA at the under-expanded frame and the expansion against both references', () => {
    expect(analysis.msa?.frame).toBeGreaterThanOrEqual(54);
    expect(analysis.msa?.frame).toBeLessThanOrEqual(56);
    const msa = analysis.msa!.areaMm2;
    expect(msa / (Math.PI * 1.3 * 1.3)).toBeGreaterThan(0.97);
    expect(msa / (Math.PI * 1.3 * 1.3)).toBeLessThan(1.05);
    // References: the largest lumen within 10 mm beyond each edge.
    expect(analysis.references.distal).toEqual({ frame: 12, areaMm2: 8.5 });
    expect(analysis.references.proximal).toEqual({ frame: 92, areaMm2: 8.0 });
    expect(analysis.expansionMean).toBeCloseTo(msa / 8.25, 6);
    expect(analysis.expansionDistal).toBeCloseTo(msa / 8.5, 6);
  });

  it('finds the malapposed region with its arc and length', () => {
    expect(analysis.malapposition).toHaveLength(1);
    const region = analysis.malapposition[0]!;
    expect(region.firstFrame).toBe(70);
    expect(region.lastFrame).toBe(76);
    expect(region.lengthMm).toBeCloseTo(0.7);
    expect(region.maxArcDeg).toBeGreaterThan(50);
    expect(region.maxArcDeg).toBeLessThan(70);
  });

  it('reads the plaque burden within 5 mm beyond each edge and flags the criteria that fail', () => {
    expect(analysis.edges.distal).toMatchObject({ frame: 27, firstFrame: 0, lastFrame: 29 });
    expect(analysis.edges.distal!.maxBurdenPercent).toBeCloseTo(55);
    expect(analysis.edges.proximal).toMatchObject({ firstFrame: 80, lastFrame: 99 });
    expect(analysis.edges.proximal!.maxBurdenPercent).toBeCloseTo(35);
    expect(analysis.flags).toEqual(['expansion-below-80-mean', 'expansion-below-90-distal', 'edge-burden-distal', 'malapposition']);
  });

  it('takes the clinician’s references where they lie beyond the edges, and not inside the stent', () => {
    const moved = analyseStent({ readings, framesPerMm: FRAMES_PER_MM, lumenAreasMm2: lumen, vesselAreasMm2: vessel, referenceFrames: { distal: 5, proximal: 50 } });
    expect(moved.references.distal?.frame).toBe(5);
    expect(moved.references.proximal?.frame).toBe(92);
  });

  it('says nothing of a pullback without a stent', () => {
    const native = analyseStent({ readings: readings.map(() => nativeReading(1.5)), framesPerMm: FRAMES_PER_MM });
    expect(native.segment).toBeNull();
    expect(native.msa).toBeNull();
    expect(native.flags).toEqual([]);
  });
});
