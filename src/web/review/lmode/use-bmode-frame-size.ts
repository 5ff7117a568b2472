import { useMemo, useSyncExternalStore } from 'react';
import type { ImageStore } from '../frames/image-store.ts';

/** The record's B-mode frame size and count, or null before the image lists are in; the same object while they stay. */
export function useBmodeFrameSize(store: ImageStore): { width: number; height: number; count: number } | null {
  // As text: the store hands out a new size object on each call.
  const key = useSyncExternalStore(store.subscribe, () => {
    const size = store.size('bmode');
    return size ? `${size.width}x${size.height}x${size.count}` : '';
  });
  return useMemo(() => {
    const [width, height, count] = key.split('x').map(Number);
    return key ? { width: width!, height: height!, count: count! } : null;
  }, [key]);
}
