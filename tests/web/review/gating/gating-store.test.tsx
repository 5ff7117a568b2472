import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../src/domain/random.ts';
import { drawHeartbeat, endDiastolicFrames, excursionAt } from '../../../../src/domain/synthetic/heartbeat.ts';
import { GatingControls } from '../../../../src/web/review/gating/gating-controls.tsx';
import { GatingStore, type GatingFrameSource } from '../../../../src/web/review/gating/gating-store.ts';
import { renderApp } from '../../render.tsx';

const SIZE = 64;
const COUNT = 300;

/** 64 x 64 frames of a bright disk that moves with a beating heart (or stays put), over speckle; `loaded` of them arrived. */
function beatingFrames(beating: boolean) {
  const heartbeat = drawHeartbeat(5, { bpm: 80, variability: 0.08 });
  const random = seededRandom(3);
  const frames = Array.from({ length: COUNT }, (_, i) => {
    const shift = beating ? 6 * excursionAt(heartbeat, i, 30) : 0;
    return Uint8Array.from({ length: SIZE * SIZE }, (_, p) => {
      const x = p % SIZE;
      const y = Math.floor(p / SIZE);
      return (Math.hypot(x - 32 - shift, y - 32) < 14 ? 180 : 40) + Math.floor(20 * random());
    });
  });
  const listeners = new Set<() => void>();
  let loaded = 0;
  const source: GatingFrameSource = {
    subscribe: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
    getSnapshot: () => ({ bmodeLoaded: loaded }),
    size: () => ({ width: SIZE, height: SIZE, count: COUNT }),
    frame: (_, index) => (index < loaded ? frames[index]! : null),
  };
  const arrive = (count: number) => {
    loaded = count;
    for (const listener of listeners) listener();
  };
  return { source, arrive, truth: endDiastolicFrames(heartbeat, COUNT, 30) };
}

describe('the review’s gating', () => {
  it('waits for all frames, then gates them; the E key steps end-diastole to end-diastole', async () => {
    const { source, arrive, truth } = beatingFrames(true);
    const gating = new GatingStore(source, 30);
    let slice = 1;
    renderApp(<GatingControls gating={gating} source={{ getSnapshot: () => ({ slice }), setSlice: (s) => (slice = s) }} />);
    fireEvent.click(screen.getByRole('button', { name: 'Gated' }));
    expect(screen.getByRole('button', { name: 'Gated' }).getAttribute('aria-pressed')).toBe('true');
    expect(gating.getSnapshot().status).toBe('waiting-for-frames');
    expect(screen.getByTestId('gating-status').textContent).toMatch(/waits for all frames/);
    arrive(COUNT);
    await waitFor(() => expect(gating.getSnapshot().status).toBe('done'));
    const result = gating.getSnapshot().result;
    expect(result?.kind).toBe('gated');
    if (result?.kind !== 'gated') return;
    for (const frame of truth.filter((f) => f > 5 && f < COUNT - 6)) {
      expect(result.endDiastolicFrames.some((g) => Math.abs(g - frame) <= 1)).toBe(true);
    }
    expect(await screen.findByTestId('gating-status')).toHaveProperty('textContent', expect.stringMatching(/gated frames \(end-diastole\), about \d+ bpm/));
    fireEvent.keyDown(window, { key: 'e' });
    expect(slice).toBe(result.endDiastolicFrames[0]! + 1);
    fireEvent.keyDown(window, { key: 'e' });
    expect(slice).toBe(result.endDiastolicFrames[1]! + 1);
    fireEvent.keyDown(window, { key: 'E', shiftKey: true });
    expect(slice).toBe(result.endDiastolicFrames[0]! + 1);
    gating.dispose();
  });

  it('says "no cardiac cycle" on frames where nothing beats, and offers no stepping', async () => {
    const { source, arrive } = beatingFrames(false);
    arrive(COUNT);
    const gating = new GatingStore(source, 30);
    renderApp(<GatingControls gating={gating} source={{ getSnapshot: () => ({ slice: 1 }), setSlice: () => {} }} />);
    fireEvent.keyDown(window, { key: 'G', shiftKey: true });
    await waitFor(() => expect(gating.getSnapshot().status).toBe('done'));
    expect(await screen.findByTestId('gating-status')).toHaveProperty('textContent', expect.stringMatching(/^No cardiac cycle found/));
    expect(screen.queryByRole('button', { name: 'Next gated frame' })).toBeNull();
    gating.dispose();
  });
});
