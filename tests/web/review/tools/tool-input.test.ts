import { afterEach, describe, expect, it, vi } from 'vitest';
import { listenForToolInput, toolInputOf, type ToolInput } from '../../../../src/web/review/tools/tool-input.ts';
import { DEFAULT_VIEW, viewTransform, type ViewTransform } from '../../../../src/web/review/view/view-transform.ts';

/** A panel 800×400 CSS pixels at (100, 50) on the page. */
function panel(): HTMLElement {
  const element = document.createElement('div');
  element.getBoundingClientRect = () => ({ left: 100, top: 50, width: 800, height: 400, right: 900, bottom: 450, x: 100, y: 50, toJSON: () => ({}) });
  document.body.append(element);
  return element;
}

/** A 512×256 image fitted into the 800×400 panel: scale 1.5625, no margin. Zoomed 2× about the origin with a pan of (−50, −20). */
const FITTED: ViewTransform = viewTransform({ width: 512, height: 256 }, { width: 800, height: 400 }, DEFAULT_VIEW, 'contain');
const ZOOMED: ViewTransform = { scaleX: 3.125, scaleY: 3.125, x: -50, y: -20 };

function pointer(type: string, clientX: number, clientY: number, init: MouseEventInit & { pointerId?: number } = {}): Event {
  const event = new MouseEvent(type, { clientX, clientY, bubbles: true, cancelable: true, ...init });
  Object.defineProperty(event, 'pointerId', { value: init.pointerId ?? 1 });
  return event;
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('tool input: DOM events as screen and image points', () => {
  it('places a press on the panel (CSS pixels from its corner) and on the image (through the zoom and pan)', () => {
    const element = panel();
    const input = toolInputOf(pointer('pointerdown', 500, 250, { button: 0, pointerId: 7 }), element, ZOOMED);
    expect(input).toEqual({ type: 'pointer.down', pointerId: 7, button: 0, screen: { x: 400, y: 200 }, image: { x: 144, y: 70.4 } });
  });

  it('agrees with the fitted view at zoom 1: the panel centre is the image centre', () => {
    const input = toolInputOf(pointer('pointermove', 500, 250), panel(), FITTED);
    expect(input).toMatchObject({ type: 'pointer.move', screen: { x: 400, y: 200 }, image: { x: 256, y: 128 } });
  });

  it('has no image point while the panel shows no image', () => {
    expect(toolInputOf(pointer('pointerup', 120, 60), panel(), null)).toMatchObject({ type: 'pointer.up', screen: { x: 20, y: 10 }, image: null });
  });

  it('translates the wheel (with Ctrl for zoom), double-clicks and keys; ignores anything else', () => {
    const element = panel();
    const wheel = new WheelEvent('wheel', { clientX: 100, clientY: 50, deltaY: 120, deltaMode: 0, ctrlKey: true });
    expect(toolInputOf(wheel, element, FITTED)).toEqual({ type: 'wheel', deltaY: 120, deltaMode: 0, ctrlKey: true, screen: { x: 0, y: 0 }, image: { x: 0, y: 0 } });
    expect(toolInputOf(pointer('dblclick', 900, 450), element, FITTED)).toEqual({ type: 'double-click', screen: { x: 800, y: 400 }, image: { x: 512, y: 256 } });
    const key = new KeyboardEvent('keydown', { key: 'Escape', shiftKey: true });
    expect(toolInputOf(key, element, FITTED)).toEqual({ type: 'key', key: 'Escape', shiftKey: true, ctrlKey: false, metaKey: false, altKey: false });
    expect(toolInputOf(new MouseEvent('click'), element, FITTED)).toBeNull();
  });

  it('listens on a panel: every pointer, wheel and double-click event reaches the tool, asking the view at each event, until removed', () => {
    const element = panel();
    const seen: ToolInput[] = [];
    let transform: ViewTransform | null = FITTED;
    const stop = listenForToolInput(element, () => transform, (input) => seen.push(input));
    element.dispatchEvent(pointer('pointerdown', 500, 250, { button: 1 }));
    transform = ZOOMED;
    element.dispatchEvent(pointer('pointermove', 500, 250));
    element.dispatchEvent(pointer('pointerup', 500, 250));
    element.dispatchEvent(new WheelEvent('wheel', { clientX: 500, clientY: 250, deltaY: -3, deltaMode: 1, cancelable: true }));
    element.dispatchEvent(pointer('dblclick', 500, 250));
    expect(seen.map((input) => [input.type, 'image' in input ? input.image : null])).toEqual([
      ['pointer.down', { x: 256, y: 128 }],
      ['pointer.move', { x: 144, y: 70.4 }],
      ['pointer.up', { x: 144, y: 70.4 }],
      ['wheel', { x: 144, y: 70.4 }],
      ['double-click', { x: 144, y: 70.4 }],
    ]);
    stop();
    element.dispatchEvent(pointer('pointerdown', 500, 250));
    expect(seen).toHaveLength(5);
  });

  it('keeps the middle button for panning: its press does not start the browser’s autoscroll', () => {
    const element = panel();
    const stop = listenForToolInput(element, () => FITTED, vi.fn());
    const middle = pointer('mousedown', 500, 250, { button: 1 });
    const left = pointer('mousedown', 500, 250, { button: 0 });
    element.dispatchEvent(middle);
    element.dispatchEvent(left);
    expect([middle.defaultPrevented, left.defaultPrevented]).toEqual([true, false]);
    stop();
  });
});
