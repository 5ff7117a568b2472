import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ImageStore } from '../../../../src/web/review/frames/image-store.ts';
import {
  formatBytes,
  frameDataBytes,
  readDevMetrics,
  sameMetrics,
  stateValueText,
  textureBytes,
} from '../../../../src/web/review/dev/dev-metrics.ts';
import { playbackMachine } from '../../../../src/web/review/playback/playback.machine.ts';
import { ANGIO, BMODE, devStore, loadAll } from './dev-store-fixture.ts';

describe('developer metrics', () => {
  it('estimates one r8 texel per image pixel for each of the three panels', () => {
    expect(textureBytes(new ImageStore())).toBe(3); // three 1 x 1 black textures before any image list
    const store = devStore({ bmodeCount: 120, angioCount: 30 });
    // angio 4 x 4, B-mode 8 x 6, and the L-mode: one column per B-mode frame, as long as the frame's longer side.
    expect(textureBytes(store)).toBe(16 + 48 + 120 * 8);
  });

  it('counts the frame bytes held in the page, one byte per pixel', () => {
    const store = devStore({ bmodeCount: 120, angioCount: 30 });
    expect(frameDataBytes(store)).toBe(0);
    loadAll(store);
    expect(frameDataBytes(store)).toBe(120 * BMODE.width * BMODE.height + 30 * ANGIO.width * ANGIO.height);
    store.reset();
    expect(frameDataBytes(store)).toBe(0);
  });

  it('reads frames, playback and tool into one comparable record', () => {
    const store = devStore({ bmodeCount: 120, angioCount: 30 });
    loadAll(store);
    const actor = createActor(playbackMachine, { input: { read: store.getSnapshot } }).start();
    actor.send({ type: 'playback.manualPause' });
    const metrics = readDevMetrics(store, 4.5, actor.getSnapshot(), 'ruler', 'drawing');
    expect(metrics).toEqual({
      frameTimeMs: 4.5,
      bmodeLoaded: 120,
      bmodeCount: 120,
      angioLoaded: 30,
      angioCount: 30,
      textureBytes: 16 + 48 + 120 * 8,
      frameDataBytes: 120 * 48 + 30 * 16,
      playbackState: 'stopped',
      playbackManual: true,
      tool: 'ruler',
      interaction: 'drawing',
    });
    expect(sameMetrics(metrics, { ...metrics })).toBe(true);
    expect(sameMetrics(metrics, { ...metrics, interaction: 'idle' })).toBe(false);
    expect(sameMetrics(metrics, { ...metrics, tool: null })).toBe(false);
    actor.stop();
  });

  it('formats bytes exactly and in MiB, and nested state values as JSON', () => {
    expect(formatBytes(3 * 1024 * 1024)).toBe('3,145,728 B (3.0 MiB)');
    expect(stateValueText('running')).toBe('running');
    expect(stateValueText({ running: 'fast' })).toBe('{"running":"fast"}');
  });
});
