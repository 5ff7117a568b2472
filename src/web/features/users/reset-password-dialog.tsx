import { useState, type FormEvent } from 'react';
import { Text } from '@chakra-ui/react';
import { PasswordSchema, type SetPasswordLink, type UserChangeResult, type UserSummary } from '../../../domain/users.ts';
import { ApiError } from '../../api/api-client.ts';
import { DialogForm } from '../../ui/dialog-form.tsx';
import { FailureAlert } from '../../ui/failure-alert.tsx';
import { ModalDialog } from '../../ui/modal-dialog.tsx';
import { OneTimeLinkStep } from './one-time-link.tsx';
import { PasswordChoice, type PasswordMode } from './password-choice.tsx';
import type { UsersApi } from './users-api.ts';

export interface ResetPasswordDialogProps {
  users: UsersApi;
  user: UserSummary;
  onClose: () => void;
  onReset: (result: UserChangeResult) => void;
}

/** Sets a new password, or makes a new one-time link (which retires any earlier link). Mounted while open. */
export function ResetPasswordDialog({ users, user, onClose, onReset }: ResetPasswordDialogProps) {
  const [mode, setMode] = useState<PasswordMode>('link');
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [link, setLink] = useState<SetPasswordLink | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    let body = {};
    if (mode === 'password') {
      const parsed = PasswordSchema.safeParse(password);
      if (!parsed.success) {
        const message = parsed.error.issues[0]?.message ?? 'password is not valid';
        setPasswordError(message.charAt(0).toUpperCase() + message.slice(1));
        return;
      }
      body = { password: parsed.data };
    }
    setPasswordError(null);
    setSaving(true);
    try {
      const result = await users.resetPassword(user.id, body);
      onReset(result);
      if (result.setPasswordLink) setLink(result.setPasswordLink);
      else onClose();
    } catch (error) {
      setFailure(error instanceof ApiError ? error.message : 'The password could not be reset.');
    } finally {
      setSaving(false);
    }
  };

  return (
    <ModalDialog busy={saving} onClose={onClose}>
      {link ? (
        <OneTimeLinkStep title="New set-password link" link={link} email={user.email} onDone={onClose} />
      ) : (
        <DialogForm
          title="Reset password"
          onSubmit={onSubmit}
          busy={saving}
          onCancel={onClose}
          submitLabel={mode === 'link' ? 'Create link' : 'Set password'}
          busyLabel="Resetting…"
        >
          <Text>
            For <strong>{user.email}</strong>. Links handed out before stop working.
          </Text>
          <FailureAlert message={failure} />
          <PasswordChoice mode={mode} onModeChange={setMode} password={password} onPasswordChange={setPassword} error={passwordError} />
        </DialogForm>
      )}
    </ModalDialog>
  );
}
