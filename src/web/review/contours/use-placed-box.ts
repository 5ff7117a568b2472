import { useLayoutEffect, useState } from 'react';
import type { Size } from '../view/view-transform.ts';
import { placeBox, type Obstacles, type Placement } from './readout-placement.ts';

export interface PlacedBox<L extends string> {
  /** A callback ref for the box. */
  ref: (element: HTMLDivElement | null) => void;
  placement: Placement;
  /** The layout the box is to be drawn in. */
  layout: L;
}

const EMPTY: Size = { width: 0, height: 0 };

/**
 * A box placed in a panel corner clear of the obstacles (readout-placement.ts), by its rendered
 * size: attach `ref` to the box, position it at `placement.rect`, draw it in `layout`. The layouts
 * are tried in order (a wide one, then a narrow one that fits beside the image on a laptop): the
 * first with a corner clear of everything and off the field of view wins, else the best ranked
 * (clear but over the field of view, then covering least), the earlier layout on a tie. A layout
 * not measured yet is drawn once to be measured.
 */
export function usePlacedBox<L extends string>(panel: Size, obstacles: Obstacles, layouts: readonly [L, ...L[]]): PlacedBox<L> {
  const [element, ref] = useState<HTMLDivElement | null>(null);
  const [sizes, setSizes] = useState<Partial<Record<L, Size>>>({});
  let chosen: { layout: L; placement: Placement } | null = null;
  for (const layout of layouts) {
    const size = sizes[layout];
    if (!size) {
      chosen = { layout, placement: placeBox(panel, EMPTY, obstacles) };
      break;
    }
    const placement = placeBox(panel, size, obstacles);
    if (chosen === null || placement.rank < chosen.placement.rank) chosen = { layout, placement };
    if (placement.rank === 0) break;
  }
  const { layout, placement } = chosen!;

  useLayoutEffect(() => {
    if (!element) return;
    const measure = () =>
      setSizes((current) => {
        const known = current[layout];
        const width = element.offsetWidth;
        const height = element.offsetHeight;
        return known && known.width === width && known.height === height ? current : { ...current, [layout]: { width, height } };
      });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, layout]);
  return { ref, placement, layout };
}
