import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import type { ImagePanelProps } from '../../../../src/web/review/panels/image-panel.tsx';
import { ReviewPanels } from '../../../../src/web/review/panels/review-panels.tsx';
import { ImageStore } from '../../../../src/web/review/frames/image-store.ts';
import { SliceCursor } from '../../../../src/web/review/frames/slice-cursor.ts';
import { ReviewSessionProvider } from '../../../../src/web/review/session/review-session-provider.tsx';
import { renderApp } from '../../render.tsx';
import { quietApi } from '../session/session-fixture.tsx';

// jsdom has no WebGL: a GPU panel is a stand-in telling whether it would start its context, and a
// button standing for its first image shown.
vi.mock('../../../../src/web/review/panels/image-panel.tsx', () => ({
  ImagePanel: ({ kind, startGpu, onFirstImage }: ImagePanelProps) => (
    <section data-testid={`gpu-panel-${kind}`} data-start-gpu={String(startGpu)}>
      <button type="button" onClick={() => onFirstImage?.()}>
        {`${kind} first image`}
      </button>
    </section>
  ),
}));

const started = (kind: string) => screen.getByTestId(`gpu-panel-${kind}`).getAttribute('data-start-gpu') === 'true';
const nextFrames = () => act(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))));

describe('the angio and L-mode panels (issue 27: first open to Play)', () => {
  it('start their WebGL only once the first B-mode image is shown and Play could start', async () => {
    const store = new ImageStore();
    function Review() {
      const [playReady, setPlayReady] = useState(false);
      return (
        <ReviewSessionProvider patientId="P-1" recordId="R-1">
          <button type="button" onClick={() => setPlayReady(true)}>
            100 B-mode images in
          </button>
          <ReviewPanels store={store} cursor={new SliceCursor(store)} playReady={playReady} />
        </ReviewSessionProvider>
      );
    }
    renderApp(<Review />, { api: quietApi() });
    expect([started('bmode'), started('angio'), started('lmode')]).toEqual([true, false, false]);
    act(() => screen.getByRole('button', { name: 'bmode first image' }).click());
    await nextFrames();
    // The first image is there, the frames Play needs are not: the main thread stays with them.
    expect([started('angio'), started('lmode')]).toEqual([false, false]);
    act(() => screen.getByRole('button', { name: '100 B-mode images in' }).click());
    // Not in the commit that enables Play: their contexts would hold back the frame that shows it.
    expect([started('angio'), started('lmode')]).toEqual([false, false]);
    await nextFrames();
    expect([started('angio'), started('lmode')]).toEqual([true, true]);
  });
});
