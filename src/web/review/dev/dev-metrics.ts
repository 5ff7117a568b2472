import type { ImageStore } from '../frames/image-store.ts';
import { lmodeColumnLength } from '../lmode/lmode-sampling.ts';
import type { PlaybackSnapshot } from '../playback/playback.machine.ts';
import type { ToolId } from '../tools/tools.ts';

/** What the developer overlay shows (issue 5, query flag dev=true). */
export interface DevMetrics {
  /** Median of the recent slice-change-to-paint times, null before the first slice change. */
  readonly frameTimeMs: number | null;
  readonly bmodeLoaded: number;
  readonly bmodeCount: number;
  readonly angioLoaded: number;
  readonly angioCount: number;
  /** Estimate of the three panels' r8 textures, one byte per texel. */
  readonly textureBytes: number;
  /** The frames' raw bytes the image store holds. */
  readonly frameDataBytes: number;
  readonly playbackState: string;
  readonly playbackManual: boolean;
  readonly tool: ToolId | null;
  /** The annotation tool statechart's state. */
  readonly interaction: string | null;
}

interface Area {
  readonly width: number;
  readonly height: number;
}

/** The renderer never makes a texture smaller than 1 x 1 (panel-renderer.ts). */
function texels(size: Area | null): number {
  return size ? Math.max(1, size.width) * Math.max(1, size.height) : 1;
}

/**
 * Each panel holds one r8 texture of the size of the image it shows. This mirrors panelImage()
 * in panel-controller.ts rather than importing it, so that the overlay does not pull Pixi in:
 * the L-mode panel's image has one column per B-mode frame, black until its frame arrives.
 */
export function textureBytes(store: ImageStore): number {
  const bmode = store.size('bmode');
  const lmodeSize = bmode ? { width: bmode.count, height: lmodeColumnLength(bmode.width, bmode.height) } : null;
  return texels(store.size('angio')) + texels(bmode) + texels(lmodeSize);
}

/** The loaded frames' bytes: every frame is kept once, one byte per pixel (image-store.ts). */
export function frameDataBytes(store: ImageStore): number {
  const { bmodeLoaded, angioLoaded } = store.getSnapshot();
  const frameBytes = (size: Area | null) => (size ? size.width * size.height : 0);
  return bmodeLoaded * frameBytes(store.size('bmode')) + angioLoaded * frameBytes(store.size('angio'));
}

/** A nested state value (none today) is shown as JSON so that the overlay keeps working if the chart grows. */
export function stateValueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function readDevMetrics(
  store: ImageStore,
  frameTimeMs: number | null,
  playback: PlaybackSnapshot,
  tool: ToolId | null,
  interaction: string | null = null,
): DevMetrics {
  const snapshot = store.getSnapshot();
  return {
    frameTimeMs,
    bmodeLoaded: snapshot.bmodeLoaded,
    bmodeCount: store.size('bmode')?.count ?? 0,
    angioLoaded: snapshot.angioLoaded,
    angioCount: store.size('angio')?.count ?? 0,
    textureBytes: textureBytes(store),
    frameDataBytes: frameDataBytes(store),
    playbackState: stateValueText(playback.value),
    playbackManual: playback.context.manual,
    tool,
    interaction,
  };
}

/** Lets the overlay skip a React render when nothing it shows changed. */
export function sameMetrics(a: DevMetrics, b: DevMetrics): boolean {
  return (Object.keys(a) as (keyof DevMetrics)[]).every((key) => Object.is(a[key], b[key]));
}

const MIB = 1024 * 1024;

/** Exact bytes for comparing with the spec's bytes-per-pixel goal, and MiB for reading at a glance. */
export function formatBytes(bytes: number): string {
  return `${bytes.toLocaleString('en-US')} B (${(bytes / MIB).toFixed(1)} MiB)`;
}

export function formatFrameTime(ms: number | null): string {
  return ms === null ? '–' : `${ms.toFixed(1)} ms`;
}
