import { Box } from '@chakra-ui/react';
import { useRef, type KeyboardEvent, type PointerEvent } from 'react';

export interface PanelSplitterProps {
  label: string;
  /** The size of the panel before the splitter, in percent (aria-valuenow). */
  value: number;
  min: number;
  max: number;
  /** Width of the panels' row in pixels, to turn a drag into percent. */
  containerWidth: () => number;
  /** Moves the splitter by this many percent (positive: to the right). */
  onMove: (deltaPercent: number) => void;
}

const KEY_STEP_PERCENT = 1;
const SHIFT_KEY_STEP_PERCENT = 5;

/** A draggable, keyboard-operable window splitter (WAI-ARIA separator pattern). */
export function PanelSplitter({ label, value, min, max, containerWidth, onMove }: PanelSplitterProps) {
  const drag = useRef<{ pointerId: number; startX: number; startValue: number } | null>(null);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    drag.current = { pointerId: event.pointerId, startX: event.clientX, startValue: value };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const current = drag.current;
    const width = containerWidth();
    if (!current || current.pointerId !== event.pointerId || width <= 0) return;
    // Relative to where the drag started, so that clamping at a limit does not make the splitter drift from the pointer.
    onMove(current.startValue + ((event.clientX - current.startX) / width) * 100 - value);
  };
  const onPointerUp = () => {
    drag.current = null;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? SHIFT_KEY_STEP_PERCENT : KEY_STEP_PERCENT;
    const delta = { ArrowLeft: -step, ArrowRight: step, ArrowDown: -step, ArrowUp: step, Home: min - value, End: max - value }[event.key];
    if (delta === undefined) return;
    // The review page's own arrow keys change the slice; here they belong to the splitter.
    event.preventDefault();
    event.stopPropagation();
    onMove(delta);
  };

  return (
    <Box
      role="separator"
      aria-label={label}
      aria-orientation="vertical"
      aria-valuenow={value}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      flex="0 0 6px"
      cursor="col-resize"
      touchAction="none"
      bg="border"
      _hover={{ bg: 'border.emphasized' }}
      _focusVisible={{ outline: '2px solid', outlineColor: 'colorPalette.focusRing', bg: 'border.emphasized' }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
    />
  );
}
