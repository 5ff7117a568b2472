import { Box, Button, HStack, Stack, Table, Text } from '@chakra-ui/react';
import type { PacsStudy } from '../../../domain/pacs.ts';
import { formatDate } from '../../../domain/reports/format-date.ts';
import { SkeletonRows } from '../../ui/skeleton-rows.tsx';
import { TableHead } from '../../ui/table-head.tsx';

const COLUMNS = ['Patient', 'Birth date', 'Study date', 'Description', 'Modalities', 'Series', 'Action'] as const;

export interface PacsStudiesTableProps {
  /** null while the first answer loads (skeleton rows). */
  studies: readonly PacsStudy[] | null;
  busy: boolean;
  chosen: string | null;
  onChoose: (study: PacsStudy) => void;
}

const unknown = <Text as="span" color="fg.muted">—</Text>;

/** The studies found; choosing one lists its series below. */
export function PacsStudiesTable({ studies, busy, chosen, onChoose }: PacsStudiesTableProps) {
  return (
    <Box overflowX="auto" borderWidth="1px" rounded="l2">
      <Table.Root data-testid="pacs-studies" aria-busy={busy} size="sm">
        <TableHead caption="Studies found in the PACS; choose one to see its series." columns={COLUMNS} endAligned={['Series']} hiddenLabels={['Action']} />
        <Table.Body opacity={busy && studies ? 0.6 : 1} transition="opacity">
          {studies
            ? studies.map((study) => {
                const selected = study.studyInstanceUid === chosen;
                return (
                  <Table.Row key={study.studyInstanceUid} data-testid="pacs-study" data-selected={selected || undefined} bg={selected ? 'teal.subtle' : undefined}>
                    <Table.Cell>
                      <Stack gap="0">
                        <Text fontWeight="medium">{study.patientName || 'No name'}</Text>
                        <Text textStyle="xs" color="fg.muted">
                          {study.patientId || 'No Patient ID'}
                        </Text>
                      </Stack>
                    </Table.Cell>
                    <Table.Cell whiteSpace="nowrap">{formatDate(study.birthDate) || unknown}</Table.Cell>
                    <Table.Cell whiteSpace="nowrap">{formatDate(study.studyDate) || unknown}</Table.Cell>
                    <Table.Cell>{study.description || unknown}</Table.Cell>
                    <Table.Cell>{study.modalities.length > 0 ? study.modalities.join(', ') : unknown}</Table.Cell>
                    <Table.Cell textAlign="end">{study.seriesCount ?? unknown}</Table.Cell>
                    <Table.Cell textAlign="end">
                      <HStack justify="flex-end">
                        <Button size="xs" variant={selected ? 'solid' : 'outline'} colorPalette="teal" aria-pressed={selected} onClick={() => onChoose(study)}>
                          Show series
                        </Button>
                      </HStack>
                    </Table.Cell>
                  </Table.Row>
                );
              })
            : <SkeletonRows rows={3} columns={COLUMNS} testId="pacs-study-skeleton" />}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}
