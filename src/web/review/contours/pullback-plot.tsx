import { Box, Button, HStack, Text } from '@chakra-ui/react';
import { useEffect, useMemo, useRef, type MouseEvent as ReactMouseEvent } from 'react';
import { writeInNextFrameOnChange } from '../imaging/next-frame.ts';
import { CONTOUR_COLOR } from '../../../domain/constants.ts';
import type { CorrectedAnalysis } from '../../../domain/contours/corrected-analysis.ts';
import type { ImageStore } from '../imaging/image-store.ts';

const HEIGHT_PX = 120;
const MARGIN = { left: 44, right: 12, top: 10, bottom: 22 };
const MLA_COLOR = '#FF461F';
const REFERENCE_COLOR = '#45FF4F';

export interface PullbackPlotProps {
  result: CorrectedAnalysis;
  images: ImageStore;
  width: number;
  /** Which figures the areas and positions rest on that the files did not give, or null. */
  assumedNote: string | null;
  onExportCsv: () => void;
  onExportPdf: () => void;
}

/** Polyline of lumen area against slice, in plot pixels. */
function areaPath(result: CorrectedAnalysis, x: (slice: number) => number, y: (area: number) => number): string {
  return result.slices.map((s, i) => `${i === 0 ? 'M' : 'L'}${x(s.slice).toFixed(1)},${y(s.areaMm2).toFixed(1)}`).join('');
}

/**
 * Lumen area along the pullback (issue 9): x in slices (with mm below), the current slice marked;
 * the MLA and the two reference slices flagged; a click jumps to the slice under the pointer.
 */
export function PullbackPlot({ result, images, width, assumedNote, onExportCsv, onExportPdf }: PullbackPlotProps) {
  const cursorRef = useRef<HTMLDivElement>(null);
  const count = result.slices.length;
  const maxArea = useMemo(() => Math.max(1, ...result.slices.map((s) => s.areaMm2)) * 1.1, [result]);
  const plotWidth = Math.max(10, width - MARGIN.left - MARGIN.right);
  const plotHeight = HEIGHT_PX - MARGIN.top - MARGIN.bottom;
  const x = (s: number) => MARGIN.left + (count > 1 ? ((s - 1) / (count - 1)) * plotWidth : 0);
  const y = (area: number) => MARGIN.top + plotHeight - (area / maxArea) * plotHeight;
  const path = useMemo(() => areaPath(result, x, y), [result, plotWidth, maxArea]); // eslint-disable-line react-hooks/exhaustive-deps -- x and y follow plotWidth and maxArea
  const { mla, references, stenosisPercent } = result.analysis;
  const lastMm = result.slices.at(-1)?.positionMm ?? 0;

  // The current-slice line is a DOM element moved by a transform, outside React: a slice change
  // (a hundred a second while playing) must not repaint the plot's few thousand segments.
  useEffect(() => {
    const place = () => {
      const cursor = cursorRef.current;
      if (!cursor) return;
      const { slice } = images.getSnapshot();
      cursor.style.transform = `translateX(${x(slice) - 1}px)`;
      cursor.dataset.slice = String(slice);
    };
    place();
    return writeInNextFrameOnChange(images.subscribe, place);
  }, [images, plotWidth, count]); // eslint-disable-line react-hooks/exhaustive-deps -- x follows plotWidth and count

  const onClick = (event: ReactMouseEvent<SVGSVGElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    const fraction = (event.clientX - rect.left - MARGIN.left) / plotWidth;
    images.setSlice(Math.round(Math.min(1, Math.max(0, fraction)) * (count - 1)) + 1);
  };

  const flag = (s: number, color: string, label: string, testId: string) => (
    <g data-testid={testId} data-slice={s}>
      <line x1={x(s)} x2={x(s)} y1={MARGIN.top} y2={MARGIN.top + plotHeight} stroke={color} strokeDasharray="3 2" />
      <text x={x(s) + 3} y={MARGIN.top + 9} fill={color} fontSize="10">
        {label}
      </text>
    </g>
  );

  return (
    <Box borderTopWidth="1px" bg="bg.subtle" px="2" pt="1" data-testid="pullback-analysis">
      <HStack gap="4" textStyle="xs" wrap="wrap">
        <Text fontWeight="semibold">Lumen area along the pullback</Text>
        {mla ? (
          <Text data-testid="mla-summary">
            MLA {mla.areaMm2.toFixed(2)} mm² at slice {mla.index + 1} ({result.slices[mla.index]?.positionMm.toFixed(1)} mm)
          </Text>
        ) : null}
        <Text>
          References: distal {references.distal ? `${references.distal.areaMm2.toFixed(2)} mm² (slice ${references.distal.index + 1})` : '—'}, proximal{' '}
          {references.proximal ? `${references.proximal.areaMm2.toFixed(2)} mm² (slice ${references.proximal.index + 1})` : '—'}
        </Text>
        <Text data-testid="stenosis">Area stenosis {stenosisPercent === null ? '—' : `${stenosisPercent.toFixed(0)} %`}</Text>
        {assumedNote ? (
          <Text color="fg.warning" data-testid="analysis-assumed">
            {assumedNote}
          </Text>
        ) : null}
        {result.manualCount > 0 ? <Text color="fg.muted">{result.manualCount} corrected slice{result.manualCount > 1 ? 's' : ''}</Text> : null}
        <HStack marginInlineStart="auto" gap="1">
          <Button size="2xs" variant="outline" onClick={onExportCsv}>
            Export CSV
          </Button>
          <Button size="2xs" variant="outline" onClick={onExportPdf}>
            PDF report
          </Button>
        </HStack>
      </HStack>
      <Box position="relative">
      <Box
        ref={cursorRef}
        data-testid="plot-cursor"
        position="absolute"
        left="0"
        top={`${MARGIN.top}px`}
        width="2px"
        height={`${plotHeight}px`}
        bg="#FFE411"
        pointerEvents="none"
        willChange="transform"
      />
      <svg
        width={width}
        height={HEIGHT_PX}
        role="img"
        aria-label="Lumen area along the pullback; click to go to a slice"
        data-testid="pullback-plot"
        style={{ cursor: 'pointer', display: 'block' }}
        onClick={onClick}
      >
        <rect x={MARGIN.left} y={MARGIN.top} width={plotWidth} height={plotHeight} fill="transparent" stroke="currentColor" strokeOpacity={0.2} />
        <text x={4} y={MARGIN.top + 8} fontSize="10" fill="currentColor">
          {maxArea.toFixed(0)} mm²
        </text>
        <text x={4} y={MARGIN.top + plotHeight} fontSize="10" fill="currentColor">
          0
        </text>
        <text x={MARGIN.left} y={HEIGHT_PX - 6} fontSize="10" fill="currentColor">
          slice 1 · 0 mm
        </text>
        <text x={MARGIN.left + plotWidth} y={HEIGHT_PX - 6} fontSize="10" fill="currentColor" textAnchor="end">
          slice {count} · {lastMm.toFixed(1)} mm
        </text>
        <path d={path} fill="none" stroke={CONTOUR_COLOR} strokeWidth={1.5} />
        {references.distal ? flag(references.distal.index + 1, REFERENCE_COLOR, 'D ref', 'distal-reference') : null}
        {references.proximal ? flag(references.proximal.index + 1, REFERENCE_COLOR, 'P ref', 'proximal-reference') : null}
        {mla ? flag(mla.index + 1, MLA_COLOR, 'MLA', 'mla-flag') : null}
      </svg>
      </Box>
    </Box>
  );
}
