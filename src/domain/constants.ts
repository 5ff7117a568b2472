/**
 * Every business constant of the product specification (section 9), named once.
 * Browser and server both read them from here.
 */

/** A control within this many screen pixels of a pointer is hit. */
export const HIT_RADIUS_PX = 10;
/** A freehand area is reduced to this many control points. */
export const AREA_CONTROL_POINTS = 8;
/** Text note edits are debounced by this many milliseconds. */
export const TEXT_DEBOUNCE_MS = 300;
/** Labels cycle through these letters per slice. */
export const LABEL_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** Colours handed out to annotations of one slice, in order. */
export const SLICE_COLORS = [
  '#FFE411',
  '#FF8E2B',
  '#45FF4F',
  '#FF461F',
  '#CE1FFF',
  '#FF2B98',
  '#E3B5AF',
  '#38FFB4',
  '#E6F0C5',
] as const;
/** The lumen border, as the contour tool and the pullback plot draw it. */
export const CONTOUR_COLOR = '#9cc5c6';
/**
 * The vessel border (external elastic membrane) and the plaque burden curve: an amber, far in hue
 * from the lumen's cyan-grey so the two borders never read as one (also under red-green colour
 * blindness, where amber and cyan-grey still differ in lightness). On the dark B-mode image its
 * contrast is above 8:1. (The slice colour #FF8E2B is also orange; annotations carry a label card,
 * the vessel border never does.)
 */
export const VESSEL_CONTOUR_COLOR = '#f4a259';

/** Default pixel spacing: the spec's "pixel length / 100 = mm". */
export const DEFAULT_PIXEL_SPACING_MM = 0.01;

/** Playback advances this many milliseconds per tick, one slice per tick. */
export const PLAYBACK_STEP_MS = 10;
/** Play and Pause need at least this many B-mode images loaded. */
export const MIN_BMODE_IMAGES_FOR_PLAYBACK = 100;
/** Default panel widths (angio, B-mode, L-mode) in percent of the window width. */
export const DEFAULT_PANEL_WIDTHS_PERCENT = [30, 45, 20] as const;

/** Session timings (oidc-client-ts and the auth statechart). */
export const TOKEN_EXPIRING_NOTICE_S = 60;
export const SILENT_REQUEST_TIMEOUT_S = 10;
export const STALE_AUTH_STATE_AGE_S = 15 * 60;
export const SESSION_CHECK_INTERVAL_S = 2;
export const SILENT_RENEW_RETRY_MS = 5_000;
/** The expiry timer fires no sooner than this ... */
export const EXPIRY_TIMER_MIN_MS = 1_000;
/** ... and polls at least this often. */
export const EXPIRY_TIMER_MAX_POLL_MS = 5_000;

export const DEFAULT_TOKEN_TYPE = 'Bearer';
export const ADMIN_GROUP = 'Admins';
export const SIGN_IN_SCOPES = 'email openid phone profile';
export const SIGN_IN_RESPONSE_TYPE = 'code';

/** Theme constants (spec section 9), mapped onto Chakra UI tokens in web/ui. */
export const THEME_PREFIX = 'sm';
export const DARK_MODE_CLASS = 'sm-theme-dark';
export const CSS_LAYER_ORDER = ['tailwind-base', 'primevue', 'tailwind-utilities'] as const;
export const Z_INDEX = { modal: 1100, overlay: 1000, menu: 1000, tooltip: 1100 } as const;
export const TRANSITION_DURATION = '0.2s';
export const DISABLED_OPACITY = 0.6;
export const TOAST_WIDTH = '25rem';

export const LOCALE = 'en-US';
export const FIRST_DAY_OF_WEEK = 0; // Sunday
