import type { ReactNode } from 'react';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RecordImages } from '../../../../src/domain/images.ts';
import { ApiProvider } from '../../../../src/web/api/api-context.tsx';
import type { ApiClient } from '../../../../src/web/api/api-client.ts';
import type { PageMessage, WorkerMessage } from '../../../../src/web/sw/messages.ts';

const worker = vi.hoisted(() => ({ listeners: [] as ((message: WorkerMessage) => void)[], posted: [] as PageMessage[] }));
vi.mock('../../../../src/web/sw/sw-client.ts', () => ({
  onWorkerMessage: (listener: (message: WorkerMessage) => void) => {
    worker.listeners.push(listener);
    return () => worker.listeners.splice(worker.listeners.indexOf(listener), 1);
  },
  postToServiceWorker: async (message: PageMessage) => (worker.posted.push(message), true),
  stopFetches: async () => true,
  resumeFetches: async () => true,
}));
const { useRecordImages } = await import('../../../../src/web/review/frames/use-record-images.ts');

const images: RecordImages = {
  recordId: 'rec-a',
  patientId: 'p',
  version: 'v1',
  frameRateHz: 30,
  pullbackSpeedMmPerS: 0.5,
  pixelSpacingMm: 0.01,
  bmode: { count: 32, width: 4, height: 4, framesPerChunk: 16, chunks: ['records/rec-a/frames/bmode/0?v=v1', 'records/rec-a/frames/bmode/1?v=v1'], chunkFormat: 'gray8' },
  angio: { count: 16, width: 4, height: 4, framesPerChunk: 16, chunks: ['records/rec-a/frames/angio/0?v=v1'], chunkFormat: 'gray8' },
};

const api = {
  get: async () => images,
  // Frames never arrive here: only the download messages matter.
  getBytes: () => new Promise<never>(() => undefined),
  url: (path: string) => `/api/demo/${path}`,
  authorization: () => 'Bearer t',
} as unknown as ApiClient;

const progress = (recordId: string, done: number): WorkerMessage => ({ type: 'prefetch_progress', recordId, done, total: 3, failed: [], paused: false });

afterEach(() => {
  worker.listeners.length = 0;
  worker.posted.length = 0;
});

describe('useRecordImages and the service worker', () => {
  it("hands the worker the record's chunks with their slices, and shows only that record's download progress", async () => {
    const wrapper = ({ children }: { children: ReactNode }) => <ApiProvider client={api}>{children}</ApiProvider>;
    const { result, unmount } = renderHook(() => useRecordImages('rec-a', true), { wrapper });
    await waitFor(() => expect(result.current.state.status).toBe('ready'));
    expect(worker.posted.find((message) => message.type === 'prefetch')).toEqual({
      type: 'prefetch',
      recordId: 'rec-a',
      slice: 1,
      authorization: 'Bearer t',
      items: [
        { url: '/api/demo/records/rec-a/frames/bmode/0?v=v1', first: 1, last: 16 },
        { url: '/api/demo/records/rec-a/frames/bmode/1?v=v1', first: 17, last: 32 },
        { url: '/api/demo/records/rec-a/frames/angio/0?v=v1', first: 1, last: 32 },
      ],
    });

    // Another record's download with the same number of chunks (a tab left open) is not this one's.
    act(() => worker.listeners.forEach((listener) => listener(progress('rec-b', 3))));
    expect(result.current.state).toMatchObject({ download: null });
    act(() => worker.listeners.forEach((listener) => listener(progress('rec-a', 2))));
    expect(result.current.state).toMatchObject({ download: { recordId: 'rec-a', done: 2 } });
    unmount();
  });

  it('tells the worker when the clinician moves to another chunk', async () => {
    const wrapper = ({ children }: { children: ReactNode }) => <ApiProvider client={api}>{children}</ApiProvider>;
    const { result, unmount } = renderHook(() => useRecordImages('rec-a', true), { wrapper });
    await waitFor(() => expect(result.current.state.status).toBe('ready'));
    act(() => result.current.store.setSlice(20));
    await waitFor(() => expect(worker.posted).toContainEqual({ type: 'prefetch_focus', recordId: 'rec-a', slice: 20 }));
    unmount();
  });

  it('takes the image lists the review route asked for already, and asks again only when that request failed', async () => {
    const asks: string[] = [];
    const counting = { ...api, get: async (_schema: unknown, path: string) => (asks.push(path), images) } as unknown as ApiClient;
    const wrapper = ({ children }: { children: ReactNode }) => <ApiProvider client={counting}>{children}</ApiProvider>;
    const early = renderHook(() => useRecordImages('rec-a', true, undefined, Promise.resolve(images)), { wrapper });
    await waitFor(() => expect(early.result.current.state.status).toBe('ready'));
    expect(early.result.current.store.images).toEqual(images);
    expect(asks).toEqual([]);
    early.unmount();

    const failed = Promise.reject(new Error('the connection dropped'));
    const again = renderHook(() => useRecordImages('rec-a', true, undefined, failed), { wrapper });
    await waitFor(() => expect(again.result.current.state.status).toBe('ready'));
    expect(asks).toEqual(['records/rec-a/images']);
    again.unmount();
  });

  it('leaves the store empty when the review is left before the asked lists arrive', async () => {
    const wrapper = ({ children }: { children: ReactNode }) => <ApiProvider client={api}>{children}</ApiProvider>;
    let answer!: (lists: RecordImages) => void;
    const asked = new Promise<RecordImages>((resolve) => (answer = resolve));
    const { result, unmount } = renderHook(() => useRecordImages('rec-a', true, undefined, asked), { wrapper });
    const { store } = result.current;
    unmount();
    answer(images);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(store.images).toBeNull();
    expect(worker.posted.filter((message) => message.type === 'prefetch')).toEqual([]);
  });
});
