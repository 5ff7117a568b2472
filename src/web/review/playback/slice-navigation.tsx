import { useEffect, useLayoutEffect, useRef } from 'react';
import { Text } from '@chakra-ui/react';
import { LOCALE } from '../../../domain/constants.ts';
import { writeInNextFrameOnChange } from '../frames/next-frame.ts';
import { isKeyForFocusedControl } from '../tools/keyboard-guard.ts';

/** Shift with an arrow key moves this many slices. */
export const SLICE_JUMP = 10;

/** The image store as slice navigation sees it (the review's `ImageStore` fits as it is). */
export interface SliceSource {
  getSnapshot: () => { readonly slice: number; readonly sliceCount: number };
  subscribe: (listener: () => void) => () => void;
  setSlice: (slice: number) => void;
  /** The acquisition's frame rate and pullback speed, once the image lists are known. */
  readonly images: { readonly frameRateHz: number; readonly pullbackSpeedMmPerS: number } | null;
}

/** The slice a key leads to from `slice` (1..sliceCount), or null when the key is not a navigation key. */
export function sliceForKey(key: string, shift: boolean, slice: number, sliceCount: number): number | null {
  const step = shift ? SLICE_JUMP : 1;
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowUp':
      return Math.max(1, slice - step);
    case 'ArrowRight':
    case 'ArrowDown':
      return Math.min(sliceCount, slice + step);
    case 'Home':
      return 1;
    case 'End':
      return sliceCount;
    default:
      return null;
  }
}

/** Distance along the pullback at a 1-based slice: frames are taken at a fixed rate while the catheter withdraws at a fixed speed. */
export function pullbackPositionMm(slice: number, frameRateHz: number, pullbackSpeedMmPerS: number): number {
  return ((slice - 1) / frameRateHz) * pullbackSpeedMmPerS;
}

/* Arrow keys already mean something to these (splitters, sliders, menus, lists), so they keep them. */
const OWN_ARROW_KEYS = '[role="slider"], [role="separator"], [role="menu"], [role="menubar"], [role="listbox"], [role="tablist"], [role="radiogroup"], [role="grid"], input[type="range"]';

/** Arrow keys (Shift for 10), Home and End move the slice anywhere on the review page. */
export function useSliceNavigation(source: SliceSource | null): void {
  const sourceRef = useRef(source);
  useEffect(() => {
    sourceRef.current = source;
  });

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const current = sourceRef.current;
      // Alt+ArrowLeft is Navigate back; Ctrl and Cmd arrows belong to the browser.
      if (!current || event.altKey || event.ctrlKey || event.metaKey || isKeyForFocusedControl(event)) return;
      if (event.target instanceof Element && event.target.closest(OWN_ARROW_KEYS)) return;
      const { slice, sliceCount } = current.getSnapshot();
      if (sliceCount < 1) return;
      const next = sliceForKey(event.key, event.shiftKey, slice, sliceCount);
      if (next === null) return;
      // The page would scroll otherwise.
      event.preventDefault();
      current.setSlice(next);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}

const MM_FORMAT = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * How the position along the pullback is shown: read from the files, resting on an assumed frame
 * rate or pullback speed (marked), or not at all (a record with no pullback has no position).
 */
export type PositionMode = 'measured' | 'assumed' | 'none';

/** The indicator's text for a slice. */
export function sliceIndicatorText(slice: number, sliceCount: number, images: SliceSource['images'], position: PositionMode = 'measured'): string {
  if (sliceCount < 1) return 'Slice – / –';
  const positionMm = images && position !== 'none' ? pullbackPositionMm(slice, images.frameRateHz, images.pullbackSpeedMmPerS) : null;
  const mark = position === 'assumed' ? ' (assumed)' : '';
  return `Slice ${slice} / ${sliceCount}${positionMm !== null ? ` · ${MM_FORMAT.format(positionMm)} mm${mark}` : ''}`;
}

/**
 * "Slice i / N · x.xx mm": where the review is along the pullback. Its text is written straight to
 * the DOM on every slice change (a hundred a second while playing), without a React render, in
 * the animation frame that draws the slice's image.
 */
export function SliceIndicator({ source, position = 'measured' }: { source: SliceSource; position?: PositionMode }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useLayoutEffect(() => {
    const write = () => {
      const { slice, sliceCount } = source.getSnapshot();
      const text = sliceIndicatorText(slice, sliceCount, source.images, position);
      const element = ref.current;
      if (!element) return;
      // The text node's data, changed in place: setting textContent swaps in a new node, which the
      // browser then styles and lays out from scratch with every slice (issue 27).
      const node = element.firstChild;
      if (node?.nodeType === Node.TEXT_NODE && node === element.lastChild) {
        if ((node as CharacterData).data !== text) (node as CharacterData).data = text;
      } else element.textContent = text;
    };
    write();
    return writeInNextFrameOnChange(source.subscribe, write);
  }, [source, position]);

  // Its own compositing layer: a text change then re-rasterises this small box only, not the page
  // layer around it (that repaint cost about 7 ms per slice change under SwiftShader).
  return (
    <Text
      ref={ref}
      as="span"
      data-testid="slice-indicator"
      display="inline-block"
      willChange="transform"
      textStyle="sm"
      fontVariantNumeric="tabular-nums"
      whiteSpace="nowrap"
    />
  );
}
