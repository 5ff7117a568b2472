import { useEffect, useRef, type RefObject } from 'react';
import { writeInNextFrameOnChange } from '../frames/next-frame.ts';
import type { SliceCursor } from '../frames/slice-cursor.ts';

/**
 * Keeps the current slice's line (a DOM element) at `x(slice)` by a transform, outside React: a
 * slice change (a hundred a second while playing) must not repaint the plot's few thousand segments
 * or the strip's image. `x` changes only with the width and the slice count, which the caller passes.
 * Returns the ref to put on the line's element.
 */
export function useSliceLine(cursor: Pick<SliceCursor, 'getSnapshot' | 'subscribe'>, x: (slice: number) => number, width: number, count: number): RefObject<HTMLDivElement | null> {
  const line = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const place = () => {
      const element = line.current;
      if (!element) return;
      const { slice } = cursor.getSnapshot();
      element.style.transform = `translateX(${x(slice) - 1}px)`;
      element.dataset.slice = String(slice);
    };
    place();
    return writeInNextFrameOnChange(cursor.subscribe, place);
  }, [cursor, width, count]); // eslint-disable-line react-hooks/exhaustive-deps -- x follows width and count
  return line;
}
