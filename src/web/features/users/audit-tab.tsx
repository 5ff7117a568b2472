import { useState } from 'react';
import { Box, Button, Flex, Table, Text } from '@chakra-ui/react';
import { DEFAULT_AUDIT_PAGE_SIZE } from '../../../domain/users.ts';
import { SkeletonRows } from '../../ui/skeleton-rows.tsx';
import { EmptyState, ErrorState } from '../../ui/states.tsx';
import { TableHead } from '../../ui/table-head.tsx';
import { useRemote } from '../../api/use-remote.ts';
import { auditActionLabel, auditDetails, auditTarget, formatDateTime } from './user-format.ts';
import type { UsersApi } from './users-api.ts';

const COLUMNS = ['Time', 'Action', 'Actor', 'Target', 'Details'] as const;

/**
 * The tenant's audit trail, newest first. Pages follow the server's keyset cursor; the cursors
 * of the pages already seen are kept so Newer goes back exactly.
 */
export function AuditTab({ users, pageSize = DEFAULT_AUDIT_PAGE_SIZE }: { users: UsersApi; pageSize?: number }) {
  const [cursors, setCursors] = useState<(number | undefined)[]>([undefined]);
  const before = cursors.at(-1);
  const page = useRemote(
    JSON.stringify([before, pageSize]),
    (signal) => users.audit({ before, limit: pageSize }, signal),
    'The audit trail could not be loaded.',
  );
  const data = page.data;

  if (page.error) return <ErrorState title="The audit trail could not be loaded" message={page.error.message} onRetry={page.reload} />;
  if (data && !page.loading && data.items.length === 0 && cursors.length === 1) {
    return <EmptyState title="No entries yet" description="Sign-ins and changes to accounts appear here." />;
  }

  return (
    <>
      <Box overflowX="auto" borderWidth="1px" rounded="l2">
        <Table.Root data-testid="audit-table" aria-busy={page.loading} size="sm" stickyHeader>
          <TableHead caption="Audit trail, newest first." columns={COLUMNS} />
          <Table.Body opacity={page.loading && data ? 0.6 : 1} transition="opacity">
            {data
              ? data.items.map((entry) => (
                  <Table.Row key={entry.id} data-testid="audit-row">
                    <Table.Cell whiteSpace="nowrap">{formatDateTime(entry.at)}</Table.Cell>
                    <Table.Cell fontWeight="medium">{auditActionLabel(entry.action)}</Table.Cell>
                    <Table.Cell>{entry.actorEmail ?? <Text as="span" color="fg.muted">—</Text>}</Table.Cell>
                    <Table.Cell>{auditTarget(entry)}</Table.Cell>
                    <Table.Cell color="fg.muted">{auditDetails(entry)}</Table.Cell>
                  </Table.Row>
                ))
              : <SkeletonRows rows={5} columns={COLUMNS} />}
          </Table.Body>
        </Table.Root>
      </Box>
      <Flex as="nav" aria-label="Audit trail pages" justify="flex-end" align="center" gap="3" mt="4">
        <Text textStyle="sm" aria-live="polite" data-testid="audit-page">
          Page {cursors.length}
        </Text>
        <Button size="sm" variant="outline" disabled={page.loading || cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          Newer
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={page.loading || !data || data.nextBefore === null}
          onClick={() => data?.nextBefore != null && setCursors([...cursors, data.nextBefore])}
        >
          Older
        </Button>
      </Flex>
    </>
  );
}
