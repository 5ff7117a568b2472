import { useEffect, useRef } from 'react';

/** A key with modifiers, written the way it is shown to users: 'R', 'Ctrl+S', 'Alt+ArrowLeft'. */
export interface Shortcut {
  key: string;
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
}

export function parseShortcut(text: string): Shortcut {
  const parts = text.split('+');
  const key = parts.pop() ?? '';
  const modifiers = new Set(parts.map((part) => part.toLowerCase()));
  return { key, ctrl: modifiers.has('ctrl'), alt: modifiers.has('alt'), shift: modifiers.has('shift') };
}

/** The same shortcut in the notation of the aria-keyshortcuts attribute. */
export function ariaKeyShortcut(text: string): string {
  const { key, ctrl, alt, shift } = parseShortcut(text);
  return [ctrl && 'Control', alt && 'Alt', shift && 'Shift', key].filter(Boolean).join('+');
}

function keyMatches(event: KeyboardEvent, key: string): boolean {
  if (/^[A-Za-z]$/.test(key)) {
    // The physical key counts too: Alt+letter types a different character on some layouts (macOS).
    return event.code === `Key${key.toUpperCase()}` || event.key.toUpperCase() === key.toUpperCase();
  }
  return event.key === key;
}

export function matchesShortcut(event: KeyboardEvent, shortcut: Shortcut): boolean {
  // Ctrl stands for Cmd on macOS, as users of either expect.
  const ctrl = event.ctrlKey || event.metaKey;
  return (
    ctrl === shortcut.ctrl && event.altKey === shortcut.alt && event.shiftKey === shortcut.shift && keyMatches(event, shortcut.key)
  );
}

const NON_TEXT_INPUTS = new Set(['button', 'checkbox', 'radio', 'range', 'color', 'file', 'image', 'reset', 'submit']);

/** Dialogs own their keys; open menus and lists read letters (type-ahead), Delete and Escape themselves. */
const KEY_OWNERS = '[role="dialog"], [role="alertdialog"], [role="menu"], [role="menubar"], [role="menuitem"], [role="listbox"], [role="option"]';

/** Keystrokes typed into a field, or aimed at an open dialog or menu, are not shortcuts. */
export function isShortcutIgnored(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.closest(KEY_OWNERS)) return true;
  if (target instanceof HTMLInputElement) return !NON_TEXT_INPUTS.has(target.type);
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

/** Calls `handler` when the shortcut is pressed anywhere on the page, while `enabled`. */
export function useShortcut(shortcut: string | undefined, handler: () => void, enabled = true): void {
  const handlerRef = useRef(handler);
  useEffect(() => {
    handlerRef.current = handler;
  });

  useEffect(() => {
    if (!shortcut || !enabled) return;
    const parsed = parseShortcut(shortcut);
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing || event.repeat) return;
      if (isShortcutIgnored(event.target) || !matchesShortcut(event, parsed)) return;
      // Ctrl+S and Alt+ArrowLeft would otherwise also save the page or go back a second time.
      event.preventDefault();
      handlerRef.current();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [shortcut, enabled]);
}
