import { Badge, Card, HStack, Heading, LinkBox, LinkOverlay, Stack, Text } from '@chakra-ui/react';
import { Link } from 'wouter';
import { LOCALE } from '../../../domain/constants.ts';
import type { ContextRecord } from '../../session/context-store.ts';
import { OTHER_ULTRASOUND_LABEL } from '../../../domain/records.ts';
import { assumedFigureNames, formatAcquisitionClock, recordTitle, type RunOfDay } from '../../../domain/reports/acquisition-format.ts';
import { AnnotationBadge } from './annotation-badge.tsx';
import { RecordPreview } from './record-preview.tsx';

const COUNT_FORMAT = new Intl.NumberFormat(LOCALE);

export function reviewPath(patientId: string, recordId: string): string {
  return `/patients/${encodeURIComponent(patientId)}/records/${encodeURIComponent(recordId)}/review`;
}

function frames(count: number): string {
  return `${COUNT_FORMAT.format(count)} ${count === 1 ? 'frame' : 'frames'}`;
}

export const NO_PULLBACK_TEXT = 'Pullback not yet imported';

/** 'Pixel spacing and pullback speed assumed': figures the files did not give, or null. */
export function assumedFiguresNote(record: Pick<ContextRecord, 'assumed'>): string | null {
  const names = assumedFigureNames(record);
  if (names.length === 0) return null;
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
  return `${list.charAt(0).toUpperCase()}${list.slice(1)} assumed (not in the files)`;
}

export interface RecordCardProps {
  patientId: string;
  record: ContextRecord;
  /** Which of the patient's runs that day it is; null when the date is unknown. */
  run: RunOfDay | null;
  /** Unsaved annotation edits wait in this browser (the review's draft store). */
  hasDraft: boolean;
  onOpen: (record: ContextRecord) => void;
}

/** "14:05 · run 2 of 3 that day": what tells two runs of one procedure apart; null with nothing to say. */
export function runLine(record: ContextRecord, run: RunOfDay | null): string | null {
  const clock = formatAcquisitionClock(record);
  const parts = [clock, run && run.of > 1 ? `run ${run.run} of ${run.of} that day` : null].filter((part) => part !== null);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** One record; the whole card is the link to its review (the heading names it for screen readers). */
export function RecordCard({ patientId, record, run, hasDraft, onOpen }: RecordCardProps) {
  // An angiography run imported before its pullback: no B-mode to preview yet.
  const noPullback = record.bmodeFrameCount === 0;
  const assumedNote = assumedFiguresNote(record);
  const when = runLine(record, run);
  return (
    <LinkBox asChild>
      <Card.Root
        as="article"
        data-testid="record-card"
        variant="outline"
        transition="shadow"
        _hover={{ shadow: 'md' }}
        _focusWithin={{ outline: '1px solid', outlineColor: 'colorPalette.focusRing', outlineOffset: '2px' }}
      >
        <Card.Header pb="2">
          <HStack justify="space-between" align="flex-start" gap="3">
            <Heading as="h2" size="md">
              <LinkOverlay asChild>
                <Link href={reviewPath(patientId, record.recordId)} onClick={() => onOpen(record)}>
                  {/* The run's name when its files (or the demo) give one: "LAD pre-PCI of 07/22/26". */}
                  {recordTitle(record.seriesDescription ?? 'Record', record)}
                </Link>
              </LinkOverlay>
            </Heading>
            <Text textStyle="sm" fontWeight="semibold" color="fg.muted">
              {record.modality}
            </Text>
          </HStack>
          {record.imagingKind === 'other-ultrasound' ? (
            // Said first, before any figure: this loop is no IVUS pullback and gets no analysis (issue 26).
            <Badge alignSelf="flex-start" mt="1" colorPalette="orange" variant="solid" data-testid="record-other-ultrasound" whiteSpace="normal">
              {OTHER_ULTRASOUND_LABEL}
            </Badge>
          ) : null}
        </Card.Header>
        <Card.Body pt="0">
          <Stack gap="3">
            <HStack gap="3">
              <RecordPreview path={record.angioPreview} label="Angio" />
              {noPullback ? (
                <RecordPreview path={null} label="B-mode" emptyText={NO_PULLBACK_TEXT} />
              ) : (
                <RecordPreview path={record.bmodePreview} label="B-mode" />
              )}
            </HStack>
            <Stack gap="0" textStyle="sm">
              {when ? (
                <Text data-testid="record-when">
                  <Text as="span" color="fg.muted">Acquired: </Text>
                  {when}
                </Text>
              ) : null}
              <Text>
                <Text as="span" color="fg.muted">B-mode: </Text>
                {noPullback ? NO_PULLBACK_TEXT.toLowerCase() : frames(record.bmodeFrameCount)}
              </Text>
              <Text>
                <Text as="span" color="fg.muted">Angio: </Text>
                {frames(record.angioFrameCount)}
              </Text>
              {assumedNote ? (
                <Text color="fg.muted" data-testid="record-assumed">
                  {assumedNote}
                </Text>
              ) : null}
            </Stack>
          </Stack>
        </Card.Body>
        <Card.Footer>
          <HStack gap="2" wrap="wrap">
            <AnnotationBadge annotation={record.annotation} />
            {hasDraft ? (
              <Badge colorPalette="orange" variant="subtle" data-testid="record-draft">
                Unsaved draft in this browser
              </Badge>
            ) : null}
          </HStack>
        </Card.Footer>
      </Card.Root>
    </LinkBox>
  );
}
