import { Button, HStack, Text } from '@chakra-ui/react';
import { useSyncExternalStore } from 'react';
import { nextSliceToCheck } from '../../../domain/contours/slices-to-check.ts';
import { ariaKeyShortcut, useShortcut } from '../../ui/shortcuts.ts';

/** Next and previous slice to check: N like "next", with Shift going back as Shift+Tab does. */
export const SLICES_TO_CHECK_SHORTCUTS = { next: 'N', previous: 'Shift+N' } as const;

/** The current slice and a way to change it (the review's ImageStore fits as it is). */
export interface CheckedSliceSource {
  getSnapshot: () => { readonly slice: number };
  subscribe: (listener: () => void) => () => void;
  setSlice: (slice: number) => void;
}

/**
 * "12 slices to check" and Previous / Next buttons (N, Shift+N) that step through the slices whose
 * borders the detector did not trust. Those it could not read at all (`noBorder`, a subset) are
 * counted and named "no border". It renders again only when the neighbours or the position in
 * the list change, not on every slice change (a hundred a second while playing).
 */
export function SlicesToCheck({ slices, noBorder = [], source }: { slices: readonly number[]; noBorder?: readonly number[]; source: CheckedSliceSource }) {
  // One string stands for what is shown, so useSyncExternalStore compares by value.
  const state = useSyncExternalStore(source.subscribe, () => {
    const { slice } = source.getSnapshot();
    return `${nextSliceToCheck(slices, slice, -1) ?? ''}|${nextSliceToCheck(slices, slice, 1) ?? ''}|${slices.indexOf(slice)}|${noBorder.includes(slice) ? 'none' : ''}`;
  });
  const [previousText, nextText, positionText, noBorderText] = state.split('|');
  const previous = previousText ? Number(previousText) : null;
  const next = nextText ? Number(nextText) : null;
  const position = Number(positionText);
  // From the slice shown when the key is pressed, not the one of the last render: keys can come faster than renders.
  const step = (direction: 1 | -1) => {
    const target = nextSliceToCheck(slices, source.getSnapshot().slice, direction);
    if (target !== null) source.setSlice(target);
  };
  useShortcut(SLICES_TO_CHECK_SHORTCUTS.next, () => step(1), slices.length > 0);
  useShortcut(SLICES_TO_CHECK_SHORTCUTS.previous, () => step(-1), slices.length > 0);

  if (slices.length === 0) {
    return (
      <Text textStyle="xs" color="fg.muted" data-testid="slices-to-check" data-count={0}>
        No low-confidence slice
      </Text>
    );
  }
  return (
    <HStack gap="1" data-testid="slices-to-check" data-count={slices.length}>
      <Text textStyle="xs" color="fg.warning" fontWeight="semibold">
        {slices.length.toLocaleString('en-US')} slice{slices.length === 1 ? '' : 's'} to check
        {noBorder.length > 0 ? `, ${noBorder.length.toLocaleString('en-US')} with no border` : ''}
        {position >= 0 ? ` (${position + 1} of ${slices.length}${noBorderText ? ': no border' : ''})` : ''}
      </Text>
      <Button
        size="2xs"
        variant="outline"
        disabled={previous === null}
        aria-label="Previous low-confidence slice"
        aria-keyshortcuts={ariaKeyShortcut(SLICES_TO_CHECK_SHORTCUTS.previous)}
        title={`Previous low-confidence slice (${SLICES_TO_CHECK_SHORTCUTS.previous})`}
        onClick={() => step(-1)}
      >
        ‹ Previous
      </Button>
      <Button
        size="2xs"
        variant="outline"
        disabled={next === null}
        aria-label="Next low-confidence slice"
        aria-keyshortcuts={ariaKeyShortcut(SLICES_TO_CHECK_SHORTCUTS.next)}
        title={`Next low-confidence slice (${SLICES_TO_CHECK_SHORTCUTS.next})`}
        onClick={() => step(1)}
      >
        Next ›
      </Button>
    </HStack>
  );
}
