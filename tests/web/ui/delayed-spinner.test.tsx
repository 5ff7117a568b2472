import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { SPINNER_DELAY_MS } from '../../../src/web/ui/delayed-spinner.tsx';
import { LoadingState } from '../../../src/web/ui/states.tsx';
import { renderApp } from '../render.tsx';

afterEach(() => {
  vi.useRealTimers();
});

describe('loading states', () => {
  it('say what is loading at once, and spin only once the wait has lasted a moment', () => {
    vi.useFakeTimers();
    const { container } = renderApp(<LoadingState label="Starting IVUS Review…" />);
    expect(screen.getByRole('status').textContent).toBe('Starting IVUS Review…');
    expect(container.querySelector('.chakra-spinner')).toBeNull();
    act(() => vi.advanceTimersByTime(SPINNER_DELAY_MS - 1));
    expect(container.querySelector('.chakra-spinner')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(container.querySelector('.chakra-spinner')).not.toBeNull();
    expect(screen.queryByTestId('spinner-placeholder')).toBeNull();
  });
});
