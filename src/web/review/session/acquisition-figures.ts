import { DEFAULT_PIXEL_SPACING_MM } from '../../../domain/constants.ts';
import type { RecordImages } from '../../../domain/images.ts';
import type { ContextRecord } from '../../session/context-store.ts';

/** Demo acquisitions' defaults, used only until the record says otherwise. */
const DEFAULT_GEOMETRY = { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };

/** The figures the header shows: those the server gave (a record or its image lists), none while neither is known. */
export interface ShownFigures {
  readonly pixelSpacingMm?: number | undefined;
  readonly frameRateHz?: number | undefined;
  readonly pullbackSpeedMmPerS?: number | undefined;
}

export interface AcquisitionFigures {
  frameRateHz: number;
  pullbackSpeedMmPerS: number;
  pixelSpacingMm: number;
  /** A record waiting for its pullback (an angiography run only) has no B-mode frame to draw, measure or detect on. */
  noPullback: boolean;
  /** A record without an angiography run (a pullback alone, a loop of other ultrasound): its angio panel collapses. */
  noAngio: boolean;
  /** The figures the server gave, for the header (the defaults above stand in until it has). */
  shown: ShownFigures;
}

/**
 * The acquisition's figures as the review uses them: from the image lists once they are ready
 * (they are what the frames were made with), from the record until then, and the demo defaults
 * while neither says. Worked out once per change, so every part of the page agrees.
 */
export function acquisitionFigures(
  images: RecordImages | null,
  record: ContextRecord | null,
  { pullback = true }: { pullback?: boolean } = {},
): AcquisitionFigures {
  const figures: AcquisitionFigures = images
    ? {
        frameRateHz: images.frameRateHz,
        pullbackSpeedMmPerS: images.pullbackSpeedMmPerS,
        pixelSpacingMm: images.pixelSpacingMm,
        noPullback: images.bmode.count === 0,
        noAngio: images.angio.count === 0,
        shown: images,
      }
    : {
        frameRateHz: record?.frameRateHz ?? DEFAULT_GEOMETRY.frameRateHz,
        pullbackSpeedMmPerS: record?.pullbackSpeedMmPerS ?? DEFAULT_GEOMETRY.pullbackSpeedMmPerS,
        pixelSpacingMm: record?.pixelSpacingMm ?? DEFAULT_PIXEL_SPACING_MM,
        noPullback: record?.bmodeFrameCount === 0,
        noAngio: record?.angioFrameCount === 0,
        shown: record ?? {},
      };
  if (pullback) return figures;
  // A loop that is not a pullback (other ultrasound) has no pullback speed: the header does not show the stand-in.
  return { ...figures, shown: { pixelSpacingMm: figures.shown.pixelSpacingMm, frameRateHz: figures.shown.frameRateHz } };
}
