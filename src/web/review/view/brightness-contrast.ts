/**
 * Brightness and contrast (the spec's names for window/level), one pair per panel, applied in the
 * panel shader and, for the L-mode, in the strip above the plot:
 * gray = clamp((value - 0.5) * contrast + 0.5 + brightness).
 */
export interface BrightnessContrast {
  /** Added to the normalised gray value, -1..1. */
  readonly brightness: number;
  /** Slope around mid-gray, CONTRAST_RANGE. */
  readonly contrast: number;
}

export const DEFAULT_BRIGHTNESS_CONTRAST: BrightnessContrast = Object.freeze({ brightness: 0, contrast: 1 });
export const BRIGHTNESS_RANGE = [-1, 1] as const;
export const CONTRAST_RANGE = [0.1, 10] as const;
/** A drag of this many pixels changes brightness by 1 (half its range), or multiplies contrast by e. */
export const DRAG_PIXELS_PER_UNIT = 200;

const clamp = (value: number, [min, max]: readonly [number, number]) => Math.min(max, Math.max(min, value));

/**
 * The brightness tool's drag from `start`: up brightens, down darkens (screen y grows downwards);
 * right raises contrast, left lowers it, multiplicatively so that it never reaches zero.
 */
export function dragBrightnessContrast(start: BrightnessContrast, dx: number, dy: number): BrightnessContrast {
  return {
    brightness: clamp(start.brightness - dy / DRAG_PIXELS_PER_UNIT, BRIGHTNESS_RANGE),
    contrast: clamp(start.contrast * Math.exp(dx / DRAG_PIXELS_PER_UNIT), CONTRAST_RANGE),
  };
}

export function isDefaultBrightnessContrast({ brightness, contrast }: BrightnessContrast): boolean {
  return brightness === DEFAULT_BRIGHTNESS_CONTRAST.brightness && contrast === DEFAULT_BRIGHTNESS_CONTRAST.contrast;
}

/**
 * The values as a panel shows them: brightness in percent of full scale, signed ("+25", "−30", "0"),
 * contrast as its factor with two decimals ("1.50"). Rounded, so a value a hair off default may
 * read "0" and "1.00": the Reset button still puts it exactly back.
 */
export function formatBrightnessContrast({ brightness, contrast }: BrightnessContrast): { brightness: string; contrast: string } {
  const percent = Math.round(brightness * 100);
  return {
    brightness: percent > 0 ? `+${percent}` : percent < 0 ? `\u2212${-percent}` : '0',
    contrast: contrast.toFixed(2),
  };
}

/**
 * The 8-bit gray levels under `value`, as the panel shader maps them (a texture read of v / 255,
 * written back at 8 bits): for drawing the same image on a 2D canvas (the L-mode strip).
 */
export function brightnessContrastLookup({ brightness, contrast }: BrightnessContrast): Uint8ClampedArray {
  const table = new Uint8ClampedArray(256);
  for (let v = 0; v < 256; v++) table[v] = Math.round(clamp((v / 255 - 0.5) * contrast + 0.5 + brightness, [0, 1]) * 255);
  return table;
}

/** A tiny external store, so that a drag redraws a panel without rendering React. */
export interface BrightnessContrastStore {
  get: () => BrightnessContrast;
  set: (value: BrightnessContrast) => void;
  reset: () => void;
  subscribe: (listener: () => void) => () => void;
}

export function createBrightnessContrastStore(): BrightnessContrastStore {
  let value = DEFAULT_BRIGHTNESS_CONTRAST;
  const listeners = new Set<() => void>();
  const set = (next: BrightnessContrast) => {
    // Clamped here too: whatever sets it, the shader and the readout never see an out-of-range pair.
    const clamped = { brightness: clamp(next.brightness, BRIGHTNESS_RANGE), contrast: clamp(next.contrast, CONTRAST_RANGE) };
    if (clamped.brightness === value.brightness && clamped.contrast === value.contrast) return;
    value = isDefaultBrightnessContrast(clamped) ? DEFAULT_BRIGHTNESS_CONTRAST : clamped;
    listeners.forEach((listener) => listener());
  };
  return {
    get: () => value,
    set,
    reset: () => set(DEFAULT_BRIGHTNESS_CONTRAST),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The review's panels that show an image, each with its own brightness and contrast. */
export type DisplayPanel = 'angio' | 'bmode' | 'lmode';

/**
 * One brightness/contrast store per panel (issue 26: a drag in one panel changes that panel only).
 * The review session owns them, so they start at default with every record opened.
 */
export type PanelDisplays = Readonly<Record<DisplayPanel, BrightnessContrastStore>>;

export function createPanelDisplays(): PanelDisplays {
  return Object.freeze({ angio: createBrightnessContrastStore(), bmode: createBrightnessContrastStore(), lmode: createBrightnessContrastStore() });
}
