import { describe, expect, it } from 'vitest';
import { parsePageMessage } from '../../../src/web/sw/messages.ts';
import { PrefetchQueue, type PrefetchProgress } from '../../../src/web/sw/prefetch-queue.ts';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function harness(options: { cached?: string[]; failing?: string[] } = {}) {
  const downloads: string[] = [];
  const releases = new Map<string, () => void>();
  const progress: PrefetchProgress[] = [];
  const queue = new PrefetchQueue({
    concurrency: 2,
    isCached: async (url) => options.cached?.includes(url) ?? false,
    download: (url) =>
      new Promise<void>((resolve, reject) => {
        downloads.push(url);
        releases.set(url, options.failing?.includes(url) ? () => reject(new Error('404')) : resolve);
      }),
    onProgress: (p) => progress.push(p),
  });
  const finish = async (url: string) => {
    releases.get(url)!();
    await settle();
  };
  return { queue, downloads, progress, finish, last: () => progress[progress.length - 1]! };
}

describe('service worker prefetch queue', () => {
  it('downloads everything not cached, two at a time, and reports progress', async () => {
    const h = harness({ cached: ['b'] });
    h.queue.start(['a', 'b', 'c', 'd']);
    await settle();
    expect(h.downloads).toEqual(['a', 'c']);
    await h.finish('a');
    expect(h.downloads).toEqual(['a', 'c', 'd']);
    await h.finish('c');
    await h.finish('d');
    expect(h.last()).toMatchObject({ done: 4, total: 4, failed: [] });
  });

  it('starts nothing new after stop_fetches and carries on after resume_fetches', async () => {
    const h = harness();
    h.queue.start(['a', 'b', 'c', 'd']);
    await settle();
    h.queue.stop();
    expect(h.last().paused).toBe(true);
    await h.finish('a');
    await h.finish('b');
    expect(h.downloads).toEqual(['a', 'b']);
    h.queue.resume();
    await settle();
    expect(h.downloads).toEqual(['a', 'b', 'c', 'd']);
    expect(h.last().paused).toBe(false);
  });

  it('a pause that arrives while the cache is being asked holds those downloads back too', async () => {
    const h = harness({ cached: ['b'] });
    h.queue.start(['a', 'b', 'c']);
    h.queue.stop();
    await settle();
    expect(h.downloads).toEqual([]);
    expect(h.last()).toMatchObject({ done: 1, total: 3, paused: true });
    h.queue.resume();
    await settle();
    expect(h.downloads).toEqual(['a', 'c']);
    await h.finish('a');
    await h.finish('c');
    expect(h.last()).toMatchObject({ done: 3, total: 3, failed: [] });
  });

  it('reports the URLs that failed so the page can say which frames are missing', async () => {
    const h = harness({ failing: ['b'] });
    h.queue.start(['a', 'b']);
    await settle();
    await h.finish('a');
    await h.finish('b');
    expect(h.last()).toMatchObject({ done: 2, total: 2, failed: ['b'] });
  });

  it('drops the previous record when a new one starts, and does not count its late results', async () => {
    const h = harness();
    h.queue.start(['old-1', 'old-2', 'old-3']);
    await settle();
    h.queue.start(['new-1']);
    await h.finish('old-1');
    await h.finish('old-2');
    await h.finish('new-1');
    expect(h.downloads).toEqual(['old-1', 'old-2', 'new-1']);
    expect(h.last()).toMatchObject({ done: 1, total: 1 });
  });
});

describe('page messages', () => {
  it('accepts the spec names as plain strings or typed objects', () => {
    expect(parsePageMessage('stop_fetches')).toEqual({ type: 'stop_fetches' });
    expect(parsePageMessage({ type: 'resume_fetches' })).toEqual({ type: 'resume_fetches' });
    expect(parsePageMessage('something else')).toBeNull();
    expect(parsePageMessage({ type: 'prefetch', urls: 'x', authorization: 'Bearer t' })).toBeNull();
  });

  it('only lets the worker prefetch record image paths', () => {
    const frames = '/api/demo/records/5b4c8a43-3c1e-4b5d-9d3a-2f0e9c1d7a11/frames/bmode/0?v=v1';
    const message = parsePageMessage({ type: 'prefetch', urls: [frames, 'https://evil.example/x', '/api/demo/patients'], authorization: 'Bearer t' });
    expect(message).toEqual({ type: 'prefetch', urls: [frames], authorization: 'Bearer t' });
  });
});
