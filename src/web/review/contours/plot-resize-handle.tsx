import { Box } from '@chakra-ui/react';
import { useRef, type KeyboardEvent as ReactKeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { MIN_PLOT_HEIGHT_PX } from './plot-height.ts';

/** One arrow key press resizes by this much; with Shift, by five times as much. */
const KEY_STEP_PX = 16;

export interface PlotResizeHandleProps {
  height: number;
  maxHeight: number;
  onResize: (height: number) => void;
}

/**
 * The bar above the L-mode strip and the plot that resizes the plot: dragged up it makes the plot
 * taller (the drawer sits at the bottom of the screen). A focusable separator, as WAI-ARIA's window
 * splitter: ↑/↓ resize, Home/End go to the least and the largest height.
 */
export function PlotResizeHandle({ height, maxHeight, onResize }: PlotResizeHandleProps) {
  const drag = useRef<{ y: number; height: number } | null>(null);
  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    // No text selection and no focus theft while dragging.
    event.preventDefault();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    drag.current = { y: event.clientY, height };
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (start) onResize(start.height + (start.y - event.clientY));
  };
  const onPointerUp = () => {
    drag.current = null;
  };
  const onKeyDown = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? 5 * KEY_STEP_PX : KEY_STEP_PX;
    const next = { ArrowUp: height + step, ArrowDown: height - step, Home: MIN_PLOT_HEIGHT_PX, End: maxHeight }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    // The review's own keys (slice stepping) must not also act on these.
    event.stopPropagation();
    onResize(next);
  };
  return (
    <Box
      role="separator"
      aria-orientation="horizontal"
      aria-label="Resize the pullback plot (up and down arrow keys)"
      aria-valuenow={height}
      aria-valuemin={MIN_PLOT_HEIGHT_PX}
      aria-valuemax={maxHeight}
      tabIndex={0}
      data-testid="plot-resize-handle"
      height="8px"
      cursor="row-resize"
      touchAction="none"
      userSelect="none"
      display="flex"
      alignItems="center"
      justifyContent="center"
      borderTopWidth="1px"
      _hover={{ bg: 'bg.emphasized' }}
      _focusVisible={{ outline: '2px solid', outlineColor: 'colorPalette.focusRing', bg: 'bg.emphasized' }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
    >
      <Box width="40px" height="3px" borderRadius="full" bg="fg.muted" opacity={0.6} />
    </Box>
  );
}
