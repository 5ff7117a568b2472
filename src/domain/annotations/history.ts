/**
 * Undo and redo (Ctrl+Z, Ctrl+Shift+Z) over immutable values such as the manifest: `present` is
 * what is shown, `past` the earlier values (oldest first), `future` the undone ones (next first).
 */

/** At most this many earlier values are kept; the oldest are dropped. */
export const MAX_HISTORY = 200;

export type History<T> = { past: readonly T[]; present: T; future: readonly T[] };

export function createHistory<T>(present: T): History<T> {
  return { past: [], present, future: [] };
}

/** Makes `next` the present; the redo list is dropped. Recording the present itself changes nothing. */
export function record<T>(history: History<T>, next: T, limit: number = MAX_HISTORY): History<T> {
  if (Object.is(next, history.present)) return history;
  const past = [...history.past, history.present];
  return { past: past.length > limit ? past.slice(past.length - limit) : past, present: next, future: [] };
}

export function canUndo<T>(history: History<T>): boolean {
  return history.past.length > 0;
}

export function canRedo<T>(history: History<T>): boolean {
  return history.future.length > 0;
}

export function undo<T>(history: History<T>): History<T> {
  const previous = history.past[history.past.length - 1];
  if (history.past.length === 0) return history;
  return { past: history.past.slice(0, -1), present: previous as T, future: [history.present, ...history.future] };
}

export function redo<T>(history: History<T>): History<T> {
  const [next, ...rest] = history.future;
  if (history.future.length === 0) return history;
  return { past: [...history.past, history.present], present: next as T, future: rest };
}
