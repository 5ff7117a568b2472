import { Box, Flex, HStack, Heading, Text } from '@chakra-ui/react';
import { useCallback, useRef } from 'react';
import { useSearch } from 'wouter';
import { DevOverlay } from './dev/dev-overlay.tsx';
import { FramesStatus } from './imaging/frames-status.tsx';
import { ReviewPanels } from './panels/review-panels.tsx';
import { useAutoPause, usePlaybackSource } from './playback/playback-context.tsx';
import { SliceIndicator, useSliceNavigation } from './playback/slice-navigation.tsx';
import { useRecordImages } from './imaging/use-record-images.ts';
import { useRecordContext } from '../session/use-patient-context.ts';
import { formatDate } from '../ui/format-date.ts';
import { ErrorState } from '../ui/states.tsx';

export interface ReviewPageProps {
  patientId: string;
  recordId: string;
}

/** The review's frame: which record, and the three panels at their default widths (the panels are drawn by later work). */
export function ReviewPage({ patientId, recordId }: ReviewPageProps) {
  const { context, record, loading, error, retry } = useRecordContext(patientId, recordId);
  const search = new URLSearchParams(useSearch());
  const noImage = search.get('noImage') === 'true';
  const dev = search.get('dev') === 'true';
  const { state: images, store } = useRecordImages(recordId, !noImage);
  usePlaybackSource(store);
  useSliceNavigation(store);
  const holdPlayback = useAutoPause();
  const releaseRef = useRef<(() => void) | null>(null);
  // Automatic playback pauses while the user drags on a panel (spec: auto pause), then resumes.
  const onPanelDrag = useCallback(
    (dragging: boolean) => {
      releaseRef.current?.();
      releaseRef.current = dragging ? holdPlayback() : null;
    },
    [holdPlayback],
  );
  const missing = !loading && !record;

  return (
    <Flex direction="column" height="full">
      <HStack as="header" px="4" py="2" borderBottomWidth="1px" gap="4" minHeight="12">
        <Heading as="h1" size="md">
          {record ? `Review of ${formatDate(record.acquiredAt)}` : 'Review'}
        </Heading>
        {context ? (
          <Text color="fg.muted" textStyle="sm">
            {context.patient.name} · {context.patient.patientId}
            {record ? ` · ${record.modality}` : ''}
          </Text>
        ) : null}
        <HStack marginInlineStart="auto" gap="4">
          <FramesStatus state={images} store={store} />
          <SliceIndicator source={store} />
        </HStack>
      </HStack>
      {error && !record ? (
        <Box p="4">
          <ErrorState title="The record could not be loaded" message={error.message} onRetry={retry} />
        </Box>
      ) : missing ? (
        <Box p="4">
          <ErrorState title="Record not found" message={`Patient ${patientId} has no record ${recordId}.`} />
        </Box>
      ) : (
        <ReviewPanels store={store} onPanelDrag={onPanelDrag} />
      )}
      {dev ? <DevOverlay store={store} /> : null}
    </Flex>
  );
}
