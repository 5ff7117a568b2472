import { afterEach, describe, expect, it } from 'vitest';
import { createBrightnessContrastStore, DEFAULT_BRIGHTNESS_CONTRAST } from '../../../../src/web/review/view/brightness-contrast.ts';
import { DEFAULT_VIEW, viewTransform } from '../../../../src/web/review/view/view-transform.ts';
import { createActiveToolStore } from '../../../../src/web/review/tools/active-tool.tsx';
import { connectPanelTools, type PanelToolTarget } from '../../../../src/web/review/tools/panel-tools.ts';

function panel(): HTMLElement {
  const element = document.createElement('div');
  element.getBoundingClientRect = () => ({ left: 0, top: 0, width: 400, height: 200, right: 400, bottom: 200, x: 0, y: 0, toJSON: () => ({}) });
  document.body.append(element);
  return element;
}

function pointer(element: HTMLElement, type: string, clientX: number, clientY: number, button = 0): Event {
  const event = new MouseEvent(type, { clientX, clientY, button, bubbles: true, cancelable: true });
  Object.defineProperty(event, 'pointerId', { value: 1 });
  element.dispatchEvent(event);
  return event;
}

function target(kind: 'bmode' | 'lmode'): PanelToolTarget & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    slicesByPointer: kind === 'lmode',
    wheelMovesSlice: kind === 'bmode',
    transform: () => viewTransform({ width: 200, height: 100 }, { width: 400, height: 200 }, DEFAULT_VIEW, 'stretch'),
    panBy: (dx, dy) => calls.push(`pan ${dx},${dy}`),
    zoomAt: (at, factor) => calls.push(`zoom ${at.x},${at.y} ${factor.toFixed(3)}`),
    resetView: () => calls.push('reset'),
    sliceAt: (image) => calls.push(`slice at x=${image.x}`),
    stepSlices: (steps) => calls.push(`step ${steps}`),
    display: createBrightnessContrastStore(),
    dragChanged: (dragging) => calls.push(dragging ? 'drag start' : 'drag end'),
  };
}

afterEach(() => document.body.replaceChildren());

describe('a panel’s tools', () => {
  it('turns an L-mode press and drag into slices picked from the image, and reports the drag for the auto pause', () => {
    const element = panel();
    const lmode = target('lmode');
    const stop = connectPanelTools(element, createActiveToolStore(), lmode);
    pointer(element, 'pointerdown', 100, 50);
    pointer(element, 'pointermove', 300, 50);
    pointer(element, 'pointerup', 300, 50);
    expect(lmode.calls).toEqual(['slice at x=50', 'drag start', 'slice at x=150', 'drag end']);
    expect(element.style.cursor).toBe('col-resize');
    stop();
  });

  it('gives a primary drag to the brightness tool while it is active, and a double-click puts brightness back', () => {
    const element = panel();
    const bmode = target('bmode');
    const tools = createActiveToolStore('brightness');
    const stop = connectPanelTools(element, tools, bmode);
    expect(element.style.cursor).toBe('move');
    pointer(element, 'pointerdown', 100, 100);
    pointer(element, 'pointermove', 100, 40);
    expect(bmode.display.get().brightness).toBeGreaterThan(0);
    pointer(element, 'pointerup', 100, 40);
    pointer(element, 'dblclick', 100, 40);
    expect(bmode.display.get()).toEqual(DEFAULT_BRIGHTNESS_CONTRAST);
    expect(bmode.calls).toEqual(['drag start', 'drag end']);
    tools.set(null);
    expect(element.style.cursor).toBe('');
    stop();
  });

  it('keeps the page from scrolling under the B-mode wheel and from zooming under Ctrl+wheel; leaves other presses to the layers above', () => {
    const element = panel();
    const bmode = target('bmode');
    const stop = connectPanelTools(element, createActiveToolStore(), bmode);
    const notch = new WheelEvent('wheel', { deltaY: 100, cancelable: true });
    element.dispatchEvent(notch);
    const zoom = new WheelEvent('wheel', { deltaY: -100, ctrlKey: true, clientX: 20, clientY: 10, cancelable: true });
    element.dispatchEvent(zoom);
    const primary = pointer(element, 'pointerdown', 10, 10);
    expect([notch.defaultPrevented, zoom.defaultPrevented, primary.defaultPrevented]).toEqual([true, true, false]);
    expect(bmode.calls).toEqual(['step 1', 'zoom 20,10 1.221']);
    stop();
  });

  it('ends a drag in progress when the panel goes away', () => {
    const element = panel();
    const bmode = target('bmode');
    const stop = connectPanelTools(element, createActiveToolStore(), bmode);
    const middle = pointer(element, 'pointerdown', 10, 10, 1);
    stop();
    expect(middle.defaultPrevented).toBe(true);
    expect(bmode.calls).toEqual(['drag start', 'drag end']);
    pointer(element, 'pointermove', 50, 50);
    expect(bmode.calls).toHaveLength(2);
  });
});
