import { useEffect, useRef } from 'react';
import { isKeyForFocusedControl } from '../tools/keyboard-guard.ts';

/** How Play and Pause show their key; `useShortcut` cannot match it (the key's value is ' '), so `useSpaceToggle` does. */
export const PLAYBACK_SHORTCUT = 'Space';

/** Space toggles playback anywhere on the page except while typing. */
export function useSpaceToggle(toggle: () => void): void {
  const toggleRef = useRef(toggle);
  useEffect(() => {
    toggleRef.current = toggle;
  });

  useEffect(() => {
    let swallowKeyUp = false;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== ' ' || event.ctrlKey || event.metaKey || event.altKey || isKeyForFocusedControl(event)) return;
      // Space would otherwise also scroll the page, and click a focused button when it is released.
      event.preventDefault();
      swallowKeyUp = true;
      if (!event.repeat) toggleRef.current();
    };
    const onKeyUp = (event: KeyboardEvent) => {
      if (event.key !== ' ' || !swallowKeyUp) return;
      swallowKeyUp = false;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    window.addEventListener('keyup', onKeyUp);
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      window.removeEventListener('keyup', onKeyUp);
    };
  }, []);
}
