import { Badge, Box, Button, HStack, Table, Text } from '@chakra-ui/react';
import type { UserSummary } from '../../../domain/users.ts';
import { SkeletonRows } from '../../ui/skeleton-rows.tsx';
import { TableHead } from '../../ui/table-head.tsx';
import { formatDateTime } from './user-format.ts';

export type UserAction = 'grant-admin' | 'revoke-admin' | 'disable' | 'enable' | 'reset-password' | 'clear-lock';

const COLUMNS = ['Email', 'Name', 'Groups', 'Status', 'Last sign-in', 'Actions'] as const;

export interface UsersTableProps {
  users: readonly UserSummary[] | null;
  /** The signed-in administrator's email: their own row cannot be disabled. */
  currentEmail: string | null;
  busy: boolean;
  skeletonRows: number;
  onAction: (user: UserSummary, action: UserAction) => void;
}

/** A locked account: until when, and what is locked (the text is the badge's accessible description too). */
function LockBadge({ lock }: { lock: NonNullable<UserSummary['signInLock']> }) {
  const what = [
    lock.accountWide ? 'new browsers' : null,
    lock.clients > 0 ? `${lock.clients} ${lock.clients === 1 ? 'address or browser' : 'addresses or browsers'}` : null,
  ]
    .filter(Boolean)
    .join(' and ');
  const description = `Sign-in locked for ${what} until ${formatDateTime(lock.until)} after failed sign-ins`;
  return (
    <Badge colorPalette="orange" variant="subtle" title={description} aria-label={description} data-testid="user-lock">
      Locked
    </Badge>
  );
}

/** Buttons rather than a menu: every action is one visible click away and reachable with Tab. */
function RowActions({ user, isSelf, onAction }: { user: UserSummary; isSelf: boolean; onAction: UsersTableProps['onAction'] }) {
  return (
    <HStack gap="2" justify="flex-end" wrap="wrap">
      <Button size="xs" variant="outline" onClick={() => onAction(user, user.isAdmin ? 'revoke-admin' : 'grant-admin')}>
        {user.isAdmin ? 'Remove admin' : 'Make admin'}
      </Button>
      {user.disabled ? (
        <Button size="xs" variant="outline" onClick={() => onAction(user, 'enable')}>
          Enable
        </Button>
      ) : (
        // The server refuses it too; here the button says so before anyone tries.
        <Button
          size="xs"
          variant="outline"
          colorPalette="red"
          disabled={isSelf}
          title={isSelf ? 'You cannot disable your own account' : undefined}
          onClick={() => onAction(user, 'disable')}
        >
          Disable
        </Button>
      )}
      <Button size="xs" variant="outline" onClick={() => onAction(user, 'reset-password')}>
        Reset password
      </Button>
      {user.signInLock ? (
        <Button size="xs" variant="outline" colorPalette="orange" onClick={() => onAction(user, 'clear-lock')}>
          Clear lock
        </Button>
      ) : null}
    </HStack>
  );
}

export function UsersTable({ users, currentEmail, busy, skeletonRows, onAction }: UsersTableProps) {
  return (
    <Box overflowX="auto" borderWidth="1px" rounded="l2">
      <Table.Root data-testid="users-table" aria-busy={busy} size="md" stickyHeader>
        <TableHead caption="Users of this organisation, with their groups, status and last sign-in." columns={COLUMNS} endAligned={['Actions']} />
        <Table.Body opacity={busy && users ? 0.6 : 1} transition="opacity">
          {users
            ? users.map((user) => {
                const isSelf = currentEmail !== null && user.email === currentEmail.toLowerCase();
                return (
                  <Table.Row key={user.id} data-testid="user-row">
                    <Table.Cell fontWeight="medium">
                      {user.email}
                      {isSelf ? (
                        <Text as="span" color="fg.muted" fontWeight="normal">
                          {' '}
                          (you)
                        </Text>
                      ) : null}
                    </Table.Cell>
                    <Table.Cell>{user.name}</Table.Cell>
                    <Table.Cell>
                      <HStack gap="1" wrap="wrap">
                        {user.groups.length > 0
                          ? user.groups.map((group) => (
                              <Badge key={group} colorPalette="teal" variant="subtle">
                                {group}
                              </Badge>
                            ))
                          : <Text as="span" color="fg.muted">—</Text>}
                      </HStack>
                    </Table.Cell>
                    <Table.Cell>
                      <HStack gap="1" wrap="wrap">
                        <Badge colorPalette={user.disabled ? 'red' : 'green'} variant="subtle">
                          {user.disabled ? 'Disabled' : 'Enabled'}
                        </Badge>
                        {user.signInLock ? <LockBadge lock={user.signInLock} /> : null}
                      </HStack>
                    </Table.Cell>
                    <Table.Cell>{user.lastSignInAt ? formatDateTime(user.lastSignInAt) : 'Never'}</Table.Cell>
                    <Table.Cell textAlign="end">
                      <RowActions user={user} isSelf={isSelf} onAction={onAction} />
                    </Table.Cell>
                  </Table.Row>
                );
              })
            : <SkeletonRows rows={skeletonRows} columns={COLUMNS} testId="user-skeleton-row" />}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}
