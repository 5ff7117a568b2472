/**
 * Pixi's system ticker while GPU panels live (issue 27): every pixi renderer's scheduler joins
 * Ticker.system at init, which would run a requestAnimationFrame loop at display rate only to run
 * the GC's repeat tasks. A mounted, idle panel must not wake the page every frame, the GC must
 * still run, and once the last panel is gone nothing of it is left running.
 */
import { act, render } from '@testing-library/react';
import { GCSystem, SchedulerSystem, Ticker, type Renderer } from 'pixi.js';
import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UiProviders } from '../../../../src/web/app/ui-providers.tsx';
import { ImageStore } from '../../../../src/web/review/frames/image-store.ts';
import { SliceCursor } from '../../../../src/web/review/frames/slice-cursor.ts';
import { ImagePanel } from '../../../../src/web/review/panels/image-panel.tsx';
import { ActiveToolContext, createActiveToolStore } from '../../../../src/web/review/tools/active-tool.tsx';
import { createBrightnessContrastStore } from '../../../../src/web/review/view/brightness-contrast.ts';

/** One GC collection per stand-in renderer: pixi's texture GC empties its freed (null) entries every 30 s. */
const collections: Record<string, Record<string, object | null>>[] = [];

// jsdom has no WebGL. The stand-in does, with pixi's own SchedulerSystem and GCSystem, what the
// Application's init and destroy do with the system ticker: init (asynchronous, after the
// renderer's chunk loads) joins it and schedules the GC; destroy leaves it.
vi.mock('@pixi/react', () => ({
  Application: () => {
    useEffect(() => {
      let scheduler: SchedulerSystem | null = null;
      let destroyed = false;
      void Promise.resolve().then(() => {
        if (destroyed) return;
        scheduler = new SchedulerSystem();
        scheduler.init();
        const gc = new GCSystem({ scheduler } as unknown as Renderer);
        gc.init(GCSystem.defaultOptions);
        const collection = { textures: { shown: {}, freed: null } };
        gc.addCollection(collection, 'textures', 'hash');
        collections.push(collection);
      });
      return () => {
        destroyed = true;
        scheduler?.destroy();
      };
    }, []);
    return <canvas />;
  },
}));

/** The runs of the renderers' schedulers: each one a wake-up of the page's main thread. */
let schedulerRuns: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  collections.length = 0;
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'requestAnimationFrame', 'cancelAnimationFrame', 'performance'] });
  schedulerRuns = vi.spyOn(SchedulerSystem.prototype as unknown as { _update: () => void }, '_update');
});

afterEach(() => {
  // Each test starts from the system ticker of a fresh page (pixi's defaults), not from the last one's.
  Ticker.system.stop();
  Ticker.system.autoStart = true;
  vi.useRealTimers();
  schedulerRuns.mockRestore();
});

function Panels({ kinds }: { kinds: ('bmode' | 'angio')[] }) {
  const store = new ImageStore();
  const cursor = new SliceCursor(store);
  return (
    <UiProviders>
      <ActiveToolContext value={createActiveToolStore()}>
        {kinds.map((kind) => (
          <ImagePanel key={kind} kind={kind} label={kind} widthPercent={50} store={store} cursor={cursor} display={createBrightnessContrastStore()} />
        ))}
      </ActiveToolContext>
    </UiProviders>
  );
}

/** Advances the page's clock (frames, timers) by `ms` and returns the scheduler runs meanwhile. */
async function runsOver(ms: number): Promise<number> {
  const before = schedulerRuns.mock.calls.length;
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
  return schedulerRuns.mock.calls.length - before;
}

describe("pixi's system ticker beside the GPU panels", () => {
  it('runs about once a second, not every frame, while a panel lives, and its GC still empties freed textures', async () => {
    render(<Panels kinds={['bmode']} />);
    await act(async () => {});
    expect(collections).toHaveLength(1);
    // At display rate this would be ~600 runs.
    const runs = await runsOver(10_000);
    expect(runs).toBeGreaterThanOrEqual(9);
    expect(runs).toBeLessThanOrEqual(11);
    expect(collections[0]!.textures).toHaveProperty('freed');
    await runsOver(30_000);
    expect(collections[0]!.textures).not.toHaveProperty('freed');
    expect(collections[0]!.textures).toHaveProperty('shown');
  });

  it('keeps running for the panels left, and stops with the last one', async () => {
    const timersBefore = vi.getTimerCount();
    const view = render(<Panels kinds={['bmode', 'angio']} />);
    await act(async () => {});
    expect(collections).toHaveLength(2);
    // Two renderers' schedulers, each run once a second.
    expect(await runsOver(5_000)).toBeLessThanOrEqual(2 * 6);
    view.rerender(<Panels kinds={['bmode']} />);
    const runs = await runsOver(5_000);
    expect(runs).toBeGreaterThanOrEqual(4);
    expect(runs).toBeLessThanOrEqual(6);
    view.unmount();
    expect(await runsOver(5_000)).toBe(0);
    // No frame request nor timer left behind by the panels.
    expect(vi.getTimerCount()).toBe(timersBefore);
  });
});
