import { Box } from '@chakra-ui/react';
import { useMemo, useSyncExternalStore } from 'react';
import { slicesWithAnnotations } from '../../../domain/annotations/labels.ts';
import type { ImageStore } from '../frames/image-store.ts';
import { lmodeSliceToX } from '../view/lmode-mapping.ts';
import { imageToScreen, type PanelViewportSource } from '../view/view-transform.ts';
import type { AnnotationStore } from '../manifest/annotation-store.ts';

const MARK_HEIGHT_PX = 8;

/**
 * Over the L-mode view: a small mark at the top of every slice that has annotations, placed
 * with the panel's zoom and pan (the L-mode image has one column per slice).
 */
export function AnnotatedSliceMarks({ viewport: source, images, annotations }: { viewport: PanelViewportSource; images: ImageStore; annotations: AnnotationStore }) {
  const viewport = useSyncExternalStore(source.subscribe, source.getViewport);
  const sliceCount = useSyncExternalStore(images.subscribe, () => images.getSnapshot().sliceCount);
  const manifest = useSyncExternalStore(annotations.subscribe, () => annotations.getSnapshot().manifest);
  const slices = useMemo(() => slicesWithAnnotations(manifest), [manifest]);
  if (!viewport || sliceCount < 1) return null;
  const { transform, imageSize } = viewport;
  const columnX = (slice: number) => imageToScreen(transform, { x: lmodeSliceToX(slice, imageSize.width, sliceCount), y: 0 }).x;
  return (
    <Box position="absolute" inset="0" pointerEvents="none" data-testid="annotated-slice-marks" data-slices={slices.join(',')}>
      {slices.map((slice) => (
        <Box
          key={slice}
          position="absolute"
          left="0"
          top="0"
          width="6px"
          height={`${MARK_HEIGHT_PX}px`}
          transform={`translate(${columnX(slice) - 3}px, ${Math.max(0, transform.y)}px)`}
          bg="#FFE411"
          clipPath="polygon(0 0, 100% 0, 50% 100%)"
          title={`Slice ${slice} has annotations`}
        />
      ))}
    </Box>
  );
}
