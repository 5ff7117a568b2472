import { describe, expect, it } from 'vitest';
import { canRedo, canUndo, createHistory, MAX_HISTORY, record, redo, undo } from '../../../src/domain/annotations/history.ts';

describe('history', () => {
  it('starts with nothing to undo or redo', () => {
    const h = createHistory('a');
    expect(h).toEqual({ past: [], present: 'a', future: [] });
    expect(canUndo(h)).toBe(false);
    expect(canRedo(h)).toBe(false);
    expect(undo(h)).toBe(h);
    expect(redo(h)).toBe(h);
  });

  it('undoes and redoes every change in order', () => {
    let h = record(record(createHistory('a'), 'b'), 'c');
    expect(h).toEqual({ past: ['a', 'b'], present: 'c', future: [] });
    h = undo(h);
    expect(h).toEqual({ past: ['a'], present: 'b', future: ['c'] });
    h = undo(h);
    expect(h).toEqual({ past: [], present: 'a', future: ['b', 'c'] });
    expect(canUndo(h)).toBe(false);
    h = redo(h);
    expect(h).toEqual({ past: ['a'], present: 'b', future: ['c'] });
    h = redo(h);
    expect(h).toEqual({ past: ['a', 'b'], present: 'c', future: [] });
    expect(canRedo(h)).toBe(false);
  });

  it('drops the redo list on a new change', () => {
    const h = record(undo(record(record(createHistory(1), 2), 3)), 4);
    expect(h).toEqual({ past: [1, 2], present: 4, future: [] });
  });

  it('ignores recording the present itself', () => {
    const value = { n: 1 };
    const h = createHistory(value);
    expect(record(h, value)).toBe(h);
  });

  it(`keeps at most ${MAX_HISTORY} earlier values, dropping the oldest`, () => {
    let h = createHistory(0);
    for (let i = 1; i <= MAX_HISTORY + 50; i++) h = record(h, i);
    expect(h.past).toHaveLength(MAX_HISTORY);
    expect(h.past[0]).toBe(50);
    let undone = h;
    while (canUndo(undone)) undone = undo(undone);
    expect(undone.present).toBe(50);
    expect(undone.future).toHaveLength(MAX_HISTORY);
  });

  it('takes another limit', () => {
    const h = record(record(record(createHistory('a'), 'b'), 'c'), 'd', 2);
    expect(h.past).toEqual(['b', 'c']);
  });
});
