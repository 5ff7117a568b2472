import { describe, expect, it, vi } from 'vitest';
import {
  BRIGHTNESS_RANGE,
  CONTRAST_RANGE,
  DEFAULT_BRIGHTNESS_CONTRAST,
  DRAG_PIXELS_PER_UNIT,
  createBrightnessContrastStore,
  dragBrightnessContrast,
} from '../../../../src/web/review/view/brightness-contrast.ts';

describe('dragBrightnessContrast', () => {
  it('a vertical drag changes brightness only: up brightens', () => {
    const up = dragBrightnessContrast(DEFAULT_BRIGHTNESS_CONTRAST, 0, -DRAG_PIXELS_PER_UNIT / 2);
    expect(up).toEqual({ brightness: 0.5, contrast: 1 });
    expect(dragBrightnessContrast(DEFAULT_BRIGHTNESS_CONTRAST, 0, 40).brightness).toBeCloseTo(-0.2);
  });

  it('a horizontal drag changes contrast only: right raises it', () => {
    const right = dragBrightnessContrast(DEFAULT_BRIGHTNESS_CONTRAST, DRAG_PIXELS_PER_UNIT, 0);
    expect(right.brightness).toBe(0);
    expect(right.contrast).toBeCloseTo(Math.E);
    expect(dragBrightnessContrast(DEFAULT_BRIGHTNESS_CONTRAST, -DRAG_PIXELS_PER_UNIT, 0).contrast).toBeCloseTo(1 / Math.E);
  });

  it('is relative to the value at the start of the drag', () => {
    expect(dragBrightnessContrast({ brightness: 0.3, contrast: 2 }, 0, 0)).toEqual({ brightness: 0.3, contrast: 2 });
  });

  it('stays within range', () => {
    expect(dragBrightnessContrast(DEFAULT_BRIGHTNESS_CONTRAST, 1e5, -1e5)).toEqual({ brightness: BRIGHTNESS_RANGE[1], contrast: CONTRAST_RANGE[1] });
    expect(dragBrightnessContrast(DEFAULT_BRIGHTNESS_CONTRAST, -1e5, 1e5)).toEqual({ brightness: BRIGHTNESS_RANGE[0], contrast: CONTRAST_RANGE[0] });
  });
});

describe('createBrightnessContrastStore', () => {
  it('notifies on change only', () => {
    const store = createBrightnessContrastStore();
    const listener = vi.fn();
    store.subscribe(listener);
    store.set(DEFAULT_BRIGHTNESS_CONTRAST);
    expect(listener).not.toHaveBeenCalled();
    store.set({ brightness: 0.1, contrast: 1 });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.get().brightness).toBe(0.1);
  });
});
