import { PLAYBACK_STEP_MS } from '../../../domain/constants.ts';
import { realTimeSlicesPerTick, type PlaybackView } from './playback.machine.ts';

/**
 * The playback speeds a clinician can choose: the spec's (one slice per 10 ms tick, 100 slices a
 * second), the acquisition's own frame rate (real time), and twice that.
 */
export type PlaybackSpeed = 'spec' | 'real-time' | 'double';

export const PLAYBACK_SPEEDS: readonly PlaybackSpeed[] = ['spec', 'real-time', 'double'];

/**
 * The speed a record plays at until the clinician chooses one: the spec's fast review for a
 * pullback, real time for an angiography run without one (issue 26): a cine run is read at the
 * rate it was acquired, and 100 frames a second would play a 96-frame run in one second.
 */
export function defaultPlaybackSpeed(view: Pick<PlaybackView, 'bmodeCount' | 'angioCount'>): PlaybackSpeed {
  return view.bmodeCount === 0 && view.angioCount > 0 ? 'real-time' : 'spec';
}

/** Slices per tick for a speed; the real-time speeds need the acquisition's frame rate (null: not known yet, so the spec's). */
export function slicesPerTickFor(speed: PlaybackSpeed, frameRateHz: number | null): number {
  if (speed === 'spec' || frameRateHz === null || !(frameRateHz > 0)) return 1;
  return realTimeSlicesPerTick(frameRateHz) * (speed === 'double' ? 2 : 1);
}

/** Slices a second at a speed, for the labels. */
export function slicesPerSecond(speed: PlaybackSpeed, frameRateHz: number | null): number {
  return (slicesPerTickFor(speed, frameRateHz) * 1000) / PLAYBACK_STEP_MS;
}

const RATE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** The menu's words for a speed, e.g. "Real time (30 frames/s)". */
export function speedLabel(speed: PlaybackSpeed, frameRateHz: number | null): string {
  const rate = `${RATE.format(slicesPerSecond(speed, frameRateHz))} frames/s`;
  if (speed === 'spec') return `Fast review (${rate})`;
  return `${speed === 'double' ? '2× real time' : 'Real time'} (${rate})`;
}

/** The toolbar's short form: "100/s", "1×", "2×". */
export function speedBadge(speed: PlaybackSpeed): string {
  return speed === 'spec' ? '100/s' : speed === 'double' ? '2×' : '1×';
}
