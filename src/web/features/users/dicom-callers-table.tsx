import { Box, Button, HStack, Stack, Table, Text } from '@chakra-ui/react';
import type { DicomCaller } from '../../../domain/dicom-callers.ts';
import { SkeletonRows } from '../../ui/skeleton-rows.tsx';
import { TableHead } from '../../ui/table-head.tsx';

export type DicomCallerAction = 'edit' | 'remove';

const COLUMNS = ['Calling AE title', 'Description', 'Allowed addresses', 'Actions'] as const;

export interface DicomCallersTableProps {
  callers: readonly DicomCaller[] | null;
  busy: boolean;
  onAction: (caller: DicomCaller, action: DicomCallerAction) => void;
}

/** The registered senders, as the PACS connections table shows connections. */
export function DicomCallersTable({ callers, busy, onAction }: DicomCallersTableProps) {
  return (
    <Box overflowX="auto" borderWidth="1px" rounded="l2">
      <Table.Root data-testid="dicom-callers-table" aria-busy={busy} size="md">
        <TableHead caption="Devices allowed to push studies to this organisation by DICOM, with the addresses they may call from." columns={COLUMNS} endAligned={['Actions']} />
        <Table.Body opacity={busy && callers ? 0.6 : 1} transition="opacity">
          {callers
            ? callers.map((caller) => (
                <Table.Row key={caller.id} data-testid="dicom-caller-row">
                  <Table.Cell fontWeight="medium" fontFamily="mono" whiteSpace="pre">
                    {caller.aeTitle}
                  </Table.Cell>
                  <Table.Cell>{caller.description || <Text as="span" color="fg.muted">—</Text>}</Table.Cell>
                  <Table.Cell>
                    {caller.networks.length > 0 ? (
                      <Stack gap="0" fontFamily="mono" textStyle="xs">
                        {caller.networks.map((network) => (
                          <Text key={network}>{network}</Text>
                        ))}
                      </Stack>
                    ) : (
                      <Text as="span" color="fg.muted" textStyle="sm">
                        Any address
                      </Text>
                    )}
                  </Table.Cell>
                  <Table.Cell textAlign="end">
                    <HStack gap="2" justify="flex-end" wrap="wrap">
                      <Button size="xs" variant="outline" aria-label={`Edit ${caller.aeTitle}`} onClick={() => onAction(caller, 'edit')}>
                        Edit
                      </Button>
                      <Button size="xs" variant="outline" colorPalette="red" aria-label={`Remove ${caller.aeTitle}`} onClick={() => onAction(caller, 'remove')}>
                        Remove
                      </Button>
                    </HStack>
                  </Table.Cell>
                </Table.Row>
              ))
            : <SkeletonRows rows={2} columns={COLUMNS} testId="dicom-callers-skeleton-row" />}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}
