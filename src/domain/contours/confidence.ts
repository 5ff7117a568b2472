/**
 * How far the detector trusts one frame's borders, in [0, 1]: a logistic score of how likely both
 * borders are right (Dice ≥ 0.93 against the truth), from what the frame itself shows:
 *
 * - B: blood contrast, the mean blood log-odds just inside the lumen border minus just outside it
 *   (over the seeing rays, capped at 5): an echolucent plaque read without a temporal cue, or blood
 *   as bright as plaque at 60 MHz, gives little contrast at the border found;
 * - E: vessel edge, the mean EEM step response at the found border in speckle standard deviations
 *   (capped at 8);
 * - b_l, b_v: the shares of rays on which the lumen and the vessel were interpolated (guidewire and
 *   calcium shadows, side branches, the frame's edge);
 * - Δ: the mean absolute change of both borders from the previous frame in units of 0.05 mm
 *   (capped at 6; frames lie a few hundredths of a millimetre apart, so honest borders barely
 *   move), 0 without a previous frame;
 * - n: 1 without a previous frame (no temporal speckle cue), else 0.
 *
 *   z = −5.02 + 0.59 B + 1.10 E − 0.30 b_l − 1.47 b_v − 0.135 Δ − 1.36 n
 *   confidence = σ(z) · min(1, (1 − b_l) / 0.8) · min(1, (1 − b_v) / 0.8)
 *
 * The logistic weights were fitted on the evaluation cases' TUNING seeds, frames with a Dice below
 * 0.93 weighing 5 times as much as the others (bad frames are few, and flagging them is the point):
 * it ranks frames with both Dice ≥ 0.95 above frames with either below 0.9 with a probability of
 * 0.88 (AUC), and flags (confidence < 0.5) 60 % of the latter and 11 % of the former, first frames
 * of runs included. The last two factors make a frame whose borders are mostly interpolated (a big
 * shadow) lose confidence whatever else it shows.
 */

export interface ConfidenceInputs {
  readonly lumenBlindShare: number;
  readonly vesselBlindShare: number;
  readonly bloodContrast: number;
  readonly vesselEdge: number;
  /** Mean absolute radius change from the previous frame in mm, or null without one. */
  readonly changeMm: number | null;
}

const INTERCEPT = -5.02;
const BLOOD_WEIGHT = 0.59;
const EDGE_WEIGHT = 1.1;
const LUMEN_BLIND_WEIGHT = -0.3;
const VESSEL_BLIND_WEIGHT = -1.47;
const CHANGE_WEIGHT = -0.135;
const CHANGE_UNIT_MM = 0.05;
const NO_PREVIOUS_WEIGHT = -1.36;
/** Interpolating up to this share of the rays costs nothing beyond the logistic term. */
const FREE_BLIND_SHARE = 0.2;

function clamp(value: number, low: number, high: number): number {
  return value < low ? low : value > high ? high : value;
}

export function frameConfidence(inputs: ConfidenceInputs): number {
  const { lumenBlindShare, vesselBlindShare, bloodContrast, vesselEdge, changeMm } = inputs;
  const z =
    INTERCEPT +
    BLOOD_WEIGHT * clamp(bloodContrast, -5, 5) +
    EDGE_WEIGHT * clamp(vesselEdge, -8, 8) +
    LUMEN_BLIND_WEIGHT * lumenBlindShare +
    VESSEL_BLIND_WEIGHT * vesselBlindShare +
    (changeMm === null ? NO_PREVIOUS_WEIGHT : CHANGE_WEIGHT * clamp(changeMm / CHANGE_UNIT_MM, 0, 6));
  const seen = (share: number): number => clamp((1 - share) / (1 - FREE_BLIND_SHARE), 0, 1);
  const value = (1 / (1 + Math.exp(-z))) * seen(lumenBlindShare) * seen(vesselBlindShare);
  return Number.isFinite(value) ? clamp(value, 0, 1) : 0;
}
