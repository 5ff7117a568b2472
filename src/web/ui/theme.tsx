import { createContext, use, useCallback, useLayoutEffect, useMemo, useState, type ReactNode } from 'react';
import { DARK_MODE_CLASS } from '../../domain/constants.ts';

export type ColorMode = 'light' | 'dark';

/** The browser remembers the user's choice here; without one the operating system decides. */
export const THEME_STORAGE_KEY = 'ivus.theme';

function storedColorMode(): ColorMode | null {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return stored === 'light' || stored === 'dark' ? stored : null;
  } catch {
    // Storage can be blocked (privacy settings); the theme then simply is not remembered.
    return null;
  }
}

export function initialColorMode(): ColorMode {
  const stored = storedColorMode();
  if (stored) return stored;
  const prefersDark = typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
  return prefersDark ? 'dark' : 'light';
}

export function applyColorMode(mode: ColorMode, root: HTMLElement = document.documentElement): void {
  root.classList.toggle(DARK_MODE_CLASS, mode === 'dark');
}

interface ThemeService {
  colorMode: ColorMode;
  setColorMode: (mode: ColorMode) => void;
  toggleColorMode: () => void;
}

const ThemeContext = createContext<ThemeService | null>(null);

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [colorMode, setMode] = useState<ColorMode>(initialColorMode);

  useLayoutEffect(() => applyColorMode(colorMode), [colorMode]);

  const setColorMode = useCallback((mode: ColorMode) => {
    setMode(mode);
    try {
      localStorage.setItem(THEME_STORAGE_KEY, mode);
    } catch {
      // Not remembered when storage is blocked; the switch still works for this page.
    }
  }, []);

  const service = useMemo<ThemeService>(
    () => ({
      colorMode,
      setColorMode,
      toggleColorMode: () => setColorMode(colorMode === 'dark' ? 'light' : 'dark'),
    }),
    [colorMode, setColorMode],
  );
  return <ThemeContext value={service}>{children}</ThemeContext>;
}

export function useColorMode(): ThemeService {
  const service = use(ThemeContext);
  if (!service) throw new Error('ThemeService is not provided');
  return service;
}
