/** Issue 26: the plot is tall enough to read, resizable by keyboard and pointer, and remembered per user. */
import { act, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { clampPlotHeight, defaultPlotHeight, MIN_PLOT_HEIGHT_PX, plotHeightKey, usePlotHeight } from '../../../../src/web/review/contours/plot-height.ts';
import { PlotResizeHandle } from '../../../../src/web/review/contours/plot-resize-handle.tsx';
import { UiProviders } from '../../../../src/web/app/ui-providers.tsx';

afterEach(() => localStorage.clear());

describe('the plot height', () => {
  it('takes more than a fifth of a reading-room monitor by default, and keeps within bounds', () => {
    expect(defaultPlotHeight(1440)).toBeGreaterThanOrEqual(1440 / 5);
    expect(defaultPlotHeight(768)).toBeGreaterThanOrEqual(768 / 5);
    expect(clampPlotHeight(10, 1440)).toBe(MIN_PLOT_HEIGHT_PX);
    expect(clampPlotHeight(5000, 1000)).toBe(600);
  });

  it('is remembered per user', () => {
    const dana = renderHook(() => usePlotHeight('dana@demo.test'));
    act(() => dana.result.current[1](300));
    expect(dana.result.current[0]).toBe(300);
    expect(localStorage.getItem(plotHeightKey('dana@demo.test'))).toBe('300');
    // Dana again (a new page) gets her height; another user the default.
    expect(renderHook(() => usePlotHeight('dana@demo.test')).result.current[0]).toBe(300);
    expect(renderHook(() => usePlotHeight('lee@demo.test')).result.current[0]).toBe(defaultPlotHeight(window.innerHeight));
  });
});

function Resizable() {
  const [height, setHeight] = useState(200);
  return (
    <UiProviders>
      <PlotResizeHandle height={height} maxHeight={400} onResize={(h) => setHeight(Math.min(400, Math.max(MIN_PLOT_HEIGHT_PX, h)))} />
    </UiProviders>
  );
}

describe('the plot resize handle', () => {
  it('is a focusable separator that arrow keys, Home and End resize', () => {
    render(<Resizable />);
    const handle = screen.getByRole('separator', { name: /Resize the pullback plot/ });
    expect(handle.tabIndex).toBe(0);
    fireEvent.keyDown(handle, { key: 'ArrowUp' });
    expect(handle.getAttribute('aria-valuenow')).toBe('216');
    fireEvent.keyDown(handle, { key: 'ArrowDown', shiftKey: true });
    expect(handle.getAttribute('aria-valuenow')).toBe('136');
    fireEvent.keyDown(handle, { key: 'End' });
    expect(handle.getAttribute('aria-valuenow')).toBe('400');
    fireEvent.keyDown(handle, { key: 'Home' });
    expect(handle.getAttribute('aria-valuenow')).toBe(String(MIN_PLOT_HEIGHT_PX));
  });

  it('makes the plot taller when dragged up', () => {
    render(<Resizable />);
    const handle = screen.getByRole('separator');
    fireEvent.pointerDown(handle, { button: 0, clientY: 500, pointerId: 1 });
    fireEvent.pointerMove(handle, { clientY: 450, pointerId: 1 });
    fireEvent.pointerUp(handle, { pointerId: 1 });
    fireEvent.pointerMove(handle, { clientY: 300, pointerId: 1 });
    expect(handle.getAttribute('aria-valuenow')).toBe('250');
  });
});
