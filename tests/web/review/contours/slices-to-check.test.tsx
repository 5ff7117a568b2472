import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SlicesToCheck } from '../../../../src/web/review/contours/slices-to-check.tsx';
import { renderApp } from '../../render.tsx';
import { imageStoreFor } from '../playback/image-store-fixture.ts';

describe('stepping through the low-confidence slices', () => {
  it('shows how many there are and steps to the next and previous one with the buttons', () => {
    const store = imageStoreFor({ bmodeCount: 100 });
    renderApp(<SlicesToCheck slices={[12, 40, 41, 90]} source={store} />);
    expect(screen.getByTestId('slices-to-check').textContent).toContain('4 slices to check');
    const previous = screen.getByRole('button', { name: 'Previous low-confidence slice' });
    const next = screen.getByRole('button', { name: 'Next low-confidence slice' });
    expect(previous).toHaveProperty('disabled', true);
    fireEvent.click(next);
    expect(store.getSnapshot().slice).toBe(12);
    expect(screen.getByTestId('slices-to-check').textContent).toContain('(1 of 4)');
    fireEvent.click(next);
    fireEvent.click(next);
    expect(store.getSnapshot().slice).toBe(41);
    fireEvent.click(previous);
    expect(store.getSnapshot().slice).toBe(40);
    // Away from the list, the position goes and the neighbours stay right.
    act(() => store.setSlice(95));
    expect(screen.getByTestId('slices-to-check').textContent).not.toContain(' of ');
    expect(next).toHaveProperty('disabled', true);
    fireEvent.click(previous);
    expect(store.getSnapshot().slice).toBe(90);
  });

  it('answers N and Shift+N anywhere on the page, but not while typing', () => {
    const store = imageStoreFor({ bmodeCount: 100 });
    renderApp(
      <>
        <input aria-label="note" />
        <SlicesToCheck slices={[12, 40]} source={store} />
      </>,
    );
    expect(screen.getByRole('button', { name: 'Next low-confidence slice' }).getAttribute('aria-keyshortcuts')).toBe('N');
    fireEvent.keyDown(window, { key: 'n', code: 'KeyN' });
    expect(store.getSnapshot().slice).toBe(12);
    fireEvent.keyDown(window, { key: 'n', code: 'KeyN' });
    expect(store.getSnapshot().slice).toBe(40);
    fireEvent.keyDown(window, { key: 'N', code: 'KeyN', shiftKey: true });
    expect(store.getSnapshot().slice).toBe(12);
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'note' }), { key: 'n', code: 'KeyN' });
    expect(store.getSnapshot().slice).toBe(12);
  });

  it('says so when there is no slice to check', () => {
    renderApp(<SlicesToCheck slices={[]} source={imageStoreFor({ bmodeCount: 10 })} />);
    expect(screen.getByTestId('slices-to-check').textContent).toBe('No low-confidence slice');
    expect(screen.queryByRole('button')).toBeNull();
  });
});
