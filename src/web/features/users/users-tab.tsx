import { useEffect, useRef, useState } from 'react';
import { Button, Flex, HStack, Input, InputGroup, Stack, Text } from '@chakra-ui/react';
import { DEFAULT_USER_PAGE_SIZE, type UserChangeResult } from '../../../domain/users.ts';
import { useToast } from '../../ui/toast.tsx';
import { EmptyState, ErrorState } from '../../ui/states.tsx';
import { SearchIcon } from '../../ui/icons.tsx';
import { CreateUserDialog } from './create-user-dialog.tsx';
import { ResetPasswordDialog } from './reset-password-dialog.tsx';
import { SUCCESS_TOAST_LIFE_MS, useUserActions } from './use-user-actions.ts';
import { useRemote } from '../../api/use-remote.ts';
import type { UsersApi } from './users-api.ts';
import { UsersTable } from './users-table.tsx';

/** Typing pauses this long before the list is searched. */
export const USER_SEARCH_DEBOUNCE_MS = 300;
const PAGE_SIZE = DEFAULT_USER_PAGE_SIZE;

export function UsersTab({ users, currentEmail }: { users: UsersApi; currentEmail: string | null }) {
  const toast = useToast();
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const [creating, setCreating] = useState(false);

  const key = JSON.stringify([search, offset]);
  const list = useRemote(key, (signal) => users.list({ search, offset, limit: PAGE_SIZE }, signal), 'The users could not be loaded.');
  const { run, resetting, closeReset } = useUserActions(users, list.reload);

  const debounceTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(debounceTimer.current), []);
  const onSearchInput = (value: string) => {
    setText(value);
    clearTimeout(debounceTimer.current);
    debounceTimer.current = setTimeout(() => {
      setSearch(value.trim());
      setOffset(0);
    }, USER_SEARCH_DEBOUNCE_MS);
  };

  const onCreated = (result: UserChangeResult) => {
    toast.show({
      summary: 'Account created',
      detail: result.setPasswordLink
        ? `${result.user.email} can set a password with the one-time link.`
        : `${result.user.email} can sign in now.`,
      severity: 'success',
      life: SUCCESS_TOAST_LIFE_MS,
    });
    list.reload();
  };
  const onReset = (result: UserChangeResult) => {
    toast.show({
      summary: 'Password reset',
      detail: result.setPasswordLink ? `A new one-time link for ${result.user.email} is ready.` : `The password of ${result.user.email} is changed.`,
      severity: 'success',
      life: SUCCESS_TOAST_LIFE_MS,
    });
  };

  const data = list.data;
  const total = data?.total ?? 0;
  const range = data && data.items.length > 0 ? `${data.offset + 1}–${data.offset + data.items.length} of ${total}` : '';

  let body;
  if (list.error) {
    body = <ErrorState title="The users could not be loaded" message={list.error.message} onRetry={list.reload} />;
  } else if (data && !list.loading && data.items.length === 0) {
    body = (
      <EmptyState
        title={search ? `No users match “${search}”` : 'No users yet'}
        description={search ? 'Search by email or name.' : 'Create the first account with Create user.'}
      />
    );
  } else {
    body = (
      <>
        <UsersTable users={data?.items ?? null} currentEmail={currentEmail} busy={list.loading} skeletonRows={5} onAction={run} />
        {data && total > PAGE_SIZE ? (
          <Flex as="nav" aria-label="Pagination" justify="flex-end" align="center" gap="3" mt="4">
            <Text textStyle="sm" aria-live="polite">
              {range}
            </Text>
            <Button size="sm" variant="outline" disabled={list.loading || offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
              Previous
            </Button>
            <Button size="sm" variant="outline" disabled={list.loading || offset + PAGE_SIZE >= total} onClick={() => setOffset(offset + PAGE_SIZE)}>
              Next
            </Button>
          </Flex>
        ) : null}
      </>
    );
  }

  return (
    <Stack gap="4">
      <HStack justify="space-between" wrap="wrap" gap="3">
        <InputGroup startElement={<SearchIcon color="fg.muted" />} width={{ base: 'full', md: '22rem' }}>
          <Input
            type="search"
            value={text}
            onChange={(event) => onSearchInput(event.currentTarget.value)}
            placeholder="Search by email or name"
            aria-label="Search users"
            maxLength={100}
          />
        </InputGroup>
        <HStack gap="3">
          <Text color="fg.muted" textStyle="sm" aria-live="polite" data-testid="users-total">
            {data ? `${total} ${total === 1 ? 'user' : 'users'}` : 'Loading users…'}
          </Text>
          <Button onClick={() => setCreating(true)}>Create user</Button>
        </HStack>
      </HStack>
      {body}
      {creating ? <CreateUserDialog users={users} onClose={() => setCreating(false)} onCreated={onCreated} /> : null}
      {resetting ? <ResetPasswordDialog users={users} user={resetting} onClose={closeReset} onReset={onReset} /> : null}
    </Stack>
  );
}
