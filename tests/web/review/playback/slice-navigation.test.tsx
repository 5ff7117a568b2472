import { describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  pullbackPositionMm,
  SliceIndicator,
  sliceForKey,
  useSliceNavigation,
  type SliceSource,
} from '../../../../src/web/review/playback/slice-navigation.tsx';
import { SliceCursor } from '../../../../src/web/review/frames/slice-cursor.ts';
import { renderApp } from '../../render.tsx';
import { imageStoreFor } from './image-store-fixture.ts';

function Review({ source }: { source: SliceSource }) {
  useSliceNavigation(source);
  return (
    <>
      <SliceIndicator source={source} />
      <input aria-label="Note" />
      <div role="separator" tabIndex={0} aria-label="Splitter" />
    </>
  );
}

function renderReview(options?: Parameters<typeof imageStoreFor>[0]) {
  // The review moves the slice through its cursor, which reads like the image store it writes to.
  const store = imageStoreFor(options);
  renderApp(<Review source={new SliceCursor(store)} />);
  return store;
}

const indicator = () => screen.getByTestId('slice-indicator').textContent;

describe('keyboard slice navigation', () => {
  it('moves one slice with the arrow keys and ten with Shift, within the record', async () => {
    const user = userEvent.setup();
    const store = renderReview({ bmodeCount: 150, angioCount: 20 });
    await user.keyboard('{ArrowRight}{ArrowDown}');
    expect(store.getSnapshot().slice).toBe(3);
    await user.keyboard('{ArrowLeft}');
    expect(store.getSnapshot().slice).toBe(2);
    await user.keyboard('{Shift>}{ArrowRight}{ArrowRight}{/Shift}');
    expect(store.getSnapshot().slice).toBe(22);
    await user.keyboard('{Shift>}{ArrowUp}{/Shift}');
    expect(store.getSnapshot().slice).toBe(12);
    await user.keyboard('{Shift>}{ArrowLeft}{ArrowLeft}{/Shift}');
    expect(store.getSnapshot().slice).toBe(1);
  });

  it('goes to the first and last slice with Home and End (the larger series counts)', async () => {
    const user = userEvent.setup();
    const store = renderReview({ bmodeCount: 120, angioCount: 130 });
    await user.keyboard('{End}');
    expect(store.getSnapshot().slice).toBe(130);
    await user.keyboard('{ArrowRight}');
    expect(store.getSnapshot().slice).toBe(130);
    await user.keyboard('{Home}');
    expect(store.getSnapshot().slice).toBe(1);
  });

  it('leaves keys typed into a field, Alt+Arrow (Navigate back) and splitters alone', async () => {
    const user = userEvent.setup();
    const store = renderReview();
    await user.click(screen.getByRole('textbox', { name: 'Note' }));
    await user.keyboard('{ArrowRight}{End}');
    expect(store.getSnapshot().slice).toBe(1);
    await user.click(document.body);
    await user.keyboard('{Alt>}{ArrowRight}{/Alt}');
    expect(store.getSnapshot().slice).toBe(1);
    screen.getByRole('separator', { name: 'Splitter' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(store.getSnapshot().slice).toBe(1);
  });

  it('maps keys to slices', () => {
    expect(sliceForKey('ArrowRight', false, 5, 10)).toBe(6);
    expect(sliceForKey('ArrowDown', true, 5, 10)).toBe(10);
    expect(sliceForKey('ArrowUp', false, 1, 10)).toBe(1);
    expect(sliceForKey('End', false, 1, 10)).toBe(10);
    expect(sliceForKey('a', false, 1, 10)).toBeNull();
  });
});

describe('slice indicator', () => {
  it('shows the slice and its position along the pullback, following the store in the next animation frame', async () => {
    const store = renderReview({ bmodeCount: 3600, angioCount: 90, frameRateHz: 30, pullbackSpeedMmPerS: 0.5 });
    expect(indicator()).toBe('Slice 1 / 3600 · 0.00 mm');
    act(() => store.setSlice(600));
    act(() => store.setSlice(601));
    // Not before the frame in which the panels draw the slice's image.
    expect(indicator()).toBe('Slice 1 / 3600 · 0.00 mm');
    await act(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    expect(indicator()).toBe('Slice 601 / 3600 · 10.00 mm');
  });

  it('shows no numbers before the image lists are known', () => {
    const store = imageStoreFor();
    store.reset();
    renderApp(<SliceIndicator source={store} />);
    expect(indicator()).toBe('Slice – / –');
  });

  it('computes the position from frame rate and pullback speed', () => {
    expect(pullbackPositionMm(1, 30, 0.5)).toBe(0);
    expect(pullbackPositionMm(31, 30, 0.5)).toBeCloseTo(0.5);
    expect(pullbackPositionMm(3600, 30, 1)).toBeCloseTo(119.97);
  });
});
