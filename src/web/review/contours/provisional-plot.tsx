import { Box, Text } from '@chakra-ui/react';
import { useMemo } from 'react';
import { CONTOUR_COLOR } from '../../../domain/constants.ts';
import type { ProvisionalContours } from '../../../domain/contours/provisional-contours.ts';
import { MLA_COLOR, PLOT_HEADER_PX, PLOT_MARGIN } from './pullback-plot.tsx';
import { sliceToX, type PlotAxis } from './plot-scale.ts';

/**
 * The lumen area of the frames detected so far, while the detection runs (issue 23): the full plot
 * needs every frame's borders. Drawn on the full plot's axis, dashed through the frames detected so
 * far, under a heading that says it is provisional; nothing in it can be clicked, corrected or exported.
 */
export function ProvisionalPlot({ provisional, width, height }: { provisional: ProvisionalContours; width: number; height: number }) {
  const plotWidth = Math.max(10, width - PLOT_MARGIN.left - PLOT_MARGIN.right);
  const plotHeight = Math.max(10, height - PLOT_MARGIN.top - PLOT_MARGIN.bottom);
  const axis: PlotAxis = { left: PLOT_MARGIN.left, width: plotWidth, count: provisional.frameCount };
  const maxArea = Math.max(1, ...provisional.slices.map((s) => s.areaMm2 ?? 0)) * 1.1;
  const y = (area: number) => PLOT_MARGIN.top + plotHeight - (area / maxArea) * plotHeight;
  const points = useMemo(
    () => provisional.slices.flatMap((s) => (s.areaMm2 === null ? [] : [`${sliceToX(s.slice, axis).toFixed(1)},${y(s.areaMm2).toFixed(1)}`])).join(' '),
    [provisional, plotWidth, plotHeight, maxArea], // eslint-disable-line react-hooks/exhaustive-deps -- axis and y follow these
  );
  const { mla } = provisional;
  return (
    <Box px="2" height={`${height + PLOT_HEADER_PX}px`} data-testid="provisional-plot">
      <Box height={`${PLOT_HEADER_PX}px`} pt="1">
        <Text textStyle="sm" fontWeight="semibold">
          Lumen area — provisional
        </Text>
        <Text textStyle="sm" color="fg.warning">
          From {provisional.detectedFrames.toLocaleString('en-US')} of {provisional.frameCount.toLocaleString('en-US')} frames sampled along the pullback; the plot and the MLA are refined as the other frames are read.
        </Text>
      </Box>
      <svg width={width} height={height} role="img" aria-label="Provisional lumen area along the pullback, from the frames detected so far" style={{ display: 'block' }}>
        <rect x={PLOT_MARGIN.left} y={PLOT_MARGIN.top} width={plotWidth} height={plotHeight} fill="transparent" stroke="currentColor" strokeOpacity={0.2} strokeDasharray="4 3" />
        <text x={4} y={PLOT_MARGIN.top + 11} fontSize={13} fill="currentColor">{`${maxArea.toFixed(0)} mm²`}</text>
        <text x={4} y={PLOT_MARGIN.top + plotHeight} fontSize={13} fill="currentColor">0</text>
        <polyline points={points} fill="none" stroke={CONTOUR_COLOR} strokeWidth={1} strokeDasharray="3 2" opacity={0.8} />
        {mla ? (
          <line x1={sliceToX(mla.slice, axis)} x2={sliceToX(mla.slice, axis)} y1={PLOT_MARGIN.top} y2={PLOT_MARGIN.top + plotHeight} stroke={MLA_COLOR} strokeDasharray="4 3" data-testid="provisional-mla-line">
            <title>{`Provisional MLA: ${mla.areaMm2.toFixed(2)} mm² at slice ${mla.slice}`}</title>
          </line>
        ) : null}
      </svg>
    </Box>
  );
}
