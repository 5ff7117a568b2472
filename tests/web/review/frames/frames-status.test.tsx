import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import type { RecordImages } from '../../../../src/domain/images.ts';
import { FramesStatus } from '../../../../src/web/review/frames/frames-status.tsx';
import { renderApp } from '../../render.tsx';
import { imageStoreFor, recordImagesFor } from '../playback/image-store-fixture.ts';

const BMODE = 160;
const ANGIO = 16;

function readyState(): { status: 'ready'; images: RecordImages; download: null; missing: string[] } {
  return { status: 'ready', images: recordImagesFor({ bmodeCount: BMODE, angioCount: ANGIO }), download: null, missing: [] };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the frames status line while chunks arrive', () => {
  it('follows the loaded count a few times a second, not on every chunk, and shows the end at once', () => {
    vi.useFakeTimers();
    const store = imageStoreFor({ bmodeCount: BMODE, angioCount: ANGIO });
    renderApp(<FramesStatus state={readyState()} store={store} />);
    const status = () => screen.getByTestId('frames-status').textContent;
    expect(status()).toBe('Loading 160 B-mode and 16 angio frames: 0%');

    // Three chunks in quick succession: the line waits, then shows the latest count once.
    act(() => {
      for (let chunk = 0; chunk < 3; chunk++) store.addChunk('bmode', chunk, new Uint8Array(16));
    });
    expect(status()).toBe('Loading 160 B-mode and 16 angio frames: 0%');
    act(() => vi.advanceTimersByTime(250));
    expect(status()).toBe('Loading 160 B-mode and 16 angio frames: 27%');

    // The last chunks: everything loaded shows without waiting, and the bar goes away.
    act(() => {
      for (let chunk = 3; chunk < 10; chunk++) store.addChunk('bmode', chunk, new Uint8Array(16));
      store.addChunk('angio', 0, new Uint8Array(16));
    });
    expect(status()).toBe('160 B-mode and 16 angio frames loaded');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
