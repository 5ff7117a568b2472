/** What a record lacks of the three panels' series (issue 26: panels follow the record). */
export interface MissingSeries {
  /** No B-mode pullback: the B-mode and L-mode panels have nothing to show. */
  readonly pullback: boolean;
  /** No angiography run: the angio panel has nothing to show. */
  readonly angio: boolean;
}

export const NO_PULLBACK_NOTE = 'The pullback of this study has not arrived yet: this record holds an angiography run only.';
export const NO_ANGIO_NOTE = 'This record has no angiography run.';
export const NO_IMAGES_NOTE = 'This record holds no images.';

/**
 * The one line the review shows above the panels when a series is missing (its panel is collapsed
 * and the others take its width), or null when the record has them all. Without it a collapsed
 * panel would look like a fault, and a black one like frames still loading.
 */
export function missingSeriesNote(missing: MissingSeries): string | null {
  if (missing.pullback && missing.angio) return NO_IMAGES_NOTE;
  if (missing.pullback) return NO_PULLBACK_NOTE;
  if (missing.angio) return NO_ANGIO_NOTE;
  return null;
}
