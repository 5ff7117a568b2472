import { useState, type FormEvent } from 'react';
import { Field, Input } from '@chakra-ui/react';
import { CreateUserBodySchema, type UserChangeResult } from '../../../domain/users.ts';
import { ApiError } from '../../api/api-client.ts';
import { DialogForm } from '../../ui/dialog-form.tsx';
import { FailureAlert } from '../../ui/failure-alert.tsx';
import { ModalDialog } from '../../ui/modal-dialog.tsx';
import { OneTimeLinkStep } from './one-time-link.tsx';
import { PasswordChoice, type PasswordMode } from './password-choice.tsx';
import type { UsersApi } from './users-api.ts';

type FieldName = 'email' | 'name' | 'password';
type FieldErrors = Partial<Record<FieldName, string>>;

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export interface CreateUserDialogProps {
  users: UsersApi;
  onClose: () => void;
  /** The account exists: the list reloads and a toast says so. */
  onCreated: (result: UserChangeResult) => void;
}

/** Mounted while open, so every opening starts with an empty form. */
export function CreateUserDialog({ users, onClose, onCreated }: CreateUserDialogProps) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [mode, setMode] = useState<PasswordMode>('link');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [created, setCreated] = useState<UserChangeResult | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    // The same schema the server applies, so the messages match.
    const parsed = CreateUserBodySchema.safeParse({ email, name, ...(mode === 'password' ? { password } : {}) });
    if (!parsed.success) {
      const next: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'email' || field === 'name' || field === 'password') && !next[field]) next[field] = capitalise(issue.message);
      }
      setErrors(next);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const result = await users.create(parsed.data);
      onCreated(result);
      if (result.setPasswordLink) setCreated(result);
      else onClose();
    } catch (error) {
      const message = error instanceof ApiError ? error.message : 'The account could not be created.';
      if (error instanceof ApiError && error.status === 409) setErrors({ email: message });
      else setFailure(message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <ModalDialog busy={saving} onClose={onClose}>
      {created?.setPasswordLink ? (
        <OneTimeLinkStep title="Account created" link={created.setPasswordLink} email={created.user.email} onDone={onClose} />
      ) : (
        <DialogForm title="Create user" onSubmit={onSubmit} busy={saving} onCancel={onClose} submitLabel="Create user" busyLabel="Creating…">
          <FailureAlert message={failure} />
          <Field.Root required invalid={Boolean(errors.email)}>
            <Field.Label>
              Email <Field.RequiredIndicator />
            </Field.Label>
            <Input type="email" autoComplete="off" value={email} onChange={(event) => setEmail(event.currentTarget.value)} />
            <Field.ErrorText>{errors.email}</Field.ErrorText>
          </Field.Root>
          <Field.Root required invalid={Boolean(errors.name)}>
            <Field.Label>
              Name <Field.RequiredIndicator />
            </Field.Label>
            <Input autoComplete="off" value={name} onChange={(event) => setName(event.currentTarget.value)} />
            <Field.ErrorText>{errors.name}</Field.ErrorText>
          </Field.Root>
          <PasswordChoice mode={mode} onModeChange={setMode} password={password} onPasswordChange={setPassword} error={errors.password} />
        </DialogForm>
      )}
    </ModalDialog>
  );
}
