/**
 * Play on short records (issue 26): an 87-frame loop and a 96-frame angiography run without a
 * pullback used to keep Play grey for good ("Available once 100 B-mode images are loaded").
 */
import { describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { RightToolbar } from '../../../../src/web/app/right-toolbar.tsx';
import type { ImageStore } from '../../../../src/web/review/frames/image-store.ts';
import { isPlaying } from '../../../../src/web/review/playback/playback.machine.ts';
import { ReviewSessionProvider, useReviewSession } from '../../../../src/web/review/session/review-session-provider.tsx';
import type { ReviewSession } from '../../../../src/web/review/session/review-session.ts';
import { renderApp } from '../../render.tsx';
import { quietApi } from '../session/session-fixture.tsx';
import { imageStoreFor, loadAngioFrames, loadBmodeFrames } from './image-store-fixture.ts';

const opened: { session: ReviewSession | null } = { session: null };

function Page() {
  const session = useReviewSession();
  useEffect(() => {
    opened.session = session;
  }, [session]);
  return null;
}

function renderToolbar(store: ImageStore) {
  renderApp(
    <ReviewSessionProvider patientId="P-1" recordId="R-1" images={store}>
      <Page />
      <RightToolbar />
    </ReviewSessionProvider>,
    { api: quietApi() },
  );
}

const play = () => within(screen.getByRole('complementary', { name: 'Playback toolbar' })).getByRole('button', { name: 'Play' });
const reason = () => document.getElementById(play().getAttribute('aria-describedby') ?? '')?.textContent;
const speed = () => within(screen.getByRole('complementary', { name: 'Playback toolbar' })).getByRole('button', { name: /^Playback speed/ }).getAttribute('aria-label');
const playing = () => isPlaying(opened.session!.playback.actor.getSnapshot());

describe('Play on a record shorter than 100 frames', () => {
  it('waits for all 87 frames of an 87-frame loop, saying so, then plays it', async () => {
    const user = userEvent.setup();
    const store = imageStoreFor({ bmodeCount: 87, angioCount: 0 });
    loadBmodeFrames(store, 80);
    renderToolbar(store);
    expect(play().getAttribute('aria-disabled')).toBe('true');
    expect(reason()).toBe('Available once 87 B-mode images are loaded');

    act(() => loadBmodeFrames(store, 87));
    expect(play().getAttribute('aria-disabled')).toBeNull();
    await user.click(play());
    expect(playing()).toBe(true);
    expect(speed()).toBe('Playback speed: Fast review (100 frames/s)');
  });

  it('plays the angiography run of a record without a pullback, at its acquisition frame rate', async () => {
    const user = userEvent.setup();
    const store = imageStoreFor({ bmodeCount: 0, angioCount: 96, frameRateHz: 15 });
    loadAngioFrames(store, 80);
    renderToolbar(store);
    expect(reason()).toBe('Available once 96 angiography images are loaded');
    // A cine run plays at the rate it was acquired unless the clinician asks for another speed.
    expect(speed()).toBe('Playback speed: Real time (15 frames/s)');

    act(() => loadAngioFrames(store, 96));
    await user.click(play());
    expect(playing()).toBe(true);
    expect(opened.session!.playback.actor.getSnapshot().context.slicesPerTick).toBeCloseTo(0.15);
  });
});
