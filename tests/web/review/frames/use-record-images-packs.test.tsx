/**
 * The decode workers' lifetime in the review: started when the image lists say the record comes
 * as frame packs (not for a gray8 record), told at once to load the codecs the lists name, ended
 * when the review is left.
 */
import type { ReactNode } from 'react';
import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { RecordImages } from '../../../../src/domain/images.ts';
import { ApiProvider } from '../../../../src/web/api/api-context.tsx';
import type { ApiClient } from '../../../../src/web/api/api-client.ts';
import { testRecordImages } from '../../record-images-fixture.ts';

vi.mock('../../../../src/web/sw/sw-client.ts', () => ({
  onWorkerMessage: () => () => undefined,
  postToServiceWorker: async () => true,
  stopFetches: async () => true,
  resumeFetches: async () => true,
}));
const pools = vi.hoisted(() => ({ created: 0, disposed: 0, warmed: [] as unknown[] }));
vi.mock('../../../../src/web/codecs/decode-pool.ts', () => ({
  createFrameDecodePool: () => {
    pools.created++;
    return { decode: () => new Promise<never>(() => undefined), warm: (codec: unknown) => pools.warmed.push(codec), dispose: () => pools.disposed++ };
  },
}));
const { useRecordImages } = await import('../../../../src/web/review/frames/use-record-images.ts');

function apiFor(images: RecordImages): ApiClient {
  return {
    get: async () => images,
    getBytes: () => new Promise<never>(() => undefined),
    url: (path: string) => `/api/demo/${path}`,
    authorization: () => 'Bearer t',
  } as unknown as ApiClient;
}

async function openAndLeave(images: RecordImages): Promise<{ whileOpen: number }> {
  const wrapper = ({ children }: { children: ReactNode }) => <ApiProvider client={apiFor(images)}>{children}</ApiProvider>;
  const { result, unmount } = renderHook(() => useRecordImages('r', true), { wrapper });
  await waitFor(() => expect(result.current.state.status).toBe('ready'));
  const whileOpen = pools.created - pools.disposed;
  unmount();
  return { whileOpen };
}

describe('the decode workers of a review', () => {
  it('start for a record of frame packs and end when the review is left', async () => {
    const base = testRecordImages({ bmode: 32, angio: 16 });
    const before = { ...pools };
    const { whileOpen } = await openAndLeave({ ...base, angio: { ...base.angio, chunkFormat: 'frame-pack' } });
    expect(whileOpen).toBe(1);
    expect(pools.created - before.created).toBe(1);
    expect(pools.disposed - before.disposed).toBe(1);
  });

  it('load the codecs the image lists name before any chunk has arrived, the B-mode\'s first', async () => {
    const base = testRecordImages({ bmode: 32, angio: 16 });
    pools.warmed.length = 0;
    // No chunk ever arrives here (getBytes never answers): the codecs are loaded from the lists alone.
    await openAndLeave({
      ...base,
      bmode: { ...base.bmode, chunkFormat: 'frame-pack', packCodec: { encoding: 'jpeg', bitsStored: 8 } },
      angio: { ...base.angio, chunkFormat: 'frame-pack', packCodec: { encoding: 'jpeg-ls', bitsStored: 8 } },
    });
    expect(pools.warmed).toEqual([
      { encoding: 'jpeg', bitsStored: 8 },
      { encoding: 'jpeg-ls', bitsStored: 8 },
    ]);
  });

  it('leave the codec to the first pack when the lists do not name it (a record imported before they did)', async () => {
    const base = testRecordImages({ bmode: 32, angio: 16 });
    pools.warmed.length = 0;
    await openAndLeave({ ...base, bmode: { ...base.bmode, chunkFormat: 'frame-pack' } });
    expect(pools.warmed).toEqual([]);
  });

  it('are not started for a record of gray8 chunks', async () => {
    const before = { ...pools };
    await openAndLeave(testRecordImages({ bmode: 32, angio: 16 }));
    expect(pools.created).toBe(before.created);
  });
});
