import { describe, expect, it, vi } from 'vitest';
import {
  BRIGHTNESS_RANGE,
  CONTRAST_RANGE,
  DEFAULT_BRIGHTNESS_CONTRAST,
  DRAG_PIXELS_PER_UNIT,
  brightnessContrastLookup,
  createBrightnessContrastStore,
  createPanelDisplays,
  dragBrightnessContrast,
  formatBrightnessContrast,
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

describe('a brightness/contrast store', () => {
  it('clamps what it is given to the ranges the shader and the readout expect', () => {
    const store = createBrightnessContrastStore();
    store.set({ brightness: 3, contrast: 0 });
    expect(store.get()).toEqual({ brightness: BRIGHTNESS_RANGE[1], contrast: CONTRAST_RANGE[0] });
    store.set({ brightness: -3, contrast: 1e6 });
    expect(store.get()).toEqual({ brightness: BRIGHTNESS_RANGE[0], contrast: CONTRAST_RANGE[1] });
  });

  it('reset puts the defaults back and tells its listeners once', () => {
    const store = createBrightnessContrastStore();
    store.set({ brightness: 0.4, contrast: 2 });
    const listener = vi.fn();
    store.subscribe(listener);
    store.reset();
    store.reset();
    expect(store.get()).toEqual(DEFAULT_BRIGHTNESS_CONTRAST);
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe('createPanelDisplays', () => {
  it('gives each panel its own values: changing or resetting the B-mode leaves the angio and L-mode alone', () => {
    const displays = createPanelDisplays();
    const angioListener = vi.fn();
    displays.angio.subscribe(angioListener);
    displays.lmode.set({ brightness: -0.2, contrast: 1.5 });
    displays.bmode.set({ brightness: 0.5, contrast: 3 });
    expect(displays.angio.get()).toEqual(DEFAULT_BRIGHTNESS_CONTRAST);
    displays.bmode.reset();
    expect(displays.bmode.get()).toEqual(DEFAULT_BRIGHTNESS_CONTRAST);
    expect(displays.lmode.get()).toEqual({ brightness: -0.2, contrast: 1.5 });
    expect(angioListener).not.toHaveBeenCalled();
  });

  it('starts at default for every new set (a new record)', () => {
    createPanelDisplays().bmode.set({ brightness: 0.5, contrast: 3 });
    const next = createPanelDisplays();
    expect([next.angio.get(), next.bmode.get(), next.lmode.get()]).toEqual([DEFAULT_BRIGHTNESS_CONTRAST, DEFAULT_BRIGHTNESS_CONTRAST, DEFAULT_BRIGHTNESS_CONTRAST]);
  });
});

describe('formatBrightnessContrast', () => {
  it('shows brightness in signed percent and contrast as a two-decimal factor', () => {
    expect(formatBrightnessContrast(DEFAULT_BRIGHTNESS_CONTRAST)).toEqual({ brightness: '0', contrast: '1.00' });
    expect(formatBrightnessContrast({ brightness: 0.254, contrast: 1.5 })).toEqual({ brightness: '+25', contrast: '1.50' });
    expect(formatBrightnessContrast({ brightness: -0.3, contrast: 0.1 })).toEqual({ brightness: '\u221230', contrast: '0.10' });
    expect(formatBrightnessContrast({ brightness: -0.001, contrast: 1 }).brightness).toBe('0');
  });
});

describe('brightnessContrastLookup', () => {
  it('is the identity at default', () => {
    expect(Array.from(brightnessContrastLookup(DEFAULT_BRIGHTNESS_CONTRAST))).toEqual(Array.from({ length: 256 }, (_, v) => v));
  });

  it('maps gray levels as the panel shader does: brightness shifts, contrast stretches around mid-gray, both clamp', () => {
    const brighter = brightnessContrastLookup({ brightness: 0.2, contrast: 1 });
    expect(brighter[0]).toBe(51);
    expect(brighter[255]).toBe(255);
    const steeper = brightnessContrastLookup({ brightness: 0, contrast: 2 });
    expect([0, 96, 128, 160, 255].map((v) => steeper[v])).toEqual([0, 65, 129, 193, 255]);
  });
});
