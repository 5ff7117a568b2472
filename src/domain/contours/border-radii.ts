/**
 * The two borders' radii from the searches' paths (border-detector.ts step 8): each path's sample
 * refined to a fraction of a sample on its own step response (parabola through the chosen sample
 * and its neighbours), the lumen shifted by the log-compression bloom; blind rays interpolated from
 * the seeing rays on each side (across a side branch's ostium along the lumen's curve, ostium-bridge.ts), the EEM carried across blind and wall-less arcs by its shape prior
 * (eem-shape-prior.ts); an angular low-pass (Fourier series of r(θ)); the vessel at least half the
 * minimal wall outside the lumen. A frame on which no ray saw anything keeps its previous borders.
 */
import type { BorderDetectorTuning } from './border-tuning.ts';
import { bridgeEemAcrossArcs, type WallEvidence } from './eem-shape-prior.ts';
import { bridgeOstia } from './ostium-bridge.ts';
import { refine } from './lumen-search.ts';
import { interpolateBlind, lowPass } from './radial-profile.ts';
import { stepAt } from './vessel-search.ts';

/** What the searches left: paths (candidate indices per ray), blind rays, evidence. */
export interface BorderPaths {
  readonly lumenPath: Int32Array;
  readonly vesselPath: Int32Array;
  /** Rays on which the lumen was not seen (its radius interpolated); the vessel's blind rays. */
  readonly blind: Uint8Array;
  /** The side branches' rays (bridged along the lumen's curve, ostium-bridge.ts), or null. */
  readonly branch?: Uint8Array | null;
  readonly vesselBlind: Uint8Array;
  /** Per ray (sampleCount + 1 each), prefix sums of the smoothed polar image. */
  readonly prefixRows: Float64Array;
  /** The previous frame's trusted radii, px, or null. */
  readonly prevLumen: Float32Array | null;
  readonly prevVessel: Float32Array | null;
  readonly wallEvidence: Omit<WallEvidence, 'edge' | 'minWall' | 'band' | 'shoulderSlope'>;
  /** The speckle's standard deviation (the vessel edge is measured in it). */
  readonly sigma: number;
}

/** The polar grid and the windows, in samples (see border-detector.ts). */
export interface RadiiGeometry {
  readonly angleCount: number;
  readonly sampleCount: number;
  readonly firstSample: number;
  readonly candidateFirst: number;
  readonly candidateCount: number;
  /** Pixels per sample, mm per sample, mm per pixel. */
  readonly step: number;
  readonly sampleMm: number;
  readonly pixelSpacingMm: number;
  /** The minimal plaque+media thickness, samples. */
  readonly gap: number;
  readonly lumenInner: number;
  readonly lumenOuter: number;
  readonly media: number;
  readonly adventitia: number;
  readonly tuning: BorderDetectorTuning;
}

export interface BorderRadii {
  readonly lumenRadii: Float32Array;
  readonly vesselRadii: Float32Array;
  readonly blindCount: number;
  readonly vesselBlindCount: number;
  /** The mean EEM step response at the found border over the seeing rays, in speckle deviations. */
  readonly vesselEdge: number;
}

export function bordersFromPaths(paths: BorderPaths, geometry: RadiiGeometry): BorderRadii {
  const { lumenPath, vesselPath, blind, vesselBlind, prefixRows, prevLumen, prevVessel, wallEvidence, sigma } = paths;
  const { angleCount, sampleCount, firstSample, candidateFirst, candidateCount, step, sampleMm, gap, lumenInner, lumenOuter, media, adventitia, tuning: t } = geometry;
  /** Radius in pixels of (fractional) sample k. */
  const radiusOf = (k: number): number => (firstSample + k) * step;
  const lumenRadii = new Float32Array(angleCount);
  const vesselRadii = new Float32Array(angleCount);
  let blindCount = 0;
  let vesselBlindCount = 0;
  let vesselEdge = 0;
  for (let a = 0; a < angleCount; a++) {
    const prow = a * (sampleCount + 1);
    const kl = candidateFirst + lumenPath[a]!;
    const kv = candidateFirst + vesselPath[a]!;
    lumenRadii[a] = radiusOf(kl + refine(prefixRows, prow, kl, lumenInner, lumenOuter, candidateFirst, candidateFirst + candidateCount - 1) + t.bloomMm / sampleMm);
    vesselRadii[a] = radiusOf(kv + refine(prefixRows, prow, kv, media, adventitia, candidateFirst, candidateFirst + candidateCount - 1) + t.vesselOffsetMm / sampleMm);
    blindCount += blind[a]!;
    vesselBlindCount += vesselBlind[a]!;
    if (vesselBlind[a] === 0) vesselEdge += stepAt(prefixRows, prow, kv, media, adventitia);
  }
  const seenRays = angleCount - vesselBlindCount;
  vesselEdge = seenRays > 0 ? vesselEdge / seenRays / sigma : 0;
  if (blindCount === angleCount && prevLumen && prevVessel) {
    lumenRadii.set(prevLumen);
    vesselRadii.set(prevVessel);
  } else {
    if (blindCount > 0 && blindCount < angleCount) {
      interpolateBlind(lumenRadii, blind);
      if (paths.branch) bridgeOstia(lumenRadii, blind, paths.branch);
    }
    // Shape prior (eem-shape-prior.ts): blind arcs, and stray arcs that saw no wall, follow the EEM's robust ellipse.
    if (vesselBlindCount < angleCount) bridgeEemAcrossArcs(vesselRadii, vesselBlind, lumenRadii, geometry.pixelSpacingMm, sampleMm, { scale: 1 / step, offset: -firstSample }, wallEvidence, gap * step);
    lowPass(lumenRadii, t.lumenHarmonics);
    lowPass(vesselRadii, t.vesselHarmonics);
  }
  const minGapPx = 0.5 * gap * step;
  for (let a = 0; a < angleCount; a++) {
    lumenRadii[a] = Math.max(radiusOf(0), lumenRadii[a]!);
    vesselRadii[a] = Math.max(vesselRadii[a]!, lumenRadii[a]! + minGapPx);
  }
  return { lumenRadii, vesselRadii, blindCount, vesselBlindCount, vesselEdge };
}
