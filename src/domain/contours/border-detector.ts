/**
 * Lumen and vessel (EEM) borders of one B-mode frame, detected together (issue 15), behind the
 * BorderDetector contract of border-detection.ts.
 *
 * 1. Polar image P(a, k) around the catheter centre (polar-sampler.ts: any frame size, the centre
 *    anywhere), 360 rays, samples 0.015 mm apart out to 4.5 mm or the frame's far edge
 *    (rays leaving the frame sooner see nothing past it). With a previous frame, its polar image Q
 *    too (kept from the last call when that frame is the one detected last).
 * 2. Local statistics (speckle-features.ts): the 3 x 3 mean S, on which edges are taken, and over
 *    a larger window the local variance v and the temporal mean squared difference box((P − Q')²),
 *    Q' the previous frame aligned block by block onto this one (temporal-alignment.ts: the heart
 *    moves the vessel, NURD twists the rays, and unaligned tissue would decorrelate like blood).
 *    The catheter's ring-down (ring-down.ts) ends where the lowest quartile over the rays stops
 *    falling; its excess over blood is removed from S, and inside it there is no evidence at all.
 *    The previous frame is used only when it is a temporal neighbour of this one
 *    (frame-neighbours.ts: the speckle of the aligned blocks correlates); a frame a heartbeat away,
 *    out of order or from another run is left out, and so are its borders, and the frame is
 *    detected exactly as if alone. The previous borders guide (continuity) only when their
 *    confidence reached TRUSTED_CONFIDENCE: a failed frame never carries into the next. A carried
 *    EEM that is not near-elliptical gives way to the evidence alone (carried-eem.ts).
 * 3. Blood log-odds L(a, k) per sample from brightness, temporal decorrelation and texture
 *    (speckle-features.ts has the formula). Blood is dark, decorrelated and plain speckle; tissue
 *    brighter, persistent and structured. Echolucent plaque is as dark as blood, and at 40–60 MHz
 *    blood is bright: there the temporal cue tells them apart, and the brightness cue is weighed
 *    by how well it separates this frame's self-labelled blood and tissue. A frame read alone with
 *    nearly black blood (20 MHz) is read on absolute gray levels and texture instead (isDarkBlood).
 * 4. Lumen (lumen-search.ts): the border is where blood ends. Per ray a and candidate sample k,
 *      cost_l(a, k) = −ω_r Σ_{k_ring ≤ k' < k} w L(a, k')  −  ω_e min(E_l(a, k) / σ, 4)
 *                     + γ max(0, |k − k_prev(a)| − τ)
 *    the first a region term (every blood sample inside the border lowers the cost, every tissue
 *    sample raises it, so the border stops at the first persistent tissue rather than at the first
 *    bright edge; black without speckle counts little, and nothing in a shadow), the second the
 *    step response E_l = mean(S[k, k + W_o)) − mean(S[k − W_i, k)) in speckle deviations σ
 *    (localises the border on the intima's edge), the last a weak continuity with the previous
 *    frame.
 * 5. Blind rays (blind-rays.ts): behind the guidewire and off the frame (no speckle past 0.8 mm) both borders are
 *    unseen; behind calcium or a strut (a strong echo near the lumen border, then no speckle) only
 *    the EEM is (vessel-search.ts). Blind rays have a flat cost, are crossed on smoothness alone,
 *    and their radii are interpolated from the seeing rays on each side. Calcium is thick: an EEM
 *    found on it or in its silent shadow is searched again with those rays blind (vessel-blind.ts).
 * 6. Closed-border dynamic programming (border-search.ts), coarse to fine (coarse-to-fine-search.ts:
 *    pairs of samples first, then every sample in a band round that path). Without a previous frame the blood
 *    evidence is weakest, so a first EEM search runs alone and its robust ellipse (vessel-search.ts)
 *    caps the lumen softly. The lumen search, then the EEM search (vessel-search.ts: outward
 *    media-to-adventitia step, bright adventitia, no blood inside) with candidates forbidden closer
 *    than the minimal plaque+media thickness G outside the lumen, stiffer than the lumen's.
 * 7. Side branches: rays whose EEM lies far outside the robust ellipse of the others saw no wall
 *    (the branch's ostium); both searches run again with them blind, bridging the ostium.
 * 8. Radii (border-radii.ts): sub-sample refinement of each border on its own step response (parabola through the chosen
 *    sample and its neighbours), the log-compression bloom for the lumen (as the legacy bench/legacy/lumen-detector.ts did),
 *    angular low-pass (Fourier series of r(θ): 10 harmonics for the lumen, 6 for the smoother EEM),
 *    and finally r_v(θ) ≥ r_l(θ) + G/2 on every ray.
 * 9. Confidence (confidence.ts, inputs from frame-confidence-inputs.ts): a logistic model of the blind shares, the blood contrast across
 *    the lumen border, the EEM edge strength, the agreement with the previous frame and whether
 *    there was one.
 */
import { DEFAULT_ANGLE_COUNT, DEFAULT_CONTROL_POINTS, type BorderDetector, type BorderDetectorOptions, type Border } from './border-detection.ts';
import { createCoarseToFineWorkspace, searchClosedBorderCoarseToFine } from './coarse-to-fine-search.ts';
import { frameConfidence, type ConfidenceInputs } from './confidence.ts';
import { addContinuity, buildLumenCost } from './lumen-search.ts';
import { bordersFromPaths } from './border-radii.ts';
import { restoreShoulders } from './ostium-shoulders.ts';
import { BLIND_BAND_START_MM, rayEvidence } from './blind-rays.ts';
import { frameConfidenceInputs } from './frame-confidence-inputs.ts';
import { createPolarSampler } from './polar-sampler.ts';
import { removeRingDown, ringDownEnd } from './ring-down.ts';
import { controlPointsOf, polygonOf, widen } from './radial-profile.ts';
import { boxFilter } from './box-filter.ts';
import { bloodLogit, computeFeatures, createFeatureMaps, estimateBloodModel, NO_SIGNAL_VARIANCE, temporalDifference } from './speckle-features.ts';
import { alignPrevious } from './temporal-alignment.ts';
import { NEIGHBOUR_SCORE, neighbourScore, neighbourScratch } from './frame-neighbours.ts';
import { DEFAULT_TUNING, type BorderDetectorTuning } from './border-tuning.ts';
import { branchRays, FORBIDDEN, robustEemFit, vesselCost, vesselCostForLumen } from './vessel-search.ts';
import { eemArcScales, silentBeyondShare, wallEemFit } from './eem-shape-prior.ts';
import { checkCarriedEem, eemShapeResidual, type CarriedEemCheck } from './carried-eem.ts';
import { sameBytes } from './same-bytes.ts';
import { eemOnCalcium, shadowWindowsOf, vesselBlindRays } from './vessel-blind.ts';
import { isReadableFrame, readabilityFeatures, type ReadabilityFeatures } from './frame-readability.ts';


/** Side branches: rays whose EEM lies this far outside the fitted ellipse, in runs of at least BRANCH_MIN_RAYS. */
const BRANCH_EXCESS_MM = 0.3;
const BRANCH_FLOOR_MM = 0.08;
const BRANCH_MIN_RAYS = 6;
const BRANCH_MARGIN_RAYS = 4;
/** A shoulder beside an ostium keeps the first search's radii while within this of where both searches meet. */
const SHOULDER_EXCESS_MM = 0.1;
/** Blocks of the temporal alignment: rays, and mm along the ray. */
const ALIGN_BLOCK_RAYS = 12;
const ALIGN_BLOCK_MM = 0.45;
/** The ring-down zone ends no nearer than this, and a little past where its level meets the blood's. */
const MIN_RING_DOWN_END_MM = 0.62;
const RING_MARGIN_MM = 0.03;
const RING_FLOOR_WINDOW_MM = 0.45;
/**
 * Polar sample spacing along the rays, whatever the pixel size. The windows and costs were tuned at
 * this spacing (every evaluation case but the demo look has pixels of 0.02 mm or more); the demo
 * records' 0.01 mm pixels were sampled per pixel before, half again as many samples for no better
 * border (lumen Dice 0.987 -> 0.992 on the demo look's tuning seeds at this spacing, issue 23).
 */
const SAMPLE_MM = 0.015;
/** The blood log-odds of the last detected frame, by ray and sample, for tests and tuning. */
export interface BloodLogOdds {
  readonly values: Float32Array;
  readonly angleCount: number;
  readonly sampleCount: number;
  /** Radius in pixels of sample k. */
  radiusPx(k: number): number;
}

export interface InspectableBorderDetector extends BorderDetector {
  /** The last frame's blood log-odds (a view that the next detect overwrites). */
  bloodLogOdds(): BloodLogOdds;
  /** What the last frame's confidence was computed from. */
  confidenceInputs(): ConfidenceInputs | null;
  /** How far the last frame and its reference frame looked like temporal neighbours (frame-neighbours.ts); null without a reference. */
  neighbourScore(): number | null;
  /** What the last frame's readability was decided from (frame-readability.ts). */
  readability(): ReadabilityFeatures | null;
  /** The last frame's check of the EEM its previous frame carried (carried-eem.ts); null when no previous EEM guided it. */
  carriedEemCheck(): CarriedEemCheck | null;
}

/**
 * A previous detection below this confidence does not guide the next frame: it failed (borders at
 * the field's edge, a frame without echo). Low on purpose: good 20 MHz frames score as little as
 * 0.05 (confidence.ts), and dropping the continuity of those lost up to 0.8 Dice on the mixed
 * tuning cases (frames that then failed in turn).
 */
export const TRUSTED_CONFIDENCE = 0.02;

export { DEFAULT_TUNING, type BorderDetectorTuning };

export function createBorderDetector(
  options: BorderDetectorOptions & { readonly tuning?: Partial<BorderDetectorTuning>; /** The neighbour score threshold, for tuning (NEIGHBOUR_SCORE by default). */ readonly neighbourScore?: number },
): InspectableBorderDetector {
  const { frameWidth: width, frameHeight: height, pixelSpacingMm: mm } = options;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 16 || height < 16) throw new RangeError('frameWidth and frameHeight must be integers of at least 16');
  if (!(mm > 0) || !Number.isFinite(mm)) throw new RangeError('pixelSpacingMm must be positive');
  const centreX = options.centreX ?? width / 2;
  const centreY = options.centreY ?? height / 2;
  if (!(centreX >= 0 && centreX <= width && centreY >= 0 && centreY <= height)) throw new RangeError('the catheter centre must lie inside the frame');
  const t: BorderDetectorTuning = { ...DEFAULT_TUNING, ...options.tuning };
  // The polar grid's sample spacing is the same in mm on every frame (SAMPLE_MM), so that the windows
  // below hold as many samples on a 0.035 mm/px export as on a 0.01 mm/px frame.
  const sampleMm = SAMPLE_MM;
  const step = sampleMm / mm;
  const px = (lengthMm: number, least = 1): number => Math.max(least, Math.round(lengthMm / sampleMm));

  const angleCount = DEFAULT_ANGLE_COUNT;
  // Out to the farther frame edge: rays that leave the frame sooner (a cropped field of view) see
  // nothing beyond it and are interpolated there (insideCount).
  const fieldRadiusPx = Math.max(centreX, width - centreX, centreY, height - centreY) - 1;
  const fieldSamples = Math.floor(Math.min(fieldRadiusPx * mm, t.maxRadiusMm) / sampleMm);
  const lumenInner = px(t.lumenInnerMm, 2);
  const lumenOuter = px(t.lumenOuterMm, 2);
  const media = px(t.mediaMm, 2);
  const adventitia = px(t.adventitiaMm, 2);
  const plaqueCheck = px(t.plaqueCheckMm);
  const minRadiusPx = px(t.minLumenRadiusMm);
  const firstSample = Math.max(1, minRadiusPx - Math.max(lumenInner, media + plaqueCheck) - 1);
  const sampleCount = fieldSamples - firstSample + 1;
  const candidateFirst = minRadiusPx - firstSample;
  const candidateCount = sampleCount - Math.max(lumenOuter, adventitia) - 1 - candidateFirst;
  const gap = px(t.minWallMm, 2);
  if (candidateCount < gap + 8) throw new RangeError('the field of view is too small for the border search');
  const maxRingEnd = Math.max(1, Math.min(sampleCount, px(t.ringDownEndMm) - firstSample));
  const minRingEnd = Math.max(0, Math.min(maxRingEnd, px(MIN_RING_DOWN_END_MM) - firstSample));
  const ringLevel = new Float32Array(maxRingEnd);
  const ringColumn = new Float32Array(Math.ceil(angleCount / 2));
  const unitScale = sampleMm / 0.01;
  /** Radius in pixels of (fractional) sample k. */
  const radiusOf = (k: number): number => (firstSample + k) * step;

  const sampler = createPolarSampler({ frameWidth: width, frameHeight: height, centreX, centreY, angleCount, firstRadiusPx: firstSample * step, radialStepPx: step, sampleCount });
  const { insideCount } = sampler;
  const n = angleCount * sampleCount;
  // This frame's polar image; at the end of detect it becomes lastPolar (the buffers trade places,
  // no copy), and the old lastPolar is resampled into next time.
  let polar = new Float32Array(n);
  const previousPolar = new Float32Array(n);
  let lastPolar = new Float32Array(n);
  // The 3 x 3 mean of the last frame's polar image (before the ring-down is taken out), and this frame's.
  let lastMean = new Float32Array(n);
  let frameMean = new Float32Array(n);
  let lastFrame: Uint8Array | null = null;
  let lastInputs: ConfidenceInputs | null = null;
  let lastNeighbourScore: number | null = null;
  let lastReadability: ReadabilityFeatures | null = null;
  let lastCarriedCheck: CarriedEemCheck | null = null;
  const carriedScratch = { fit: new Float64Array(angleCount), free: new Int32Array(angleCount) };
  const maps = createFeatureMaps(angleCount, sampleCount);
  const logit = new Float32Array(n);
  const previousMean = new Float32Array(n);
  const aligned = new Float32Array(n);
  const lit = new Uint8Array(n);
  const rayGrid = { angleCount, sampleCount, insideCount, blindStart: px(BLIND_BAND_START_MM) - firstSample, minSamples: gap };
  const prefixRows = new Float64Array(angleCount * (sampleCount + 1));
  const lumenCost = new Float32Array(angleCount * candidateCount);
  const vCost = new Float32Array(angleCount * candidateCount);
  // The frame's EEM costs with no candidate forbidden (vesselCostForLumen), made once per frame.
  const vCostFree = new Float32Array(angleCount * candidateCount);
  const noLumen = new Int32Array(angleCount).fill(-gap);
  const search = createCoarseToFineWorkspace(angleCount, candidateCount);
  const lumenPath = new Int32Array(angleCount);
  const firstLumen = new Int32Array(angleCount);
  const vesselPath = new Int32Array(angleCount);
  const eemFit = new Float64Array(angleCount);
  const temporalRamp = new Float32Array(sampleCount);
  const windows = { meanRays: 1, meanSamples: 1, statRays: t.statHalfRays, statSamples: px(t.statHalfWindowMm) };
  const controlPointCount = DEFAULT_CONTROL_POINTS;
  const alignment = {
    blockRays: ALIGN_BLOCK_RAYS,
    blockSamples: px(ALIGN_BLOCK_MM),
    maxRayShift: t.alignMaxRays,
    maxSampleShift: px(t.alignMaxMm, 0),
  };

  const neighbourGrid = { angleCount, sampleCount, blockRays: ALIGN_BLOCK_RAYS, blockSamples: alignment.blockSamples, first: 0, insideCount };
  const neighbourBlocks = neighbourScratch(angleCount, sampleCount, ALIGN_BLOCK_RAYS, alignment.blockSamples);
  const neighbourThreshold = options.neighbourScore ?? NEIGHBOUR_SCORE;
  const shadowWindows = shadowWindowsOf((lengthMm) => px(lengthMm));

  function border(radiiPx: Float32Array): Border {
    // The dense polygon (360 points) is made only when read: per-record detection keeps the
    // control points alone, and making it for every frame was garbage-collector work.
    let polygon: Border['polygon'] | null = null;
    return {
      radiiPx,
      get polygon() {
        return (polygon ??= polygonOf(radiiPx, centreX, centreY));
      },
      controlPoints: controlPointsOf(radiiPx, centreX, centreY, controlPointCount),
    };
  }

  return {
    bloodLogOdds: () => ({ values: logit, angleCount, sampleCount, radiusPx: radiusOf }),
    confidenceInputs: () => lastInputs,
    neighbourScore: () => lastNeighbourScore,
    readability: () => lastReadability,
    carriedEemCheck: () => lastCarriedCheck,
    detect(frame, previous, previousFrame) {
      sampler.resample(frame, polar);
      let hasReference = false;
      let referenceIsLast = false;
      // The reference frame's polar image: the one kept from the last call when that frame is the reference.
      let referencePolar = previousPolar;
      if (previousFrame) {
        if (previousFrame.length !== frame.length) throw new RangeError('previousFrame must have the size of frame');
        referenceIsLast = lastFrame !== null && sameBytes(lastFrame, previousFrame);
        if (referenceIsLast) referencePolar = lastPolar;
        else sampler.resample(previousFrame, previousPolar);
        hasReference = true;
      }
      const speckleVariance = computeFeatures(polar, maps, angleCount, sampleCount, candidateFirst, windows);
      frameMean.set(maps.mean);
      const ringEnd = ringDownEnd(maps.mean, angleCount, sampleCount, minRingEnd, maxRingEnd, px(RING_MARGIN_MM), px(RING_FLOOR_WINDOW_MM), ringColumn, ringLevel);
      for (let k = 0; k < sampleCount; k++) temporalRamp[k] = Math.min(1, Math.max(0, (k - ringEnd) / px(t.temporalRampMm) + 0.5));
      // The temporal cue and the continuity prior hold only between neighbouring frames (frame-neighbours.ts):
      // a reference a heartbeat away, from another run or out of order is left out, and the frame is
      // detected exactly as if alone.
      let temporal = false;
      lastNeighbourScore = null;
      lastCarriedCheck = null;
      if (hasReference) {
        // The previous frame, moved onto this one (heart motion, NURD), then compared sample by sample.
        // Its 3 x 3 mean was computed when it was detected, when it is the frame detected last.
        const referenceMean = referenceIsLast ? lastMean : previousMean;
        if (!referenceIsLast) boxFilter(referencePolar, previousMean, maps.scratch, maps.runningSum, angleCount, sampleCount, windows.meanRays, windows.meanSamples);
        alignPrevious(referencePolar, maps.mean, referenceMean, angleCount, sampleCount, Math.max(0, ringEnd), alignment, aligned);
        lastNeighbourScore = neighbourScore(polar, aligned, { ...neighbourGrid, first: Math.max(0, ringEnd) }, speckleVariance, neighbourBlocks);
        temporal = lastNeighbourScore >= neighbourThreshold;
        if (temporal) temporalDifference(polar, aligned, maps, angleCount, sampleCount, windows);
      }
      const smooth = maps.mean;
      removeRingDown(smooth, angleCount, sampleCount, ringEnd, ringLevel);
      const model = estimateBloodModel(maps, speckleVariance, temporal, angleCount, sampleCount, Math.max(candidateFirst, ringEnd), ringEnd + px(0.1));
      bloodLogit(maps, model, t.blood, temporalRamp, insideCount, angleCount, sampleCount, logit);

      // Prefix sums of S per ray, lit samples, and the rays that see nothing (blind-rays.ts).
      const blind = rayEvidence(smooth, maps.variance, NO_SIGNAL_VARIANCE * speckleVariance, rayGrid, lit, prefixRows);

      // Lumen cost: region term (blood inside) plus the step response.
      // Continuity only from a neighbour's trustworthy borders: a failed frame never carries into the next.
      const trusted = temporal && previous && previous.confidence >= TRUSTED_CONFIDENCE ? previous : null;
      const prevLumen = trusted && trusted.lumen.radiiPx.length === angleCount ? trusted.lumen.radiiPx : null;
      const prevVessel = trusted && trusted.vessel.radiiPx.length === angleCount ? trusted.vessel.radiiPx : null;
      const sigma = Math.max(2, Math.sqrt(speckleVariance));
      buildLumenCost(
        { logit, lit, smooth, prefixRows, blind, angleCount, sampleCount, candidateFirst, candidateCount, ringEnd },
        { inner: lumenInner, outer: lumenOuter, sigma, brightLevel: model.brightLevel, regionWeight: t.regionWeight * unitScale, unlitWeight: t.unlitWeight, edgeWeight: t.lumenEdgeWeight },
        lumenCost,
      );
      const vesselParameters = {
        mediaWindow: media,
        adventitiaWindow: adventitia,
        plaqueWindow: plaqueCheck,
        edgeWeight: t.vesselEdgeWeight,
        brightWeight: t.vesselBrightWeight,
        bloodWeight: t.vesselBloodWeight,
        bloodLevel: model.bloodLevel,
        sigma,
      };
      vesselCost(prefixRows, logit, noLumen, gap, angleCount, sampleCount, candidateFirst, candidateCount, vesselParameters, vCostFree);
      if (t.vesselFirst === 2 || (t.vesselFirst === 1 && !temporal)) {
        // A first EEM without the lumen; its robust ellipse caps the lumen (softly), so that weak
        // blood evidence cannot let the lumen take the EEM.
        lumenPath.fill(0);
        vesselCostForLumen(vCostFree, lumenPath, gap, angleCount, candidateCount, vCost);
        for (let a = 0; a < angleCount; a++) if (blind[a] === 1) vCost.fill(0, a * candidateCount + gap, (a + 1) * candidateCount);
        searchClosedBorderCoarseToFine(vCost, search, { maxJump: t.vesselMaxJump, jumpPenalty: t.vesselJumpCost }, vesselPath);
        if (robustEemFit(vesselPath, blind, px(BRANCH_FLOOR_MM), eemFit)) {
          for (let a = 0; a < angleCount; a++) {
            const cap = eemFit[a]! + px(t.lumenCapToleranceMm) - gap;
            const out = a * candidateCount;
            for (let c = Math.max(0, Math.ceil(cap)); c < candidateCount; c++) lumenCost[out + c]! += t.lumenCapWeight * unitScale * (c - cap);
          }
        }
      }
      addContinuity(lumenCost, prevLumen, step, angleCount, candidateCount, firstSample + candidateFirst + t.bloomMm / sampleMm, t.continuityFreeMm / sampleMm, t.continuityCost * unitScale);
      searchClosedBorderCoarseToFine(lumenCost, search, { maxJump: t.lumenMaxJump, jumpPenalty: t.lumenJumpCost }, lumenPath);

      const wallEvidence = { smooth, lit, sampleCount, insideCount, tissueLevel: model.bloodLevel + 0.5 * (model.tissueLevel - model.bloodLevel) };
      const arcScales = eemArcScales(sampleMm);
      // Vessel: blind where the lumen is, and behind strong echoes just outside the lumen.
      const blindInputs = { blind, lumenPath, candidateFirst, ringEnd, insideCount, wallSamples: gap + adventitia + 2, smooth, lit, angleCount, sampleCount, brightLevel: model.brightLevel };
      const searchVessel = (calcium: Uint8Array | null = null): Uint8Array => {
        const vesselBlind = vesselBlindRays(blindInputs, shadowWindows);
        if (calcium) for (let a = 0; a < angleCount; a++) vesselBlind[a]! |= calcium[a]!;
        const eemSearch = (continuity: Float32Array | null, into: Int32Array): void => {
          vesselCostForLumen(vCostFree, lumenPath, gap, angleCount, candidateCount, vCost);
          for (let a = 0; a < angleCount; a++) {
            const out = a * candidateCount;
            if (vesselBlind[a] === 1) for (let c = 0; c < candidateCount; c++) if (vCost[out + c]! < FORBIDDEN) vCost[out + c] = 0;
          }
          addContinuity(vCost, continuity, step, angleCount, candidateCount, firstSample + candidateFirst + t.vesselOffsetMm / sampleMm, t.continuityFreeMm / sampleMm, t.continuityCost * unitScale);
          searchClosedBorderCoarseToFine(vCost, search, { maxJump: t.vesselMaxJump, jumpPenalty: t.vesselJumpCost }, into);
        };
        eemSearch(prevVessel, vesselPath);
        // A carried EEM less elliptical than an EEM is: searched again without continuity (carried-eem.ts).
        if (prevVessel) lastCarriedCheck = checkCarriedEem(vesselPath, vesselBlind, px(BRANCH_FLOOR_MM), sampleMm, (into) => eemSearch(null, into), (path) => silentBeyondShare(path, candidateFirst, { ...wallEvidence, ...arcScales }), carriedScratch);
        return vesselBlind;
      };
      let vesselBlind = searchVessel();

      // Side branches: rays whose EEM lies far outside the ellipse of the rest saw no wall. Both
      // borders are searched again with those rays blind, bridging the ostium; the lumen's shoulders
      // beside it keep the first search's radii (ostium-shoulders.ts).
      const branch = new Uint8Array(angleCount);
      // Shape prior (eem-shape-prior.ts): the ellipse of the rays that saw a wall, robust to a whole ostium.
      if (wallEemFit(vesselPath, lumenPath, { scale: 1, offset: candidateFirst }, vesselBlind, { ...wallEvidence, ...arcScales }, arcScales.tolerance, arcScales.floor, eemFit, branch) && branchRays(vesselPath, eemFit, vesselBlind, px(BRANCH_EXCESS_MM), BRANCH_MIN_RAYS, branch) > 0) {
        widen(branch, BRANCH_MARGIN_RAYS);
        firstLumen.set(lumenPath);
        for (let a = 0; a < angleCount; a++) {
          if (branch[a] === 0 || blind[a] === 1) continue;
          blind[a] = 1;
          lumenCost.fill(0, a * candidateCount, (a + 1) * candidateCount);
        }
        searchClosedBorderCoarseToFine(lumenCost, search, { maxJump: t.lumenMaxJump, jumpPenalty: t.lumenJumpCost }, lumenPath);
        restoreShoulders(lumenPath, firstLumen, branch, blind, px(SHOULDER_EXCESS_MM));
        vesselBlind = searchVessel();
      }
      // Calcium: an EEM on a thick echo or in its shadow took the calcium's edge (vessel-blind.ts); searched again bridging it.
      const calcium = new Uint8Array(angleCount);
      if (eemOnCalcium(blindInputs, shadowWindows, vesselPath, calcium) > 0) vesselBlind = searchVessel(calcium);

      // Radii: sub-sample refinement, blind rays interpolated, low-pass, the vessel outside the lumen (border-radii.ts).
      const radii = bordersFromPaths(
        { lumenPath, vesselPath, blind, branch, vesselBlind, prefixRows, prevLumen, prevVessel, wallEvidence, sigma },
        { angleCount, sampleCount, firstSample, candidateFirst, candidateCount, step, sampleMm, pixelSpacingMm: mm, gap, lumenInner, lumenOuter, media, adventitia, tuning: t },
      );
      const { lumenRadii, vesselRadii } = radii;
      // The final EEM's shape, for detectInSequence's bent-EEM second opinion (the check's own figure when it ran on this path).
      const check = lastCarriedCheck as CarriedEemCheck | null; // set inside searchVessel, which TypeScript's narrowing does not follow
      const eemResidualMm = check ? (check.replaced ? check.freeMm! : check.carriedMm) : eemShapeResidual(vesselPath, vesselBlind, px(BRANCH_FLOOR_MM), sampleMm, carriedScratch.fit);
      lastInputs = frameConfidenceInputs({ ...radii, logit, blind, insideCount, prevLumen, prevVessel }, { angleCount, sampleCount, firstSample, step, pixelSpacingMm: mm, contrastBand: px(0.1) });
      const confidence = frameConfidence(lastInputs);
      const maxBorderRadiusPx = radiusOf(candidateFirst + candidateCount - 1);
      lastReadability = readabilityFeatures({ polar, angleCount, sampleCount, insideCount, firstRadiusMm: firstSample * sampleMm, sampleMm, pixelSpacingMm: mm, vesselRadiiPx: vesselRadii, maxBorderRadiusPx, vesselBlindShare: lastInputs.vesselBlindShare, confidence });

      // Keep this frame's polar image for the next call, whose previous frame it will likely be.
      const swap = lastPolar;
      lastPolar = polar;
      polar = swap;
      const swapMean = lastMean;
      lastMean = frameMean;
      frameMean = swapMean;
      lastFrame = lastFrame && lastFrame.length === frame.length ? lastFrame : new Uint8Array(frame.length);
      lastFrame.set(frame);
      return { lumen: border(lumenRadii), vessel: border(vesselRadii), confidence, readable: isReadableFrame(lastReadability), usedReference: temporal, eemResidualMm };
    },
  };
}
