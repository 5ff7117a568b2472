/**
 * Issue 26: each panel shows its own brightness and contrast in its header, with a Reset that names
 * the panel; resetting one panel leaves the others as they are.
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PanelDisplayBar } from '../../../../src/web/review/panels/panel-display-bar.tsx';
import { createPanelDisplays, DEFAULT_BRIGHTNESS_CONTRAST } from '../../../../src/web/review/view/brightness-contrast.ts';
import { renderApp } from '../../render.tsx';

function renderBars() {
  const displays = createPanelDisplays();
  renderApp(
    <>
      <PanelDisplayBar label="Angio" display={displays.angio} testId="panel-display-angio" />
      <PanelDisplayBar label="B-mode" display={displays.bmode} testId="panel-display-bmode" />
    </>,
  );
  const values = (kind: string) => screen.getByTestId(`panel-display-${kind}-values`).textContent;
  return { displays, values };
}

describe('a panel’s brightness and contrast bar', () => {
  it('shows the defaults, then the panel’s own values as they change, live', () => {
    const { displays, values } = renderBars();
    expect(values('bmode')).toBe('Brightness 0 · Contrast 1.00');
    act(() => displays.bmode.set({ brightness: 0.25, contrast: 1.5 }));
    expect(values('bmode')).toBe('Brightness +25 · Contrast 1.50');
    expect(screen.getByTestId('panel-display-bmode').getAttribute('data-changed')).toBe('true');
    expect(values('angio')).toBe('Brightness 0 · Contrast 1.00');
  });

  it('a Reset named after its panel puts that panel back and leaves the other as it is', () => {
    const { displays, values } = renderBars();
    act(() => {
      displays.bmode.set({ brightness: -0.3, contrast: 2 });
      displays.angio.set({ brightness: 0.1, contrast: 1 });
    });
    const reset = screen.getByRole('button', { name: 'Reset B-mode panel' });
    expect(within(screen.getByTestId('panel-display-bmode')).getByRole('heading', { name: 'B-mode' })).toBeTruthy();
    fireEvent.click(reset);
    expect(displays.bmode.get()).toEqual(DEFAULT_BRIGHTNESS_CONTRAST);
    expect(values('bmode')).toBe('Brightness 0 · Contrast 1.00');
    expect(displays.angio.get()).toEqual({ brightness: 0.1, contrast: 1 });
    expect(values('angio')).toBe('Brightness +10 · Contrast 1.00');
  });
});
