/**
 * Provisional contours (issue 23): the figures of the frames detected so far, rounded as the final
 * ones, and the MLA among them only; frames not detected yet take no part, frames without a border
 * have no figures.
 */
import { describe, expect, it } from 'vitest';
import type { SliceDetection } from '../../../src/domain/contours/api.ts';
import { buildProvisionalContours, provisionalAnalysis, ProvisionalContoursSchema } from '../../../src/domain/contours/provisional-contours.ts';

/** A circular lumen of `radiusPx` at 0.01 mm/px, inside a vessel twice as wide. */
function detection(radiusPx: number, readable = true): SliceDetection {
  const ring = (r: number) => Array.from({ length: 16 }, (_, k) => ({ x: 256 + r * Math.cos((2 * Math.PI * k) / 16), y: 256 + r * Math.sin((2 * Math.PI * k) / 16) }));
  const area = Math.PI * (radiusPx * 0.01) ** 2;
  return { controlPoints: ring(radiusPx), areaMm2: area, minDiameterMm: 0.02 * radiusPx, maxDiameterMm: 0.02 * radiusPx, vessel: { controlPoints: ring(2 * radiusPx), areaMm2: 4 * area }, confidence: 0.9, readable };
}

describe('provisional contours', () => {
  it('measure only the frames detected so far: the MLA among them, none on a frame without a border or not detected', () => {
    const detections: (SliceDetection | undefined)[] = new Array(300).fill(undefined);
    detections[0] = detection(150);
    detections[100] = detection(100);
    detections[101] = detection(20, false); // unreadable: no border, not an MLA
    detections[200] = detection(140);
    const body = ProvisionalContoursSchema.parse(buildProvisionalContours({ version: 'v1', framesPerMm: 60, detections }));
    expect(body).toMatchObject({ status: 'provisional', frameCount: 300, detectedFrames: 4 });
    expect(body.slices.map((s) => s.slice)).toEqual([1, 101, 102, 201]);
    expect(body.slices[2]).toEqual({ slice: 102, areaMm2: null, minDiameterMm: null, maxDiameterMm: null });
    expect(body.mla).toEqual({ slice: 101, areaMm2: Math.round(Math.PI * 1e4) / 1e4 });
    // References within 10 mm (600 frames at 60 frames/mm) on each side of the MLA.
    expect(body.references.distal?.slice).toBe(1);
    expect(body.references.proximal?.slice).toBe(201);
  });

  it('read as the results block reads an analysis: one slice per frame, positions in mm, undetected frames without figures', () => {
    const detections: (SliceDetection | undefined)[] = new Array(120).fill(undefined);
    detections[59] = detection(100);
    const analysis = provisionalAnalysis(buildProvisionalContours({ version: 'v1', framesPerMm: 60, detections }), 60);
    expect(analysis.slices).toHaveLength(120);
    expect(analysis.slices[59]).toMatchObject({ slice: 60, areaMm2: 3.1416, minDiameterMm: 2, noBorder: false });
    expect(analysis.slices[59]!.positionMm).toBeCloseTo(59 / 60, 10);
    expect(analysis.slices[0]).toMatchObject({ slice: 1, areaMm2: null, noBorder: true });
    expect(analysis.analysis.mla).toEqual({ index: 59, areaMm2: 3.1416 });
  });
});
