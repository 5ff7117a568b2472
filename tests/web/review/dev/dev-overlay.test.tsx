import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, type ReactNode } from 'react';
import { DevOverlay } from '../../../../src/web/review/dev/dev-overlay.tsx';
import type { AfterPaint } from '../../../../src/web/review/dev/frame-time-sampler.ts';
import { connectInspector } from '../../../../src/web/review/dev/inspector.ts';
import type { ImageStore } from '../../../../src/web/review/frames/image-store.ts';
import { usePlaybackActor } from '../../../../src/web/review/playback/playback-context.tsx';
import type { PlaybackActorRef } from '../../../../src/web/review/playback/playback.machine.ts';
import { AnnotationSessionContext } from '../../../../src/web/review/annotations/annotation-session.tsx';
import { ReviewSessionProvider } from '../../../../src/web/review/session/review-session-provider.tsx';
import { createActiveToolStore } from '../../../../src/web/review/tools/active-tool.tsx';
import { renderApp } from '../../render.tsx';
import { quietApi } from '../session/session-fixture.tsx';
import { devStore, loadAll } from './dev-store-fixture.ts';
import { fakeInspectModule } from './fake-inspector.ts';

const playback: { actor: PlaybackActorRef | null } = { actor: null };

function Page({ children }: { children: ReactNode }) {
  const actor = usePlaybackActor();
  useEffect(() => {
    playback.actor = actor;
  }, [actor]);
  return children;
}

/** Each paint comes 4 ms (of a fake clock) after the slice change. */
function fakePaints() {
  let time = 0;
  const afterPaint: AfterPaint = (callback) => {
    queueMicrotask(() => {
      time += 4;
      callback();
    });
    return () => undefined;
  };
  return { now: () => time, afterPaint };
}

function renderOverlay(store: ImageStore, load = fakeInspectModule()) {
  const tools = createActiveToolStore('ruler');
  renderApp(
    <ReviewSessionProvider patientId="P-1" recordId="R-1" images={store} tools={tools}>
      {/* As before the session owned the annotations: an overlay without annotations (no interaction shown). */}
      <AnnotationSessionContext value={null}>
        <Page>
          <DevOverlay store={store} loadInspector={async () => load.module} sampler={fakePaints()} />
        </Page>
      </AnnotationSessionContext>
    </ReviewSessionProvider>,
    { api: quietApi() },
  );
  return { tools, load };
}

const shown = (testId: string) => screen.getByTestId(testId).textContent;

describe('developer overlay', () => {
  it('shows the frames, memory, playback and tool figures of a real image store and playback actor', async () => {
    const store = devStore({ bmodeCount: 120, angioCount: 30 });
    const { tools } = renderOverlay(store);
    const overlay = screen.getByTestId('dev-overlay');
    expect(overlay.getAttribute('role')).toBe('status');
    expect(shown('dev-bmode-frames')).toBe('0 / 120');
    expect(shown('dev-angio-frames')).toBe('0 / 30');
    expect(shown('dev-texture-bytes')).toBe('1,024 B (0.0 MiB)'); // 4x4 + 8x6 + 120x8 (the L-mode: a column per frame, the frame's longer side)
    expect(shown('dev-frame-data-bytes')).toBe('0 B (0.0 MiB)');
    expect(shown('dev-playback')).toBe('stopped');
    expect(shown('dev-tool')).toBe('ruler');
    expect(shown('dev-frame-time')).toBe('–');

    act(() => loadAll(store));
    act(() => tools.set('brightness'));
    act(() => playback.actor?.send({ type: 'playback.manualResume' }));
    await waitFor(() => expect(shown('dev-bmode-frames')).toBe('120 / 120'));
    expect(shown('dev-angio-frames')).toBe('30 / 30');
    expect(shown('dev-frame-data-bytes')).toBe('6,240 B (0.0 MiB)'); // 120 x 48 + 30 x 16
    expect(overlay.dataset.frameDataBytes).toBe('6240');
    expect(shown('dev-playback')).toBe('running (manual)');
    expect(shown('dev-tool')).toBe('brightness');
    // Playing moves the slice; every move is painted 4 ms later on the fake clock.
    await waitFor(() => expect(shown('dev-frame-time')).toBe('4.0 ms'));
  });

  it('lets pointer events through except on its own button', async () => {
    renderOverlay(devStore());
    expect(getComputedStyle(screen.getByTestId('dev-overlay')).pointerEvents).toBe('none');
    const open = await screen.findByRole('button', { name: 'Open XState inspector' });
    expect(getComputedStyle(open).pointerEvents).toBe('auto');
  });

  it('refreshes a few times a second, not on every change', async () => {
    vi.useFakeTimers();
    try {
      const store = devStore();
      renderOverlay(store);
      act(() => loadAll(store));
      expect(shown('dev-bmode-frames')).toBe('0 / 120');
      act(() => vi.advanceTimersByTime(250));
      expect(shown('dev-bmode-frames')).toBe('120 / 120');
    } finally {
      vi.useRealTimers();
    }
  });

  it('connects the playback actor to the inspector and opens its window on a click', async () => {
    const user = userEvent.setup();
    const load = fakeInspectModule();
    renderOverlay(devStore(), load);
    await user.click(await screen.findByRole('button', { name: 'Open XState inspector' }));
    const [inspector] = load.inspectors;
    expect(load.createBrowserInspector).toHaveBeenCalledWith({ autoStart: false });
    expect(inspector?.actor).toHaveBeenCalledWith(playback.actor, expect.objectContaining({ value: 'stopped' }));
    expect(inspector?.start).toHaveBeenCalledTimes(1);
    act(() => playback.actor?.send({ type: 'playback.manualPause' }));
    expect(inspector?.next).toHaveBeenCalledWith(expect.objectContaining({ type: '@xstate.event', event: { type: 'playback.manualPause' } }));
  });

  it('keeps working when the inspector cannot be loaded', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const tools = createActiveToolStore();
    renderApp(
      <ReviewSessionProvider patientId="P-1" recordId="R-1" tools={tools}>
        <AnnotationSessionContext value={null}>
          <DevOverlay store={devStore()} loadInspector={() => Promise.reject(new Error('offline'))} />
        </AnnotationSessionContext>
      </ReviewSessionProvider>,
      { api: quietApi() },
    );
    expect(await screen.findByText('The inspector is unavailable.')).toBeTruthy();
    expect(shown('dev-tool')).toBe('none');
  });
});

describe('inspector connection', () => {
  it('opens a fresh inspector after its window was closed, focuses an open one, and stops on dispose', async () => {
    const { createActor } = await import('xstate');
    const { playbackMachine } = await import('../../../../src/web/review/playback/playback.machine.ts');
    const actor = createActor(playbackMachine, { input: { read: devStore().getSnapshot } }).start();
    const load = fakeInspectModule();
    const connection = await connectInspector(actor, async () => load.module);

    expect(connection.open()).toBe(true);
    expect(connection.open()).toBe(true);
    expect(load.inspectors).toHaveLength(1);
    expect(load.inspectors[0]?.adapter.targetWindow?.focus).toHaveBeenCalledTimes(1);

    load.inspectors[0]!.adapter.targetWindow!.closed = true;
    expect(connection.open()).toBe(true);
    expect(load.inspectors).toHaveLength(2);
    expect(load.inspectors[0]?.stop).toHaveBeenCalledTimes(1);

    connection.dispose();
    expect(load.inspectors[1]?.stop).toHaveBeenCalledTimes(1);
    actor.send({ type: 'playback.manualPause' });
    expect(load.inspectors[1]?.next).not.toHaveBeenCalledWith(expect.objectContaining({ type: '@xstate.event', event: { type: 'playback.manualPause' } }));
    actor.stop();
  });
});
