import { describe, expect, it, vi } from 'vitest';
import { angleForKey, angleTowards, createCutAngleStore, normalizeAngleDeg } from '../../../../src/web/review/lmode/cut-angle.ts';

describe('cut angle', () => {
  it('turns by 1° with the arrow keys and by 10° with Shift', () => {
    expect(angleForKey(90, 'ArrowRight', false)).toBe(91);
    expect(angleForKey(90, 'ArrowUp', false)).toBe(91);
    expect(angleForKey(90, 'ArrowLeft', false)).toBe(89);
    expect(angleForKey(90, 'ArrowDown', true)).toBe(80);
    expect(angleForKey(90, 'ArrowRight', true)).toBe(100);
    expect(angleForKey(90, 'Enter', false)).toBeNull();
  });

  it('wraps around at 0° and 360°', () => {
    expect(angleForKey(359, 'ArrowRight', false)).toBe(0);
    expect(angleForKey(0, 'ArrowLeft', false)).toBe(359);
    expect(angleForKey(355, 'ArrowRight', true)).toBe(5);
    expect(angleForKey(3, 'ArrowLeft', true)).toBe(353);
    expect(normalizeAngleDeg(-720.4)).toBe(0);
    expect(normalizeAngleDeg(725)).toBe(5);
  });

  it('points the line at a dragged handle', () => {
    const centre = { x: 50, y: 50 };
    expect(angleTowards(centre, { x: 90, y: 50 })).toBe(0);
    expect(angleTowards(centre, { x: 50, y: 90 })).toBe(90);
    expect(angleTowards(centre, { x: 10, y: 50 })).toBe(180);
    expect(angleTowards(centre, { x: 50, y: 10 })).toBe(270);
  });

  it('tells its listeners when the angle changes, not when it stays', () => {
    const store = createCutAngleStore(90);
    const listener = vi.fn();
    store.subscribe(listener);
    store.set(450);
    expect(listener).not.toHaveBeenCalled();
    store.set(91);
    expect(store.get()).toBe(91);
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
