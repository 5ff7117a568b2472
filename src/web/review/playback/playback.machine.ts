import { and, assign, enqueueActions, fromCallback, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { MIN_BMODE_IMAGES_FOR_PLAYBACK, PLAYBACK_STEP_MS } from '../../../domain/constants.ts';

/**
 * Playback of the pullback (spec section 4): stopped, running automatically, or manual.
 * The image store owns the slice; this machine only reads it (`input.read`) and asks for the
 * next one through the provided `advanceSlice` action, so that scrubbing, the L-mode cursor and
 * playback can never disagree about where the review is.
 */

/** What playback needs to know of the image store (its snapshot has these fields). */
export interface PlaybackView {
  /** 1-based. */
  readonly slice: number;
  /** The larger of the B-mode and angio counts: playback wraps after it. */
  readonly sliceCount: number;
  readonly bmodeLoaded: number;
  /** The record's frames per series (0: none), to know how many must be loaded before playing. */
  readonly bmodeCount: number;
  readonly angioCount: number;
  readonly angioLoaded: number;
}

/**
 * Whether enough frames are loaded to play (spec section 2, issue 26): min(100, frame count) of the
 * B-mode, so that an 87-frame loop plays once its 87 frames are in; a record without a pullback
 * (an angiography run only) plays its angiography run on the same rule. A record with no frames
 * at all, or whose lists are not known yet, does not play.
 */
export function canPlayView(view: PlaybackView): boolean {
  const [loaded, count] = view.bmodeCount > 0 ? [view.bmodeLoaded, view.bmodeCount] : [view.angioLoaded, view.angioCount];
  return count > 0 && loaded >= Math.min(MIN_BMODE_IMAGES_FOR_PLAYBACK, count);
}

/** Why Play waits, for its tooltip: the frames this record needs ("Available once 87 B-mode images are loaded"). */
export function playbackWaitReason(view: PlaybackView): string {
  if (view.bmodeCount === 0 && view.angioCount > 0) {
    return `Available once ${Math.min(MIN_BMODE_IMAGES_FOR_PLAYBACK, view.angioCount)} angiography images are loaded`;
  }
  // While the record's lists are unknown, the spec's threshold is what Play waits for.
  const needed = view.bmodeCount > 0 ? Math.min(MIN_BMODE_IMAGES_FOR_PLAYBACK, view.bmodeCount) : MIN_BMODE_IMAGES_FOR_PLAYBACK;
  return `Available once ${needed} B-mode images are loaded`;
}

export interface PlaybackInput {
  read: () => PlaybackView;
  /** Slices per 10 ms step of playback time; 1 by default (the spec's speed). Fractions play slower, e.g. at the acquisition frame rate. */
  slicesPerTick?: number;
}

export interface PlaybackContext {
  read: () => PlaybackView;
  /** Set by the user's Play or Pause; automatic pause and resume are then ignored until reset. */
  manual: boolean;
  slicesPerTick: number;
  /** The part of a slice owed from earlier ticks when the speed is not a whole number of slices per tick. */
  carry: number;
}

export type PlaybackEvent =
  | { type: 'playback.manualResume' }
  | { type: 'playback.manualPause' }
  | { type: 'playback.autoResume' }
  | { type: 'playback.autoPause' }
  | { type: 'playback.reset' }
  | { type: 'playback.setSpeed'; slicesPerTick: number }
  /** One painted frame's worth of playback: `elapsedMs` since the last one (a 10 ms step when not given). */
  | { type: 'playback.tick'; elapsedMs?: number };

/**
 * The most playback time one frame may account for. A frame that comes later (a long task, a tab
 * that was hidden without a pause) plays on from where it was instead of leaping ahead.
 */
export const MAX_TICK_MS = 100;

/** Slices owed to a frame `elapsedMs` after the last one, at `slicesPerTick` per 10 ms step. */
export function tickProgress(slicesPerTick: number, elapsedMs: number | undefined): number {
  const elapsed = elapsedMs === undefined ? PLAYBACK_STEP_MS : Math.min(MAX_TICK_MS, Math.max(0, elapsedMs));
  return (slicesPerTick * elapsed) / PLAYBACK_STEP_MS;
}

/** The speed at which the pullback plays in real time: its frames per second spread over the ticks. */
export function realTimeSlicesPerTick(frameRateHz: number): number {
  return (frameRateHz * PLAYBACK_STEP_MS) / 1000;
}

/** The slice `steps` after `slice`, starting again from 1 after the last one. */
export function nextSlice(slice: number, sliceCount: number, steps: number): number {
  if (sliceCount < 1) return 1;
  return ((((slice - 1 + steps) % sliceCount) + sliceCount) % sliceCount) + 1;
}

function isValidSpeed(slicesPerTick: number): boolean {
  return Number.isFinite(slicesPerTick) && slicesPerTick > 0;
}

export const playbackMachine = setup({
  types: {
    context: {} as PlaybackContext,
    events: {} as PlaybackEvent,
    input: {} as PlaybackInput,
  },
  actors: {
    /**
     * One tick per animation frame, carrying the time since the last one: the slice moves at most
     * once per painted frame, by as many slices as the speed owes that time (100 a second at the
     * spec's speed), so playback keeps its speed without the 10 ms interval's ticks, most of which
     * moved the slice, woke this chart and its listeners for images never painted (issue 27).
     * The next frame is asked for after the tick is sent: the panels' draws (and the readout's),
     * asked for while the slice moved, then run first in the next frame, before its tick. Asked for
     * before, the next tick ran ahead of a pending draw and the next draw request went to the frame
     * after: an image every other frame.
     */
    ticker: fromCallback<PlaybackEvent>(({ sendBack }) => {
      let last = performance.now();
      let id = 0;
      let stopped = false;
      const frame = (now: number) => {
        const elapsedMs = now - last;
        last = now;
        if (elapsedMs > 0) sendBack({ type: 'playback.tick', elapsedMs });
        // The tick may have stopped playback (the store was emptied): then no frame is asked for.
        if (!stopped) id = requestAnimationFrame(frame);
      };
      id = requestAnimationFrame(frame);
      return () => {
        stopped = true;
        cancelAnimationFrame(id);
      };
    }),
  },
  actions: {
    /** Shows `slice` (and counts the play tick); provided by whoever owns the image store. */
    advanceSlice: (_, _params: { slice: number }) => undefined,
    enterManualMode: assign({ manual: true }),
    forgetMode: assign({ manual: false, carry: 0 }),
    setSpeed: assign({
      slicesPerTick: ({ context, event }) =>
        event.type === 'playback.setSpeed' && isValidSpeed(event.slicesPerTick) ? event.slicesPerTick : context.slicesPerTick,
    }),
  },
  guards: {
    canPlay: ({ context }) => canPlayView(context.read()),
    isAutomatic: ({ context }) => !context.manual,
  },
}).createMachine({
  id: 'playback',
  context: ({ input }) => ({
    read: input.read,
    manual: false,
    slicesPerTick: input.slicesPerTick !== undefined && isValidSpeed(input.slicesPerTick) ? input.slicesPerTick : 1,
    carry: 0,
  }),
  initial: 'stopped',
  on: {
    'playback.reset': { target: '.stopped', actions: 'forgetMode' },
    'playback.setSpeed': { actions: 'setSpeed' },
  },
  states: {
    stopped: {
      on: {
        'playback.manualResume': { guard: 'canPlay', target: 'running', actions: 'enterManualMode' },
        'playback.manualPause': { actions: 'enterManualMode' },
        'playback.autoResume': { guard: and(['isAutomatic', 'canPlay']), target: 'running' },
      },
    },
    running: {
      invoke: { src: 'ticker' },
      on: {
        'playback.manualPause': { target: 'stopped', actions: 'enterManualMode' },
        'playback.manualResume': { actions: 'enterManualMode' },
        'playback.autoPause': { guard: 'isAutomatic', target: 'stopped' },
        'playback.tick': [
          {
            guard: 'canPlay',
            actions: enqueueActions(({ context, event, enqueue }) => {
              const progress = context.carry + tickProgress(context.slicesPerTick, event.type === 'playback.tick' ? event.elapsedMs : undefined);
              const steps = Math.floor(progress);
              enqueue.assign({ carry: progress - steps });
              if (steps < 1) return;
              const { slice, sliceCount } = context.read();
              enqueue({ type: 'advanceSlice', params: { slice: nextSlice(slice, sliceCount, steps) } });
            }),
          },
          // The image store was reset (or its record replaced) under a running playback.
          { target: 'stopped', actions: 'forgetMode' },
        ],
      },
    },
  },
});

export type PlaybackActorRef = ActorRefFrom<typeof playbackMachine>;
export type PlaybackSnapshot = SnapshotFrom<typeof playbackMachine>;

export function isPlaying(snapshot: PlaybackSnapshot): boolean {
  return snapshot.matches('running');
}
