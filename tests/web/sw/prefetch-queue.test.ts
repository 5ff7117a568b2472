import { describe, expect, it } from 'vitest';
import { CACHED_PATH, parsePageMessage } from '../../../src/web/sw/messages.ts';
import { PrefetchQueue, type PrefetchProgress } from '../../../src/web/sw/prefetch-queue.ts';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
/** Chunks of 10 slices each, in the order given. */
const items = (urls: string[]) => urls.map((url, k) => ({ url, first: 10 * k + 1, last: 10 * k + 10 }));

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
    h.queue.start('r', items(['a', 'b', 'c', 'd']), 1);
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
    h.queue.start('r', items(['a', 'b', 'c', 'd']), 1);
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
    h.queue.start('r', items(['a', 'b', 'c']), 1);
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
    h.queue.start('r', items(['a', 'b']), 1);
    await settle();
    await h.finish('a');
    await h.finish('b');
    expect(h.last()).toMatchObject({ done: 2, total: 2, failed: ['b'] });
  });

  it('drops the previous record when a new one starts, and does not count its late results', async () => {
    const h = harness();
    h.queue.start('r', items(['old-1', 'old-2', 'old-3']), 1);
    await settle();
    h.queue.start('r2', items(['new-1']), 1);
    await h.finish('old-1');
    await h.finish('old-2');
    await h.finish('new-1');
    expect(h.downloads).toEqual(['old-1', 'old-2', 'new-1']);
    expect(h.last()).toMatchObject({ recordId: 'r2', done: 1, total: 1 });
  });

  it('starts at the current slice and re-orders what is left around a slice jump', async () => {
    const h = harness();
    h.queue.start('r', items(['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7']), 35);
    await settle();
    expect(h.downloads).toEqual(['c3', 'c2']);
    h.queue.focus('r', 71);
    await h.finish('c3');
    await h.finish('c2');
    expect(h.downloads).toEqual(['c3', 'c2', 'c7', 'c6']);
    // A jump reported for another record changes nothing.
    h.queue.focus('other', 1);
    await h.finish('c7');
    expect(h.downloads.at(-1)).toBe('c5');
  });

  it('names the record in its progress', async () => {
    const h = harness();
    h.queue.start('record-a', items(['a']), 1);
    await settle();
    await h.finish('a');
    expect(h.last()).toMatchObject({ recordId: 'record-a', done: 1, total: 1 });
  });
});

describe('page messages', () => {
  it('accepts the spec names as plain strings or typed objects', () => {
    expect(parsePageMessage('stop_fetches')).toEqual({ type: 'stop_fetches' });
    expect(parsePageMessage({ type: 'resume_fetches' })).toEqual({ type: 'resume_fetches' });
    expect(parsePageMessage('something else')).toBeNull();
    expect(parsePageMessage({ type: 'prefetch', recordId: 'r', items: 'x', slice: 1, authorization: 'Bearer t' })).toBeNull();
    expect(parsePageMessage({ type: 'prefetch_focus', recordId: 'r', slice: 12 })).toEqual({ type: 'prefetch_focus', recordId: 'r', slice: 12 });
    expect(parsePageMessage({ type: 'prefetch_focus', slice: 12 })).toBeNull();
  });

  it('only lets the worker prefetch record image paths', () => {
    const frames = { url: '/api/demo/records/5b4c8a43-3c1e-4b5d-9d3a-2f0e9c1d7a11/frames/bmode/0?v=v1', first: 1, last: 16 };
    const message = parsePageMessage({
      type: 'prefetch',
      recordId: 'r',
      items: [frames, { url: 'https://evil.example/x', first: 1, last: 1 }, { url: '/api/demo/patients', first: 1, last: 1 }, { url: frames.url }],
      slice: 1,
      authorization: 'Bearer t',
    });
    expect(message).toEqual({ type: 'prefetch', recordId: 'r', items: [frames], slice: 1, authorization: 'Bearer t' });
  });

  it('caches frame chunks and previews only: the server makes no L-mode image any more', () => {
    const record = '/api/demo/records/5b4c8a43-3c1e-4b5d-9d3a-2f0e9c1d7a11';
    expect(CACHED_PATH.test(`${record}/frames/bmode/0`)).toBe(true);
    expect(CACHED_PATH.test(`${record}/previews/angio`)).toBe(true);
    expect(CACHED_PATH.test(`${record}/lmode`)).toBe(false);
    expect(CACHED_PATH.test(`${record}/images`)).toBe(false);
  });
});
