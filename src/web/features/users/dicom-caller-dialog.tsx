import { useState, type FormEvent } from 'react';
import { DicomCallerInputSchema, MAX_AE_TITLE, MAX_CALLER_DESCRIPTION, type DicomCaller, type DicomCallerInput } from '../../../domain/dicom-callers.ts';
import { ApiError } from '../../api/api-client.ts';
import { DialogForm } from '../../ui/dialog-form.tsx';
import { FailureAlert } from '../../ui/failure-alert.tsx';
import { ModalDialog } from '../../ui/modal-dialog.tsx';
import type { DicomCallersApi } from './dicom-callers-api.ts';
import { TextField } from '../../ui/text-field.tsx';

export interface DicomCallerDialogProps {
  callers: DicomCallersApi;
  /** The sender to change, or null to register one. */
  caller: DicomCaller | null;
  onClose: () => void;
  onSaved: (caller: DicomCaller, added: boolean) => void;
}

type FieldName = 'aeTitle' | 'description' | 'networks';
type Draft = Record<FieldName, string>;
type FieldErrors = Partial<Record<FieldName, string>>;

const FIELDS: readonly FieldName[] = ['aeTitle', 'description', 'networks'];
const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`.replace(/\.\.$/, '.');

/** The addresses field holds them separated by commas, spaces or new lines. */
const networksOf = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

/** The form as the API body, or the errors the shared schema finds (the server checks the same way, and parses the networks). */
function validate(draft: Draft): { input: DicomCallerInput | null; errors: FieldErrors } {
  const input = { aeTitle: draft.aeTitle, description: draft.description, networks: networksOf(draft.networks) };
  const result = DicomCallerInputSchema.safeParse(input);
  if (result.success) return { input, errors: {} };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = FIELDS.find((name) => name === issue.path[0]);
    if (field) errors[field] ??= sentence(issue.message);
  }
  return { input: null, errors };
}

/** A 400's "field: reason; ..." parts at the fields they name; the rest for the dialog. */
function serverErrors(message: string): { errors: FieldErrors; rest: string | null } {
  const errors: FieldErrors = {};
  const rest: string[] = [];
  for (const part of message.split('; ')) {
    const match = /^([A-Za-z]+)(?:\.\d+)?: (.+)$/.exec(part);
    const field = FIELDS.find((name) => name === match?.[1]);
    if (field && match) errors[field] ??= sentence(match[2]!);
    else rest.push(part);
  }
  return { errors, rest: rest.length > 0 ? rest.join('; ') : null };
}

/**
 * Registers or changes a sender: the calling AE title a console or PACS is configured with, and
 * optionally the addresses it may call from. Mounted while open, so each opening starts from the saved values.
 */
export function DicomCallerDialog({ callers, caller, onClose, onSaved }: DicomCallerDialogProps) {
  const [draft, setDraft] = useState<Draft>(() => ({ aeTitle: caller?.aeTitle ?? '', description: caller?.description ?? '', networks: caller?.networks.join(', ') ?? '' }));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const set = (name: FieldName) => (value: string) => {
    setDraft((current) => ({ ...current, [name]: value }));
    setErrors(({ [name]: _, ...others }) => others);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const { input, errors: found } = validate(draft);
    setErrors(found);
    if (!input) return;
    setSaving(true);
    try {
      const saved = caller ? await callers.update(caller.id, input) : await callers.create(input);
      onSaved(saved, caller === null);
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setErrors({ aeTitle: error.message });
      else if (error instanceof ApiError && error.status === 400) {
        const { errors: named, rest } = serverErrors(error.message);
        setErrors(named);
        setFailure(rest);
      } else setFailure(error instanceof ApiError ? error.message : 'The sender could not be saved.');
    } finally {
      setSaving(false);
    }
  };

  return (
    <ModalDialog size="lg" busy={saving} onClose={onClose}>
      <DialogForm
        title={caller ? `Edit ${caller.aeTitle}` : 'Register DICOM sender'}
        onSubmit={onSubmit}
        busy={saving}
        onCancel={onClose}
        submitLabel={caller ? 'Save changes' : 'Register sender'}
        busyLabel="Saving…"
      >
        <FailureAlert message={failure} />
        <TextField
          label="Calling AE title"
          required
          mono
          maxLength={MAX_AE_TITLE}
          value={draft.aeTitle}
          onChange={set('aeTitle')}
          error={errors.aeTitle}
          hint={`The AE title the console or PACS sends as its own (up to ${MAX_AE_TITLE} characters; letters, digits, spaces and punctuation but no backslash). Case matters.`}
        />
        <TextField
          label="Description"
          maxLength={MAX_CALLER_DESCRIPTION}
          value={draft.description}
          onChange={set('description')}
          error={errors.description}
          hint="e.g. Cath lab 1 IVUS console."
        />
        <TextField
          label="Allowed addresses"
          mono
          value={draft.networks}
          onChange={set('networks')}
          error={errors.networks}
          hint="Empty: any address. Otherwise the addresses or networks it may call from, separated by commas, e.g. 10.1.2.3, 10.1.2.0/24."
        />
      </DialogForm>
    </ModalDialog>
  );
}
