import { useState, type FormEvent } from 'react';
import { Alert, Button, Dialog, Portal, Stack, Text } from '@chakra-ui/react';
import { PasswordSchema, type SetPasswordLink, type UserChangeResult, type UserSummary } from '../../../domain/users.ts';
import { ApiError } from '../../api/api-client.ts';
import { OneTimeLink } from './one-time-link.tsx';
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
    <Dialog.Root open onOpenChange={(details) => !details.open && !saving && onClose()} size="md" placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            {link ? (
              <>
                <Dialog.Header>
                  <Dialog.Title>New set-password link</Dialog.Title>
                </Dialog.Header>
                <Dialog.Body>
                  <OneTimeLink link={link} email={user.email} />
                </Dialog.Body>
                <Dialog.Footer>
                  <Button onClick={onClose}>Done</Button>
                </Dialog.Footer>
              </>
            ) : (
              <form onSubmit={onSubmit} noValidate aria-label="Reset password">
                <Dialog.Header>
                  <Dialog.Title>Reset password</Dialog.Title>
                </Dialog.Header>
                <Dialog.Body>
                  <Stack gap="4">
                    <Text>
                      For <strong>{user.email}</strong>. Links handed out before stop working.
                    </Text>
                    {failure ? (
                      <Alert.Root status="error">
                        <Alert.Indicator />
                        <Alert.Title>{failure}</Alert.Title>
                      </Alert.Root>
                    ) : null}
                    <PasswordChoice mode={mode} onModeChange={setMode} password={password} onPasswordChange={setPassword} error={passwordError} />
                  </Stack>
                </Dialog.Body>
                <Dialog.Footer>
                  <Button variant="outline" onClick={onClose} disabled={saving}>
                    Cancel
                  </Button>
                  <Button type="submit" loading={saving} loadingText="Resetting…">
                    {mode === 'link' ? 'Create link' : 'Set password'}
                  </Button>
                </Dialog.Footer>
              </form>
            )}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
