import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LeftToolbar } from '../../../src/web/app/left-toolbar.tsx';
import { THEME_STORAGE_KEY } from '../../../src/web/ui/theme.tsx';
import { system } from '../../../src/web/ui/system.ts';
import { renderApp } from '../render.tsx';

const root = () => document.documentElement;

function preferDark(dark: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: dark && query === '(prefers-color-scheme: dark)',
        media: query,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
      }) as unknown as MediaQueryList,
  );
}

describe('theme switch', () => {
  it('toggles the sm-theme-dark class on the root element and remembers the choice', async () => {
    const user = userEvent.setup();
    preferDark(false);
    renderApp(<LeftToolbar screen="patients" isAdmin={false} />);
    const button = screen.getByRole('button', { name: 'Dark theme' });
    expect(root().classList.contains('sm-theme-dark')).toBe(false);
    expect(button.getAttribute('aria-pressed')).toBe('false');

    await user.click(button);
    expect(root().classList.contains('sm-theme-dark')).toBe(true);
    expect(button.getAttribute('aria-pressed')).toBe('true');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');

    await user.click(button);
    expect(root().classList.contains('sm-theme-dark')).toBe(false);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
  });

  it('switches with its keyboard shortcut', async () => {
    const user = userEvent.setup();
    preferDark(false);
    renderApp(<LeftToolbar screen="patients" isAdmin={false} />);
    await user.keyboard('{Shift>}D{/Shift}');
    expect(root().classList.contains('sm-theme-dark')).toBe(true);
  });

  it('follows the operating system on a first visit', () => {
    preferDark(true);
    renderApp(<LeftToolbar screen="patients" isAdmin={false} />);
    expect(root().classList.contains('sm-theme-dark')).toBe(true);
  });

  it('prefers the remembered choice over the operating system', () => {
    preferDark(true);
    localStorage.setItem(THEME_STORAGE_KEY, 'light');
    renderApp(<LeftToolbar screen="patients" isAdmin={false} />);
    expect(root().classList.contains('sm-theme-dark')).toBe(false);
  });
});

describe('design system', () => {
  it('draws dark styles under the sm-theme-dark class, with sm-prefixed variables', () => {
    expect(Object.keys(system.css({ _dark: { color: 'white' } }))).toContain(
      '.sm-theme-dark &, .sm-theme-dark .chakra-theme:not(.sm-theme-light) &',
    );
    expect(system.token.var('colors.bg')).toBe('var(--sm-colors-bg)');
  });

  it('stacks overlays as the spec says', () => {
    expect(system.token('zIndex.modal')).toBe(1100);
    expect(system.token('zIndex.overlay')).toBe(1000);
    expect(system.token('zIndex.popover')).toBe(1000);
    expect(system.token('zIndex.tooltip')).toBe(1100);
  });

  it('declares its cascade layers in a fixed order', () => {
    expect(system.layers.atRule).toBe('@layer sm-reset, sm-base, sm-tokens, sm-recipes;');
  });

  it('uses the spec transition, disabled opacity and focus ring', () => {
    expect(system.css({ transition: 'colors' })).toMatchObject({ transitionDuration: '0.2s' });
    expect(system.css({ layerStyle: 'disabled' })).toMatchObject({ opacity: 0.6 });
    const html = JSON.stringify(system._config.globalCss?.html);
    expect(html).toContain('"--focus-ring-width":"1px"');
    expect(html).toContain('"--focus-ring-offset":"2px"');
  });
});
