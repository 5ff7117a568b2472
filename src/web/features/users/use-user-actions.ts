import { useCallback, useState } from 'react';
import type { UpdateUserBody, UserSummary } from '../../../domain/users.ts';
import { ApiError } from '../../api/api-client.ts';
import { useConfirm } from '../../ui/confirm.tsx';
import { useToast } from '../../ui/toast.tsx';
import type { UserAction } from './users-table.tsx';
import type { UsersApi } from './users-api.ts';

/** Success toasts close by themselves; failures stay until read. */
export const SUCCESS_TOAST_LIFE_MS = 5000;

interface Change {
  body: UpdateUserBody;
  done: (user: UserSummary) => string;
  /** Asked first for changes that take something away. */
  confirm?: (user: UserSummary) => { title: string; message: string; acceptLabel: string };
}

const CHANGES: Record<Exclude<UserAction, 'reset-password' | 'clear-lock'>, Change> = {
  'grant-admin': { body: { admin: true }, done: (user) => `${user.email} is now an administrator.` },
  'revoke-admin': {
    body: { admin: false },
    done: (user) => `${user.email} is no longer an administrator.`,
    confirm: (user) => ({
      title: 'Remove administrator rights?',
      message: `${user.email} will no longer be able to manage users or read the audit trail.`,
      acceptLabel: 'Remove rights',
    }),
  },
  disable: {
    body: { disabled: true },
    done: (user) => `${user.email} is disabled.`,
    confirm: (user) => ({
      title: 'Disable this account?',
      message: `${user.email} will not be able to sign in, and the sessions they have open stop working.`,
      acceptLabel: 'Disable account',
    }),
  },
  enable: { body: { disabled: false }, done: (user) => `${user.email} can sign in again.` },
};

/**
 * The per-row actions of the users table: a confirmation before taking rights or access away,
 * a toast after every change (or failure), then `onChanged` to reload the list.
 */
export function useUserActions(users: UsersApi, onChanged: () => void) {
  const confirm = useConfirm();
  const toast = useToast();
  const [resetting, setResetting] = useState<UserSummary | null>(null);

  const run = useCallback(
    async (user: UserSummary, action: UserAction) => {
      if (action === 'reset-password') {
        setResetting(user);
        return;
      }
      if (action === 'clear-lock') {
        try {
          const cleared = await users.clearSignInLock(user.id);
          toast.show({ summary: 'Lock cleared', detail: `${cleared.email} can sign in again from anywhere.`, severity: 'success', life: SUCCESS_TOAST_LIFE_MS });
          onChanged();
        } catch (error) {
          const detail = error instanceof ApiError ? error.message : 'The lock could not be cleared.';
          toast.show({ summary: 'Not cleared', detail, severity: 'error' });
        }
        return;
      }
      const change = CHANGES[action];
      if (change.confirm) {
        const question = change.confirm(user);
        const accepted = await confirm({ ...question, acceptPalette: 'red' });
        if (!accepted) return;
      }
      try {
        const updated = await users.update(user.id, change.body);
        toast.show({ summary: 'Saved', detail: change.done(updated), severity: 'success', life: SUCCESS_TOAST_LIFE_MS });
        onChanged();
      } catch (error) {
        const detail = error instanceof ApiError ? error.message : 'The change could not be saved.';
        toast.show({ summary: 'Not changed', detail, severity: 'error' });
      }
    },
    [confirm, toast, users, onChanged],
  );

  return { run, resetting, closeReset: () => setResetting(null) };
}
