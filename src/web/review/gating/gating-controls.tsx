import { Button, HStack, Text } from '@chakra-ui/react';
import { useSyncExternalStore } from 'react';
import { nextGatedSlice } from '../../../domain/gating/gated-analysis.ts';
import { ariaKeyShortcut, useShortcut } from '../../ui/shortcuts.ts';
import type { GatingSnapshot, GatingStore } from './gating-store.ts';

/** Shift+G turns gating on and off (G alone is the angle tool); E steps to the next end-diastolic frame, Shift+E back. */
export const GATING_SHORTCUTS = { toggle: 'Shift+G', next: 'E', previous: 'Shift+E' } as const;

/** The current slice and a way to change it (the review's slice cursor fits as it is). */
export interface GatedSliceSource {
  getSnapshot: () => { readonly slice: number };
  setSlice: (slice: number) => void;
}

const HOW = 'Image-based gating: one frame per cardiac cycle, at end-diastole (the last still frame before the systolic stroke), found from the change between successive frames alone, without ECG.';

/** What the gating says beside its toggle. */
export function gatingStatusText(snapshot: GatingSnapshot): string | null {
  if (!snapshot.on) return null;
  switch (snapshot.status) {
    case 'waiting-for-frames':
      return `Gating waits for all frames (${snapshot.done.toLocaleString('en-US')} of ${snapshot.total.toLocaleString('en-US')})`;
    case 'computing':
      return `Gating… ${snapshot.done.toLocaleString('en-US')} of ${snapshot.total.toLocaleString('en-US')} frames`;
    default: {
      const result = snapshot.result;
      if (!result) return null;
      if (result.kind === 'no-cycle') return `No cardiac cycle found: ${result.reason}. Figures on all frames.`;
      return `${result.endDiastolicFrames.length} gated frames (end-diastole), about ${Math.round(result.heartRateBpm)} bpm`;
    }
  }
}

/**
 * The gating toggle (Shift+G) with its state, and, once frames are gated, Previous / Next buttons
 * (Shift+E, E) that step end-diastolic frame to end-diastolic frame.
 */
export function GatingControls({ gating, source }: { gating: GatingStore; source: GatedSliceSource }) {
  const snapshot = useSyncExternalStore(gating.subscribe, gating.getSnapshot);
  const gated = snapshot.on && snapshot.result?.kind === 'gated' ? snapshot.result.endDiastolicFrames : null;
  const step = (direction: 1 | -1) => {
    const target = gated ? nextGatedSlice(source.getSnapshot().slice, gated, direction) : null;
    if (target !== null) source.setSlice(target);
  };
  useShortcut(GATING_SHORTCUTS.toggle, gating.toggle);
  useShortcut(GATING_SHORTCUTS.next, () => step(1), gated !== null);
  useShortcut(GATING_SHORTCUTS.previous, () => step(-1), gated !== null);
  const status = gatingStatusText(snapshot);
  return (
    <HStack gap="1" data-testid="gating" data-status={snapshot.status} data-gated={gated?.length ?? 0}>
      <Button
        size="2xs"
        variant={snapshot.on ? 'solid' : 'outline'}
        aria-pressed={snapshot.on}
        aria-keyshortcuts={ariaKeyShortcut(GATING_SHORTCUTS.toggle)}
        title={`${HOW} While on, the L-mode strip shows the gated frames only and the MLA, references, stenosis, lesion length and plaque burden are found among them (${GATING_SHORTCUTS.toggle})`}
        onClick={gating.toggle}
      >
        Gated
      </Button>
      {status ? (
        <Text textStyle="xs" color={snapshot.result?.kind === 'no-cycle' ? 'fg.warning' : 'fg.muted'} data-testid="gating-status">
          {status}
        </Text>
      ) : null}
      {gated ? (
        <>
          <Button
            size="2xs"
            variant="outline"
            aria-label="Previous gated frame"
            aria-keyshortcuts={ariaKeyShortcut(GATING_SHORTCUTS.previous)}
            title={`Previous end-diastolic frame (${GATING_SHORTCUTS.previous})`}
            onClick={() => step(-1)}
          >
            ‹
          </Button>
          <Button
            size="2xs"
            variant="outline"
            aria-label="Next gated frame"
            aria-keyshortcuts={ariaKeyShortcut(GATING_SHORTCUTS.next)}
            title={`Next end-diastolic frame (${GATING_SHORTCUTS.next})`}
            onClick={() => step(1)}
          >
            ›
          </Button>
        </>
      ) : null}
    </HStack>
  );
}
