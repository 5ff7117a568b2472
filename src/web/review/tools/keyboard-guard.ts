import { isShortcutIgnored } from '../../ui/shortcuts.ts';

/**
 * Whether a keystroke belongs to what has the focus (a text field, a dialog, a menu) rather than
 * to the review's tools: then Delete, Escape, Ctrl+Z and the like must leave the annotations alone.
 */
export function isKeyForFocusedControl(event: KeyboardEvent): boolean {
  return event.defaultPrevented || event.isComposing || isShortcutIgnored(event.target);
}
