import { useState } from 'react';
import { Badge, Box, Button, Heading, HStack, Stack, Table, Text, chakra } from '@chakra-ui/react';
import type { PacsConnection, PacsSeries, PacsStudy } from '../../../domain/pacs.ts';
import { formatDate } from '../../../domain/reports/format-date.ts';
import { SkeletonRows } from '../../ui/skeleton-rows.tsx';
import { EmptyState, ErrorState } from '../../ui/states.tsx';
import { TableHead } from '../../ui/table-head.tsx';
import type { PacsBrowseApi } from './pacs-api.ts';
import { PacsThumbnail } from './pacs-thumbnail.tsx';
import { COUNT_FORMAT } from './upload-format.ts';
import { seriesLabel } from './use-pull.ts';
import { plural } from './use-upload.ts';
import { useRemote } from '../../api/use-remote.ts';

const COLUMNS = ['Import', 'Preview', 'Modality', 'Description', 'Series', 'Frames', 'Instances', 'Status'] as const;
const NUMERIC = ['Series', 'Frames', 'Instances'];
const THUMBNAIL_SKELETON = { height: '16', width: '16' };
/** What the app imports: IVUS pullbacks (IVUS, or US multi-frame) and angiography runs; these start checked. */
const IMPORTABLE = new Set(['IVUS', 'US', 'XA']);

export const checkedByDefault = (series: PacsSeries) => !series.imported && IMPORTABLE.has(series.modality);

const Checkbox = chakra('input');

export interface PacsSeriesListProps {
  pacs: PacsBrowseApi;
  connection: PacsConnection;
  study: PacsStudy;
  /** A pull is under way (this page pulls one at a time). */
  pulling: boolean;
  /** Changes after every pull accepted, so the series just pulled show as imported. */
  refresh: number;
  onImport: (series: PacsSeries[]) => void;
}

/**
 * The series of the chosen study, each with a preview, its frames and whether it is already
 * imported (importing it again is refused, so it cannot be chosen). Keyed by study by its parent,
 * so choices start afresh for every study.
 */
export function PacsSeriesList({ pacs, connection, study, pulling, refresh, onImport }: PacsSeriesListProps) {
  const list = useRemote(
    JSON.stringify([connection.id, study.studyInstanceUid, refresh]),
    (signal) => pacs.series(connection.id, study.studyInstanceUid, signal),
    'The series could not be loaded.',
  );
  /** The user's own choices; a series not touched keeps its default. */
  const [choice, setChoice] = useState<Record<string, boolean>>({});
  const series = list.data?.series ?? null;
  const isChecked = (item: PacsSeries) => !item.imported && (choice[item.seriesInstanceUid] ?? checkedByDefault(item));
  const chosen = series?.filter(isChecked) ?? [];

  const title = [study.description || 'Study', study.studyDate ? formatDate(study.studyDate) : null].filter(Boolean).join(', ');
  let body;
  if (list.error) {
    body = <ErrorState title="The series could not be loaded" message={list.error.message} onRetry={list.reload} />;
  } else if (series && series.length === 0) {
    body = <EmptyState title="This study has no series" description="The PACS lists no series in it." />;
  } else {
    body = (
      <Box overflowX="auto" borderWidth="1px" rounded="l2">
        <Table.Root data-testid="pacs-series" aria-busy={list.loading} size="sm">
          <TableHead caption="Series of the study; check those to import." columns={COLUMNS} endAligned={NUMERIC} />
          <Table.Body>
            {series
              ? series.map((item) => {
                  const label = seriesLabel(item);
                  return (
                    <Table.Row key={item.seriesInstanceUid} data-testid="pacs-series-row">
                      <Table.Cell>
                        <Checkbox
                          type="checkbox"
                          boxSize="4"
                          cursor={item.imported ? 'not-allowed' : 'pointer'}
                          accentColor="teal.solid"
                          aria-label={`Import ${label}`}
                          checked={isChecked(item)}
                          disabled={item.imported || pulling}
                          onChange={(event) => {
                            const { checked } = event.currentTarget;
                            setChoice((current) => ({ ...current, [item.seriesInstanceUid]: checked }));
                          }}
                        />
                      </Table.Cell>
                      <Table.Cell>
                        <PacsThumbnail
                          pacs={pacs}
                          connectionId={connection.id}
                          studyInstanceUid={study.studyInstanceUid}
                          seriesInstanceUid={item.seriesInstanceUid}
                          label={label}
                        />
                      </Table.Cell>
                      <Table.Cell>{item.modality}</Table.Cell>
                      <Table.Cell>{item.description || <Text as="span" color="fg.muted">—</Text>}</Table.Cell>
                      <Table.Cell textAlign="end">{item.seriesNumber ?? '—'}</Table.Cell>
                      <Table.Cell textAlign="end">{COUNT_FORMAT.format(item.frameCount)}</Table.Cell>
                      <Table.Cell textAlign="end">{COUNT_FORMAT.format(item.instanceCount)}</Table.Cell>
                      <Table.Cell>
                        {item.imported ? (
                          <Badge colorPalette="green" variant="subtle">
                            Already imported
                          </Badge>
                        ) : null}
                      </Table.Cell>
                    </Table.Row>
                  );
                })
              : <SkeletonRows rows={2} columns={COLUMNS} testId="pacs-series-skeleton" skeleton={(label) => (label === 'Preview' ? THUMBNAIL_SKELETON : undefined)} />}
          </Table.Body>
        </Table.Root>
      </Box>
    );
  }

  return (
    <Stack as="section" gap="3" aria-labelledby="pacs-series-heading" data-testid="pacs-series-section">
      <Heading as="h3" size="md" id="pacs-series-heading">
        Series of {title} · {study.patientName || study.patientId || 'unnamed patient'}
      </Heading>
      {body}
      {series && series.length > 0 ? (
        <HStack gap="3" wrap="wrap">
          <Button colorPalette="teal" onClick={() => onImport(chosen)} disabled={chosen.length === 0} loading={pulling} loadingText="Retrieving from the PACS…">
            Import selected series
          </Button>
          <Text textStyle="sm" color="fg.muted" aria-live="polite" data-testid="pacs-chosen-count">
            {chosen.length === 0 ? 'Check the series to import.' : `${plural(chosen.length, 'series', 'series')} chosen`}
          </Text>
        </HStack>
      ) : null}
    </Stack>
  );
}
