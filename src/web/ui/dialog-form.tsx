import type { FormEvent, ReactNode } from 'react';
import { Button, Dialog, HStack, Stack } from '@chakra-ui/react';

export interface DialogFormProps {
  /** The dialog's title, also the form's accessible name. */
  title: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** The submit is under way: Cancel waits and the submit button spins. */
  busy: boolean;
  onCancel: () => void;
  submitLabel: string;
  /** The submit button's label while busy, e.g. "Saving…". */
  busyLabel: string;
  /** Another action, at the start of the footer (e.g. Test connection). */
  extraAction?: ReactNode;
  /** The fields, stacked. */
  children: ReactNode;
}

/** The content of a dialog that is one form: title, fields, and Cancel with the submit button. Goes in a ModalDialog. */
export function DialogForm({ title, onSubmit, busy, onCancel, submitLabel, busyLabel, extraAction, children }: DialogFormProps) {
  const actions = (
    <>
      <Button variant="outline" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button type="submit" loading={busy} loadingText={busyLabel}>
        {submitLabel}
      </Button>
    </>
  );
  return (
    <form onSubmit={onSubmit} noValidate aria-label={title}>
      <Dialog.Header>
        <Dialog.Title>{title}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <Stack gap="4">{children}</Stack>
      </Dialog.Body>
      {extraAction ? (
        <Dialog.Footer justifyContent="space-between">
          {extraAction}
          <HStack gap="3">{actions}</HStack>
        </Dialog.Footer>
      ) : (
        <Dialog.Footer>{actions}</Dialog.Footer>
      )}
    </form>
  );
}
