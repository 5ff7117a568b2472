import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { RightToolbar } from '../../../../src/web/app/right-toolbar.tsx';
import type { ImageStore } from '../../../../src/web/review/frames/image-store.ts';
import { useAutoPause, usePlaybackActor } from '../../../../src/web/review/playback/playback-context.tsx';
import { ReviewSessionProvider, useReviewSession } from '../../../../src/web/review/session/review-session-provider.tsx';
import type { PlaybackActorRef } from '../../../../src/web/review/playback/playback.machine.ts';
import { renderApp } from '../../render.tsx';
import { quietApi } from '../session/session-fixture.tsx';
import { imageStoreFor, loadBmodeFrames } from './image-store-fixture.ts';

/** Why Play waits while the record's image lists are not known (the spec's threshold). */
const PLAYBACK_DISABLED_REASON = 'Available once 100 B-mode images are loaded';

/** What the page under the toolbar hands out to the test. */
const page: {
  actor: PlaybackActorRef | null;
  hold: (() => () => void) | null;
  replaceStore: (store: ImageStore | null) => void;
} = { actor: null, hold: null, replaceStore: () => undefined };

function Page() {
  const session = useReviewSession();
  const actor = usePlaybackActor();
  const hold = useAutoPause();
  useEffect(() => {
    // The session's store takes another record's lists and frames; null: the clinician leaves (the session is disposed).
    const replaceStore = (next: ImageStore | null) => {
      if (!next?.images) return session.dispose();
      session.images.setImages(next.images);
      loadBmodeFrames(session.images, next.getSnapshot().bmodeLoaded);
    };
    Object.assign(page, { actor, hold, replaceStore });
  }, [session, actor, hold]);
  return <input aria-label="Note" />;
}

function renderToolbar(store: ImageStore | null) {
  return renderApp(
    <ReviewSessionProvider patientId="P-1" recordId="R-1" images={store ?? undefined}>
      <Page />
      <RightToolbar />
    </ReviewSessionProvider>,
    { api: quietApi() },
  );
}

const toolbar = () => screen.getByRole('complementary', { name: 'Playback toolbar' });
/** Play and Pause as shown (the speed menu's button is always there beside them). */
const shownButtons = () =>
  within(toolbar())
    .queryAllByRole('button')
    .map((button) => button.getAttribute('aria-label'))
    .filter((label) => label === 'Play' || label === 'Pause');

function setHidden(hidden: boolean) {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

afterEach(() => {
  Object.assign(page, { actor: null, hold: null });
  Reflect.deleteProperty(document, 'hidden');
});

describe('right toolbar (spec section 2)', () => {
  it('shows Play, disabled with its reason, before a store is attached', async () => {
    const user = userEvent.setup();
    renderToolbar(null);
    expect(shownButtons()).toEqual(['Play']);
    const play = within(toolbar()).getByRole('button', { name: 'Play' });
    expect(play.getAttribute('aria-disabled')).toBe('true');
    expect(document.getElementById(play.getAttribute('aria-describedby') ?? '')?.textContent).toBe(PLAYBACK_DISABLED_REASON);
    await user.hover(play);
    expect((await screen.findByRole('tooltip')).textContent).toBe(`Play (Space): ${PLAYBACK_DISABLED_REASON}`);
  });

  it('keeps Play disabled below 100 B-mode images and enables it when they arrive', async () => {
    const user = userEvent.setup();
    const store = imageStoreFor();
    loadBmodeFrames(store, 96);
    renderToolbar(store);
    const play = () => within(toolbar()).getByRole('button', { name: 'Play' });
    expect(play().getAttribute('aria-disabled')).toBe('true');
    await user.click(play());
    await user.keyboard(' ');
    expect(shownButtons()).toEqual(['Play']);

    act(() => loadBmodeFrames(store, 112));
    expect(play().getAttribute('aria-disabled')).toBeNull();
    expect(play().getAttribute('aria-keyshortcuts')).toBe('Space');
  });

  it('plays on Play and pauses on Pause, in manual mode, showing only the button that applies', async () => {
    const user = userEvent.setup();
    const store = imageStoreFor();
    loadBmodeFrames(store, 150);
    renderToolbar(store);

    await user.click(within(toolbar()).getByRole('button', { name: 'Play' }));
    expect(shownButtons()).toEqual(['Pause']);
    expect(page.actor?.getSnapshot().context.manual).toBe(true);
    await waitFor(() => expect(store.getSnapshot().slice).toBeGreaterThan(1));
    expect(store.getSnapshot().playCounter).toBeGreaterThan(0);

    await user.click(within(toolbar()).getByRole('button', { name: 'Pause' }));
    expect(shownButtons()).toEqual(['Play']);
    const stoppedAt = store.getSnapshot().slice;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(store.getSnapshot().slice).toBe(stoppedAt);
  });

  it('toggles with Space, but not while typing in a field', async () => {
    const user = userEvent.setup();
    const store = imageStoreFor();
    loadBmodeFrames(store, 150);
    renderToolbar(store);

    await user.keyboard(' ');
    expect(shownButtons()).toEqual(['Pause']);
    await user.keyboard(' ');
    expect(shownButtons()).toEqual(['Play']);

    await user.type(screen.getByRole('textbox', { name: 'Note' }), 'a b');
    expect(shownButtons()).toEqual(['Play']);
    expect(screen.getByRole('textbox', { name: 'Note' })).toHaveProperty('value', 'a b');
  });

  it('stops when the page lets go of its store (the store is reset or replaced)', async () => {
    const user = userEvent.setup();
    const store = imageStoreFor();
    loadBmodeFrames(store, 150);
    renderToolbar(store);
    await user.click(within(toolbar()).getByRole('button', { name: 'Play' }));
    expect(shownButtons()).toEqual(['Pause']);

    act(() => page.replaceStore(null));
    expect(shownButtons()).toEqual(['Play']);
    expect(within(toolbar()).getByRole('button', { name: 'Play' }).getAttribute('aria-disabled')).toBe('true');
    expect(page.actor?.getSnapshot().context.manual).toBe(false);
  });
});

describe('automatic pause', () => {
  function renderPlayingAutomatically() {
    const store = imageStoreFor();
    loadBmodeFrames(store, 150);
    renderToolbar(store);
    act(() => page.actor?.send({ type: 'playback.autoResume' }));
    expect(shownButtons()).toEqual(['Pause']);
  }

  it('pauses while the tab is hidden and resumes when it is shown again', () => {
    renderPlayingAutomatically();
    setHidden(true);
    expect(shownButtons()).toEqual(['Play']);
    setHidden(false);
    expect(shownButtons()).toEqual(['Pause']);
  });

  it('pauses while a drag holds it, until the last hold is released', () => {
    renderPlayingAutomatically();
    let releaseDrag = () => undefined as void;
    act(() => {
      releaseDrag = page.hold?.() ?? releaseDrag;
    });
    setHidden(true);
    act(() => releaseDrag());
    expect(shownButtons()).toEqual(['Play']);
    setHidden(false);
    expect(shownButtons()).toEqual(['Pause']);
  });

  it('does not start a playback that was stopped before the tab was hidden', () => {
    const store = imageStoreFor();
    loadBmodeFrames(store, 150);
    renderToolbar(store);
    setHidden(true);
    setHidden(false);
    expect(shownButtons()).toEqual(['Play']);
  });

  it('leaves a playback the user started running when the tab is hidden', async () => {
    const user = userEvent.setup();
    const store = imageStoreFor();
    loadBmodeFrames(store, 150);
    renderToolbar(store);
    await user.click(within(toolbar()).getByRole('button', { name: 'Play' }));
    setHidden(true);
    expect(shownButtons()).toEqual(['Pause']);
  });
});

describe('a page rendered without the playback provider', () => {
  function LonePage() {
    const hold = useAutoPause();
    return <button onClick={() => hold()()}>Drag</button>;
  }

  it('renders, and holding playback does nothing', async () => {
    const user = userEvent.setup();
    renderApp(<LonePage />);
    await user.click(screen.getByRole('button', { name: 'Drag' }));
    expect(screen.getByRole('button', { name: 'Drag' })).toBeTruthy();
  });

  it("plays at the chosen speed: the spec's 100 frames a second, the acquisition's real time, or twice that", async () => {
    const user = userEvent.setup();
    const store = imageStoreFor({ frameRateHz: 30 });
    loadBmodeFrames(store, 150);
    renderToolbar(store);
    const speedButton = () => within(toolbar()).getByRole('button', { name: /^Playback speed/ });
    expect(speedButton().getAttribute('aria-label')).toBe('Playback speed: Fast review (100 frames/s)');
    expect(page.actor?.getSnapshot().context.slicesPerTick).toBe(1);

    await user.click(speedButton());
    await user.click(await screen.findByRole('menuitemradio', { name: 'Real time (30 frames/s)' }));
    expect(speedButton().getAttribute('aria-label')).toBe('Playback speed: Real time (30 frames/s)');
    expect(page.actor?.getSnapshot().context.slicesPerTick).toBeCloseTo(0.3);

    await user.click(speedButton());
    await user.click(await screen.findByRole('menuitemradio', { name: '2× real time (60 frames/s)' }));
    expect(page.actor?.getSnapshot().context.slicesPerTick).toBeCloseTo(0.6);

    // Another record (another frame rate) keeps the choice, at its own rate.
    const next = imageStoreFor({ frameRateHz: 50 });
    loadBmodeFrames(next, 150);
    act(() => page.replaceStore(next));
    await waitFor(() => expect(page.actor?.getSnapshot().context.slicesPerTick).toBeCloseTo(1));
    expect(speedButton().getAttribute('aria-label')).toBe('Playback speed: 2× real time (100 frames/s)');
  });
});
