/**
 * How a catheter's centre frequency shows in the image. The demo look is the generator as it always
 * was (a 40 MHz-like pulse whose polar samples are as far apart as the frame's pixels); it must keep
 * rendering byte-identical frames, because demo records' frames are cached by version.
 *
 * The other looks sample the polar image at a fixed physical spacing, so the speckle size is set
 * by the pulse and the beam rather than by the frame's pixel size (real scanners display 384 to
 * 512 px frames at 0.02-0.035 mm/px, coarser than their A-line sampling):
 * - 20 MHz (solid-state arrays): a longer pulse and wider beam (coarser speckle), blood darker than
 *   at high frequency (scattering by red cells grows roughly with the fourth power of frequency),
 *   deeper penetration.
 * - 60 MHz (high-definition rotational): finer speckle, bright blood speckle that comes close to
 *   the wall's echo, less penetration.
 */
export type ImagingLookName = 'demo' | '20mhz' | '60mhz' | '20mhz-coronary';

/**
 * Echo strengths of the wall's layers as multiples of the generator's defaults (echo-line.ts), for a
 * look calibrated on real frames; a look without them uses the defaults exactly.
 */
export interface TissueLevels {
  readonly plaque: number;
  readonly media: number;
  readonly adventitia: number;
  readonly perivascular: number;
  /** The coherent echo of the lumen-intima interface. */
  readonly intimaSpecular: number;
}

export interface ImagingLook {
  readonly name: ImagingLookName;
  /** Polar sample spacing in mm; null: the frame's pixel spacing (the demo look). */
  readonly sampleSpacingMm: number | null;
  /** Pulse shape along the line, symmetric, odd length, centre tap in the middle. */
  readonly axialTaps: readonly number[];
  /** Beam shape across neighbouring lines, symmetric, odd length. */
  readonly lateralTaps: readonly number[];
  /** Blood's scattering strength relative to the adventitia (amplitude). */
  readonly bloodEcho: number;
  /** Amplitude attenuation in tissue, per mm. */
  readonly attenuationPerMm: number;
  /** Deepest the scanner records, in mm from the catheter (black beyond); null: the whole field of view. */
  readonly maxDepthMm: number | null;
  /** Layer echoes relative to the defaults; absent: the defaults. */
  readonly tissueLevels?: TissueLevels;
  /** Display mapping: this many dB below the tissue reference map to black, and this many dB span 0-255 (polar-frame.ts's defaults when absent). */
  readonly displayFloorDb?: number;
  readonly displayRangeDb?: number;
}

function gaussianTaps(sigmaSamples: number, halfWidth: number): number[] {
  const taps: number[] = [];
  for (let k = -halfWidth; k <= halfWidth; k++) taps.push(Math.exp(-0.5 * (k / sigmaSamples) ** 2));
  return taps;
}

export const IMAGING_LOOKS: { readonly [name in ImagingLookName]: ImagingLook } = {
  demo: {
    name: 'demo',
    sampleSpacingMm: null,
    axialTaps: [0.3, 0.75, 1, 0.75, 0.3],
    lateralTaps: [0.45, 0.85, 1, 0.85, 0.45],
    bloodEcho: 0.018,
    attenuationPerMm: 0.8,
    maxDepthMm: null,
  },
  '20mhz': {
    name: '20mhz',
    // 15 µm samples; a pulse of about 0.1 mm and a beam spread over 9 of the 512 lines.
    sampleSpacingMm: 0.015,
    axialTaps: gaussianTaps(2.2, 5),
    lateralTaps: gaussianTaps(1.9, 4),
    bloodEcho: 0.012,
    attenuationPerMm: 0.35,
    maxDepthMm: null,
  },
  '60mhz': {
    name: '60mhz',
    // 10 µm samples; a pulse of about 30 µm and a narrow beam.
    sampleSpacingMm: 0.01,
    axialTaps: gaussianTaps(1.1, 3),
    lateralTaps: gaussianTaps(1.0, 2),
    bloodEcho: 0.1,
    attenuationPerMm: 1.6,
    // Nothing comes back from deeper at 60 MHz; not computing it saves a third of a large frame.
    maxDepthMm: 6,
  },
  '20mhz-coronary': {
    name: '20mhz-coronary',
    // The 20 MHz pulse and beam, with grey levels calibrated on real 20 MHz coronary frames
    // (issue 23; tests/domain/synthetic/coronary-calibration.test.ts): nearly black blood, plaque
    // well below the adventitia, a wider display range (real consoles show about 60 dB).
    sampleSpacingMm: 0.015,
    axialTaps: gaussianTaps(2.2, 5),
    lateralTaps: gaussianTaps(1.9, 4),
    bloodEcho: 0.0095,
    attenuationPerMm: 0.35,
    maxDepthMm: null,
    tissueLevels: { plaque: 0.25, media: 1, adventitia: 1, perivascular: 1, intimaSpecular: 0.5 },
    displayFloorDb: -38,
    displayRangeDb: 60,
  },
};

export function imagingLook(name: ImagingLookName | undefined): ImagingLook {
  return IMAGING_LOOKS[name ?? 'demo'];
}
