import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW, MAX_ZOOM, imageToScreen, panBy, screenPoint, screenToImage, viewTransform, wheelZoomFactor, zoomAt } from '../../../../src/web/review/view/view-transform.ts';

const image = { width: 512, height: 256 };
const viewport = { width: 800, height: 800 };

describe('viewTransform', () => {
  it('fits keeping the aspect ratio, centred', () => {
    expect(viewTransform(image, viewport, DEFAULT_VIEW, 'contain')).toEqual({ scaleX: 1.5625, scaleY: 1.5625, x: 0, y: 200 });
    expect(viewTransform({ width: 100, height: 400 }, viewport, DEFAULT_VIEW, 'contain')).toEqual({ scaleX: 2, scaleY: 2, x: 300, y: 0 });
  });

  it('stretches to the panel when asked', () => {
    expect(viewTransform(image, viewport, DEFAULT_VIEW, 'stretch')).toEqual({ scaleX: 1.5625, scaleY: 3.125, x: 0, y: 0 });
  });

  it('pans by screen pixels', () => {
    const t = viewTransform(image, viewport, panBy(DEFAULT_VIEW, 10, -20), 'contain');
    expect([t.x, t.y]).toEqual([10, 180]);
  });
});

describe('screen and image coordinates', () => {
  it('are inverse of each other', () => {
    const t = viewTransform(image, viewport, { zoom: 2.5, panX: 33, panY: -7 }, 'stretch');
    const p = screenPoint(123.5, 456.25);
    const back = imageToScreen(t, screenToImage(t, p));
    expect(back.x).toBeCloseTo(p.x);
    expect(back.y).toBeCloseTo(p.y);
  });

  it('maps the panel centre to the image centre at the default view', () => {
    expect(screenToImage(viewTransform(image, viewport, DEFAULT_VIEW, 'contain'), screenPoint(400, 400))).toEqual({ x: 256, y: 128 });
  });
});

describe('zoomAt', () => {
  it('keeps the image point under the pointer fixed', () => {
    const pointer = screenPoint(600, 300);
    const before = screenToImage(viewTransform(image, viewport, DEFAULT_VIEW, 'contain'), pointer);
    const view = zoomAt(DEFAULT_VIEW, image, viewport, 'contain', pointer, 2);
    expect(view.zoom).toBe(2);
    const after = imageToScreen(viewTransform(image, viewport, view, 'contain'), before);
    expect(after.x).toBeCloseTo(pointer.x);
    expect(after.y).toBeCloseTo(pointer.y);
  });

  it('zooming about the centre needs no pan', () => {
    const view = zoomAt(DEFAULT_VIEW, image, viewport, 'contain', screenPoint(400, 400), 3);
    expect(view.panX).toBeCloseTo(0);
    expect(view.panY).toBeCloseTo(0);
  });

  it('clamps the zoom', () => {
    expect(zoomAt(DEFAULT_VIEW, image, viewport, 'contain', screenPoint(0, 0), 1000).zoom).toBe(MAX_ZOOM);
  });

  it('wheel up zooms in, down out', () => {
    expect(wheelZoomFactor(-100)).toBeGreaterThan(1);
    expect(wheelZoomFactor(100)).toBeLessThan(1);
    expect(wheelZoomFactor(100) * wheelZoomFactor(-100)).toBeCloseTo(1);
  });
});
