import { Badge, Box, Button, HStack, Stack, Table, Text } from '@chakra-ui/react';
import type { PacsConnection } from '../../../domain/pacs.ts';
import { SkeletonRows } from '../../ui/skeleton-rows.tsx';
import { TableHead } from '../../ui/table-head.tsx';
import { AUTH_KIND_LABELS } from './pacs-connection-form.ts';
import { PacsTestOutcome, type PacsTestState } from './pacs-test-outcome.tsx';

export type PacsConnectionAction = 'test' | 'edit' | 'remove';

const COLUMNS = ['Name', 'Addresses', 'Authentication', 'Test', 'Actions'] as const;
const IDLE: PacsTestState = { status: 'idle' };

export interface PacsConnectionsTableProps {
  connections: readonly PacsConnection[] | null;
  busy: boolean;
  /** The last test of each connection, by id. */
  tests: Readonly<Record<string, PacsTestState>>;
  onAction: (connection: PacsConnection, action: PacsConnectionAction) => void;
}

/** The WADO-RS and STOW-RS addresses are named only where they are not the QIDO-RS one. */
function Addresses({ connection }: { connection: PacsConnection }) {
  const { qidoUrl, wadoUrl, stowUrl } = connection;
  return (
    <Stack gap="0" fontFamily="mono" textStyle="xs" wordBreak="break-all">
      <Text>{qidoUrl}</Text>
      {wadoUrl !== qidoUrl ? <Text color="fg.muted">WADO-RS: {wadoUrl}</Text> : null}
      {stowUrl !== qidoUrl ? <Text color="fg.muted">STOW-RS: {stowUrl}</Text> : null}
    </Stack>
  );
}

export function PacsConnectionsTable({ connections, busy, tests, onAction }: PacsConnectionsTableProps) {
  return (
    <Box overflowX="auto" borderWidth="1px" rounded="l2">
      <Table.Root data-testid="pacs-table" aria-busy={busy} size="md">
        <TableHead caption="DICOMweb connections of this organisation, with their addresses and authentication." columns={COLUMNS} endAligned={['Actions']} />
        <Table.Body opacity={busy && connections ? 0.6 : 1} transition="opacity">
          {connections
            ? connections.map((connection) => {
                const test = tests[connection.id] ?? IDLE;
                return (
                  <Table.Row key={connection.id} data-testid="pacs-row">
                    <Table.Cell fontWeight="medium">{connection.name}</Table.Cell>
                    <Table.Cell>
                      <Addresses connection={connection} />
                    </Table.Cell>
                    <Table.Cell>
                      <Stack gap="1" align="flex-start">
                        <Text>{AUTH_KIND_LABELS[connection.authKind]}</Text>
                        {connection.hasCredentials ? (
                          <Badge colorPalette="teal" variant="subtle">
                            credentials stored
                          </Badge>
                        ) : null}
                      </Stack>
                    </Table.Cell>
                    <Table.Cell maxWidth="16rem">
                      {test.status === 'idle' ? (
                        <Text as="span" color="fg.muted" textStyle="sm">
                          Not tested
                        </Text>
                      ) : (
                        <PacsTestOutcome state={test} testId="pacs-row-test" />
                      )}
                    </Table.Cell>
                    <Table.Cell textAlign="end">
                      <HStack gap="2" justify="flex-end" wrap="wrap">
                        <Button size="xs" variant="outline" loading={test.status === 'testing'} onClick={() => onAction(connection, 'test')}>
                          Test connection
                        </Button>
                        <Button size="xs" variant="outline" onClick={() => onAction(connection, 'edit')}>
                          Edit
                        </Button>
                        <Button size="xs" variant="outline" colorPalette="red" onClick={() => onAction(connection, 'remove')}>
                          Remove
                        </Button>
                      </HStack>
                    </Table.Cell>
                  </Table.Row>
                );
              })
            : <SkeletonRows rows={2} columns={COLUMNS} testId="pacs-skeleton-row" />}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}
