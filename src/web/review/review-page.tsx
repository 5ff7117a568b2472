import { Box, Flex, HStack, Heading, Text } from '@chakra-ui/react';
import { useSearch } from 'wouter';
import { DEFAULT_PANEL_WIDTHS_PERCENT } from '../../domain/constants.ts';
import { FramesStatus } from './imaging/frames-status.tsx';
import { useRecordImages } from './imaging/use-record-images.ts';
import { useRecordContext } from '../session/use-patient-context.ts';
import { formatDate } from '../ui/format-date.ts';
import { ErrorState } from '../ui/states.tsx';

const PANELS = [
  { id: 'angio', label: 'Angio' },
  { id: 'bmode', label: 'B-mode' },
  { id: 'lmode', label: 'L-mode' },
] as const;

export interface ReviewPageProps {
  patientId: string;
  recordId: string;
}

/** The review's frame: which record, and the three panels at their default widths (the panels are drawn by later work). */
export function ReviewPage({ patientId, recordId }: ReviewPageProps) {
  const { context, record, loading, error, retry } = useRecordContext(patientId, recordId);
  const noImage = new URLSearchParams(useSearch()).get('noImage') === 'true';
  const { state: images, store } = useRecordImages(recordId, !noImage);
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
        <Box marginInlineStart="auto">
          <FramesStatus state={images} store={store} />
        </Box>
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
        <Flex flex="1" minHeight="0" data-testid="review-panels" gap="1" p="1" bg="bg.muted">
          {PANELS.map(({ id, label }, index) => (
            <Box
              key={id}
              as="section"
              aria-label={`${label} panel`}
              data-panel={id}
              flexBasis={`${DEFAULT_PANEL_WIDTHS_PERCENT[index] ?? 0}%`}
              flexGrow={1}
              minWidth="0"
              bg="black"
              rounded="l1"
            />
          ))}
        </Flex>
      )}
    </Flex>
  );
}
