import { Box, Text } from '@chakra-ui/react';
import { formatScaleLength, scaleBarFor } from '../../../domain/contours/frame-figures.ts';
import type { Size, ViewTransform } from '../view/view-transform.ts';
import { PANEL_MARGIN_PX, type Rect } from './readout-placement.ts';

/** The longest the bar may be: a quarter of the panel's width, and never more than this. */
const MAX_BAR_PX = 220;
/** Room the bar and its label take above the panel's bottom edge. */
export const SCALE_BAR_HEIGHT_PX = 40;

/** Where the scale bar sits (bottom-right corner of the panel): the readout keeps clear of it. */
export function scaleBarRect(panel: Size): Rect {
  const width = Math.min(MAX_BAR_PX, panel.width / 4) + 2 * PANEL_MARGIN_PX;
  return { x: panel.width - width - PANEL_MARGIN_PX, y: panel.height - SCALE_BAR_HEIGHT_PX - PANEL_MARGIN_PX, width, height: SCALE_BAR_HEIGHT_PX };
}

export interface ScaleBarProps {
  transform: ViewTransform;
  panel: Size;
  pixelSpacingMm: number;
  /** The pixel spacing is not from the files: the bar says "(assumed)", as the header does. */
  assumed: boolean;
}

/**
 * A scale bar on the B-mode frame: a round length (1-2-5 mm steps) drawn at the frame's current
 * zoom, so a clinician sees at a glance how big a lumen is. Left out when no round length fits.
 */
export function ScaleBar({ transform, panel, pixelSpacingMm, assumed }: ScaleBarProps) {
  const bar = scaleBarFor(transform.scaleX / pixelSpacingMm, Math.min(MAX_BAR_PX, panel.width / 4));
  if (!bar) return null;
  const label = `${formatScaleLength(bar.lengthMm)}${assumed ? ' (assumed)' : ''}`;
  return (
    <Box
      data-testid="scale-bar"
      data-length-mm={bar.lengthMm}
      data-length-px={bar.lengthPx.toFixed(1)}
      role="img"
      aria-label={`Scale bar: ${label}`}
      position="absolute"
      right={`${2 * PANEL_MARGIN_PX}px`}
      bottom={`${PANEL_MARGIN_PX}px`}
      display="flex"
      flexDirection="column"
      alignItems="flex-end"
      gap="0.5"
      pointerEvents="none"
      color="white"
    >
      <Text as="span" fontSize="14px" lineHeight="1.2" fontWeight="semibold" px="1" bg="rgba(0, 0, 0, 0.7)" rounded="l1">
        {label}
      </Text>
      {/* A bar with end ticks, outlined in black so it reads on bright tissue as on the dark lumen. */}
      <svg width={bar.lengthPx + 4} height={10} aria-hidden style={{ display: 'block' }}>
        <path d={`M2 1 V9 M2 5 H${bar.lengthPx + 2} M${bar.lengthPx + 2} 1 V9`} stroke="black" strokeWidth={4} fill="none" />
        <path data-testid="scale-bar-line" d={`M2 1 V9 M2 5 H${bar.lengthPx + 2} M${bar.lengthPx + 2} 1 V9`} stroke="white" strokeWidth={2} fill="none" />
      </svg>
    </Box>
  );
}
