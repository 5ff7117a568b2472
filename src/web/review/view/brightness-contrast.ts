/**
 * Brightness and contrast, shared by the three panels and applied in the panel shader:
 * gray = clamp((value - 0.5) * contrast + 0.5 + brightness).
 */
export interface BrightnessContrast {
  /** Added to the normalised gray value, -1..1. */
  readonly brightness: number;
  /** Slope around mid-gray, CONTRAST_RANGE. */
  readonly contrast: number;
}

export const DEFAULT_BRIGHTNESS_CONTRAST: BrightnessContrast = { brightness: 0, contrast: 1 };
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

/** A tiny external store, so that a drag redraws the panels without rendering React. */
export interface BrightnessContrastStore {
  get: () => BrightnessContrast;
  set: (value: BrightnessContrast) => void;
  subscribe: (listener: () => void) => () => void;
}

export function createBrightnessContrastStore(): BrightnessContrastStore {
  let value = DEFAULT_BRIGHTNESS_CONTRAST;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set: (next) => {
      if (next.brightness === value.brightness && next.contrast === value.contrast) return;
      value = next;
      listeners.forEach((listener) => listener());
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
