import { useId, useState, type FormEvent } from 'react';
import { Box, Button, HStack, RadioGroup, Stack, Text } from '@chakra-ui/react';
import { PACS_AUTH_KINDS, type PacsAuthKind, type PacsConnection, type PacsConnectionInput } from '../../../domain/pacs.ts';
import { ApiError } from '../../api/api-client.ts';
import { DialogForm } from '../../ui/dialog-form.tsx';
import { FailureAlert } from '../../ui/failure-alert.tsx';
import { ModalDialog } from '../../ui/modal-dialog.tsx';
import type { PacsAdminApi } from './pacs-api.ts';
import {
  AUTH_KIND_LABELS,
  draftOf,
  keepsStoredSecret,
  secretEmpty,
  serverFieldErrors,
  validateDraft,
  type PacsConnectionDraft,
  type PacsFieldErrors,
  type PacsFieldName,
} from './pacs-connection-form.ts';
import { PacsTestOutcome, testFailure, type PacsTestState } from './pacs-test-outcome.tsx';
import { TextField } from '../../ui/text-field.tsx';

export interface PacsConnectionDialogProps {
  pacs: PacsAdminApi;
  /** The connection to change, or null to add one. */
  connection: PacsConnection | null;
  onClose: () => void;
  /** Saved: the list reloads and a toast says so. */
  onSaved: (connection: PacsConnection, added: boolean) => void;
}

const KEEP_HINT = 'Leave empty to keep the stored one.';
const sameAddress = (url: string) => url.trim().replace(/\/+$/, '');

/** Whether the form's addresses are those of the saved connection (as the server stores them: no trailing slash, empty = QIDO-RS). */
function addressesSaved(connection: PacsConnection, draft: PacsConnectionDraft): boolean {
  const qido = sameAddress(draft.qidoUrl);
  const wado = draft.separate && draft.wadoUrl.trim() ? sameAddress(draft.wadoUrl) : qido;
  const stow = draft.separate && draft.stowUrl.trim() ? sameAddress(draft.stowUrl) : qido;
  return qido === connection.qidoUrl && wado === connection.wadoUrl && stow === connection.stowUrl;
}

/**
 * Adds or changes a DICOMweb connection. Credentials are never shown: a change leaves the password
 * or token empty to keep the stored one (the API's omit-to-keep rule). Mounted while open, so every
 * opening starts from the connection as saved.
 */
export function PacsConnectionDialog({ pacs, connection, onClose, onSaved }: PacsConnectionDialogProps) {
  const [draft, setDraft] = useState<PacsConnectionDraft>(() => draftOf(connection));
  const [errors, setErrors] = useState<PacsFieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [test, setTest] = useState<PacsTestState>({ status: 'idle' });
  /** Set when the test was of the saved connection (an empty secret field cannot be tested otherwise). */
  const [testedSaved, setTestedSaved] = useState<{ addressesChanged: boolean } | null>(null);
  const separateId = useId();
  const title = connection ? `Edit ${connection.name}` : 'Add PACS connection';
  const keeps = keepsStoredSecret(connection, draft);

  const set = (name: keyof PacsConnectionDraft) => (value: string) => {
    setDraft((current) => ({ ...current, [name]: value }));
    // A corrected field stops showing its old error at once, and an earlier test no longer describes the form.
    setErrors(({ [name as PacsFieldName]: _, ...others }) => others);
    setTest({ status: 'idle' });
  };

  /** The form checked as the server checks it; the first field at fault shows why. */
  const checked = (): PacsConnectionInput | null => {
    setFailure(null);
    const { input, errors: found } = validateDraft(draft, connection);
    setErrors(found);
    return input;
  };

  /** A 400 or 409 shown at the fields it names; anything else in the dialog. */
  const showRefusal = (error: unknown, fallback: string) => {
    if (error instanceof ApiError && error.status === 409 && error.code === 'duplicate_name') {
      setErrors({ name: error.message });
      return;
    }
    if (error instanceof ApiError && error.status === 400) {
      const { errors: found, rest } = serverFieldErrors(error.message, draft.authKind);
      setErrors(found);
      setFailure(rest);
      return;
    }
    setFailure(error instanceof ApiError ? error.message : fallback);
  };

  const onTest = async () => {
    // An empty secret field of a saved connection can only be tested as saved: the page never has the secret.
    const saved = connection !== null && keeps && secretEmpty(draft) ? connection : null;
    const input = saved ? null : checked();
    const run = saved ? () => pacs.testSaved(saved.id) : input ? () => pacs.test(input) : null;
    if (!run) return;
    if (saved) {
      setFailure(null);
      setErrors({});
    }
    setTest({ status: 'testing' });
    setTestedSaved(saved ? { addressesChanged: !addressesSaved(saved, draft) } : null);
    try {
      const result = await run();
      setTest({ status: 'ok', result });
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        setTest({ status: 'idle' });
        showRefusal(error, 'The connection could not be tested.');
      } else {
        setTest(testFailure(error));
      }
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const input = checked();
    if (!input) return;
    setSaving(true);
    try {
      const result = connection ? await pacs.update(connection.id, input) : await pacs.create(input);
      onSaved(result, connection === null);
      onClose();
    } catch (error) {
      showRefusal(error, 'The connection could not be saved.');
    } finally {
      setSaving(false);
    }
  };

  const secretHint = keeps ? KEEP_HINT : undefined;
  return (
    <ModalDialog size="lg" busy={saving} onClose={onClose}>
      <DialogForm
        title={title}
        onSubmit={onSubmit}
        busy={saving}
        onCancel={onClose}
        submitLabel={connection ? 'Save changes' : 'Add connection'}
        busyLabel="Saving…"
        extraAction={
          <Button variant="outline" onClick={() => void onTest()} loading={test.status === 'testing'} loadingText="Testing…" disabled={saving}>
            Test connection
          </Button>
        }
      >
        <FailureAlert message={failure} />
        <TextField label="Name" required value={draft.name} onChange={set('name')} error={errors.name} hint="As users see it, e.g. Hospital PACS." />
        <TextField
          label="QIDO-RS base URL"
          required
          type="url"
          value={draft.qidoUrl}
          onChange={set('qidoUrl')}
          error={errors.qidoUrl}
          hint="e.g. https://pacs.example.org/dicom-web; also used for WADO-RS and STOW-RS unless given below."
        />
        <Box>
          <Button
            size="sm"
            variant="ghost"
            aria-expanded={draft.separate}
            aria-controls={separateId}
            onClick={() => setDraft((current) => ({ ...current, separate: !current.separate }))}
          >
            {draft.separate ? '▾' : '▸'} Separate WADO-RS / STOW-RS addresses
          </Button>
          {draft.separate ? (
            <Stack id={separateId} gap="4" mt="2" ps="4" borderStartWidth="2px">
              <TextField label="WADO-RS base URL" type="url" value={draft.wadoUrl} onChange={set('wadoUrl')} error={errors.wadoUrl} hint="Empty: the QIDO-RS address." />
              <TextField label="STOW-RS base URL" type="url" value={draft.stowUrl} onChange={set('stowUrl')} error={errors.stowUrl} hint="Empty: the QIDO-RS address." />
            </Stack>
          ) : null}
        </Box>
        <Stack gap="2">
          <Text fontWeight="medium" textStyle="sm" id={`${separateId}-auth`}>
            Authentication
          </Text>
          <RadioGroup.Root
            value={draft.authKind}
            onValueChange={(details) => set('authKind')(PACS_AUTH_KINDS.find((kind) => kind === details.value) ?? 'none')}
            aria-labelledby={`${separateId}-auth`}
            colorPalette="teal"
          >
            <HStack gap="4" wrap="wrap">
              {PACS_AUTH_KINDS.map((kind: PacsAuthKind) => (
                <RadioGroup.Item key={kind} value={kind}>
                  <RadioGroup.ItemHiddenInput />
                  <RadioGroup.ItemIndicator />
                  <RadioGroup.ItemText>{AUTH_KIND_LABELS[kind]}</RadioGroup.ItemText>
                </RadioGroup.Item>
              ))}
            </HStack>
          </RadioGroup.Root>
        </Stack>
        {draft.authKind === 'basic' ? (
          <>
            <TextField
              label="User name"
              required
              value={draft.username}
              onChange={set('username')}
              error={errors.username}
              // The user name is stored encrypted with the password and, like it, never sent back.
              hint={connection?.authKind === 'basic' ? 'Stored with the password and not shown: enter it again.' : undefined}
            />
            <TextField label="Password" required={!keeps} type="password" value={draft.password} onChange={set('password')} error={errors.password} hint={secretHint} />
          </>
        ) : null}
        {draft.authKind === 'bearer' ? (
          <TextField label="Token" required={!keeps} type="password" value={draft.token} onChange={set('token')} error={errors.token} hint={secretHint} />
        ) : null}
        <Stack gap="1" data-testid="pacs-dialog-test">
          <PacsTestOutcome state={test} testId="pacs-test-result" />
          {test.status !== 'idle' && testedSaved ? (
            <Text textStyle="xs" color="fg.muted">
              Tested the saved connection with its stored credentials
              {testedSaved.addressesChanged ? ': the changed addresses are used once saved (or enter the secret again to test them now).' : '.'}
            </Text>
          ) : null}
        </Stack>
      </DialogForm>
    </ModalDialog>
  );
}
