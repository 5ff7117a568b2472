/** Every screen of spec section 2 that has a frame of its own. */
export type Screen = 'login' | 'patients' | 'records' | 'review' | 'users' | 'upload';

export interface ToolbarLayout {
  /** Navigate back (one page back in history). */
  back: boolean;
  save: boolean;
  tools: boolean;
  /** Upload, Users, theme and Sign out at the bottom of the left bar. */
  bottom: boolean;
  /** The right toolbar with Play and Pause. */
  right: boolean;
}

/**
 * The right toolbar's width, border and padding included. Fixed, and held by a placeholder of the same
 * width while its code loads: the review's panels and plot must not narrow under the clinician's
 * pointer when it arrives (a click on the plot a moment earlier would land on another slice).
 */
export const RIGHT_TOOLBAR_WIDTH = '58px';

/** Spec section 2, left and right toolbar per screen. */
export function toolbarLayout(screen: Screen): ToolbarLayout {
  const review = screen === 'review';
  return {
    back: screen === 'records' || screen === 'upload' || screen === 'users' || review,
    save: review,
    tools: review,
    bottom: screen !== 'login',
    right: review,
  };
}
