import { createContext, use, useCallback, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { isPlaying, playbackMachine, type PlaybackActorRef } from './playback.machine.ts';
import { slicesPerTickFor, type PlaybackSpeed } from './playback-speed.ts';
import { canPlayView, createAutoPauseHolds, createPlaybackLink, type PlaybackLink, type PlaybackSource } from './playback-link.ts';

interface PlaybackServices {
  actor: PlaybackActorRef;
  link: PlaybackLink;
  hold: () => () => void;
  speed: PlaybackSpeed;
  setSpeed: (speed: PlaybackSpeed) => void;
}

const PlaybackContext = createContext<PlaybackServices | null>(null);

/**
 * One playback actor per review visit, shared by the page (which attaches its image store) and
 * the right toolbar (Play, Pause, Space). AppLayout mounts it above both on the review screen;
 * the router's key per record gives each review its own.
 */
export function PlaybackProvider({ children }: { children: ReactNode }) {
  const [link] = useState(createPlaybackLink);
  const [logic] = useState(() =>
    playbackMachine.provide({ actions: { advanceSlice: (_, { slice }) => link.advance(slice) } }),
  );
  const actor = useActorRef(logic, { input: { read: link.read } });
  const hold = useMemo(() => createAutoPauseHolds(actor), [actor]);

  useEffect(() => {
    let release: (() => void) | null = null;
    const onVisibilityChange = () => {
      if (document.hidden) release ??= hold();
      else {
        release?.();
        release = null;
      }
    };
    document.addEventListener('visibilitychange', onVisibilityChange);
    return () => {
      document.removeEventListener('visibilitychange', onVisibilityChange);
      release?.();
    };
  }, [hold]);

  // The chosen speed becomes slices per tick once the record's frame rate is known (and again
  // whenever another record's store is attached).
  const [speed, setSpeed] = useState<PlaybackSpeed>('spec');
  useEffect(() => {
    let frameRateHz = link.frameRateHz();
    const apply = () => actor.send({ type: 'playback.setSpeed', slicesPerTick: slicesPerTickFor(speed, frameRateHz) });
    apply();
    return link.subscribe(() => {
      if (link.frameRateHz() === frameRateHz) return;
      frameRateHz = link.frameRateHz();
      apply();
    });
  }, [actor, link, speed]);

  const services = useMemo(() => ({ actor, link, hold, speed, setSpeed }), [actor, link, hold, speed]);
  return <PlaybackContext value={services}>{children}</PlaybackContext>;
}

function usePlaybackServices(): PlaybackServices {
  const services = use(PlaybackContext);
  if (!services) throw new Error('PlaybackProvider is not mounted');
  return services;
}

/** For the developer overlay and the inspector: the actor itself. */
export function usePlaybackActor(): PlaybackActorRef {
  return usePlaybackServices().actor;
}

/**
 * Lets playback read and move the page's image store while the page is mounted. Detaching
 * (leaving the record, or a new store) stops playback, as resetting the store requires.
 * Without a provider (a page rendered on its own, as in tests) there is nothing to play from, and nothing happens.
 */
export function usePlaybackSource(source: PlaybackSource | null): void {
  const services = use(PlaybackContext);
  useEffect(() => {
    if (!services || !source) return;
    const detach = services.link.attach(source);
    return () => {
      detach();
      services.actor.send({ type: 'playback.reset' });
    };
  }, [services, source]);
}

export interface PlaybackControls {
  running: boolean;
  /** Enough B-mode images are loaded for Play and Pause. */
  canPlay: boolean;
  /** Manual resume. */
  play: () => void;
  /** Manual pause. */
  pause: () => void;
  toggle: () => void;
  speed: PlaybackSpeed;
  setSpeed: (speed: PlaybackSpeed) => void;
  /** The record's frame rate, for the speed labels; null while it is not known. */
  frameRateHz: number | null;
}

export function usePlaybackControls(): PlaybackControls {
  const { actor, link, speed, setSpeed } = usePlaybackServices();
  const running = useSelector(actor, isPlaying);
  const frameRateHz = useSyncExternalStore(link.subscribe, link.frameRateHz);
  const canPlay = useSyncExternalStore(link.subscribe, () => canPlayView(link.read()));
  const play = useCallback(() => actor.send({ type: 'playback.manualResume' }), [actor]);
  const pause = useCallback(() => actor.send({ type: 'playback.manualPause' }), [actor]);
  const toggle = useCallback(() => (isPlaying(actor.getSnapshot()) ? pause() : play()), [actor, pause, play]);
  return { running, canPlay, play, pause, toggle, speed, setSpeed, frameRateHz };
}

const NO_HOLD = () => () => undefined;

/**
 * Automatic pause for as long as the caller holds it, e.g. a drag on a panel:
 * `const release = hold()` on pointer-down, `release()` on pointer-up. Ignored in manual mode,
 * and without a provider.
 */
export function useAutoPause(): () => () => void {
  return use(PlaybackContext)?.hold ?? NO_HOLD;
}
