import { useState } from 'react';
import { Button, Code, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import type { DicomCaller, DicomCallerList } from '../../../domain/dicom-callers.ts';
import { ApiError } from '../../api/api-client.ts';
import { useRemote } from '../../api/use-remote.ts';
import { useConfirm } from '../../ui/confirm.tsx';
import { EmptyState, ErrorState } from '../../ui/states.tsx';
import { useToast } from '../../ui/toast.tsx';
import { DicomCallerDialog } from './dicom-caller-dialog.tsx';
import type { DicomCallersApi } from './dicom-callers-api.ts';
import { DicomCallersTable, type DicomCallerAction } from './dicom-callers-table.tsx';
import { SUCCESS_TOAST_LIFE_MS } from './use-user-actions.ts';

/** What a console is configured with to push here, or why it cannot. */
function ReceiverLine({ receiver }: { receiver: DicomCallerList['receiver'] }) {
  if (!receiver) return <Text>This server runs no DICOM receiver (DICOM_RECEIVER_PORT is not set): registered senders take effect once it does.</Text>;
  if (receiver.calledAeTitles.length === 0) return <Text>The DICOM receiver listens on port {receiver.port}, but no called AE title imports into this organisation yet (DICOM_RECEIVER_AE_TITLES).</Text>;
  return (
    <Text>
      Consoles push to port <Code>{receiver.port}</Code>, called AE title{' '}
      {receiver.calledAeTitles.map((title, i) => (
        <span key={title}>
          {i > 0 ? ' or ' : ''}
          <Code>{title}</Code>
        </span>
      ))}
      .
    </Text>
  );
}

/**
 * The devices allowed to push studies into this organisation by DICOM C-STORE (issue 24): any other
 * calling AE title, or a registered one calling from another address, is rejected at association.
 * Each association, accepted or rejected, is in the audit trail.
 */
export function DicomSendersSection({ callers }: { callers: DicomCallersApi }) {
  const toast = useToast();
  const confirm = useConfirm();
  const list = useRemote('dicom-callers', (signal) => callers.list(signal), 'The DICOM senders could not be loaded.');
  const [editing, setEditing] = useState<DicomCaller | 'new' | null>(null);

  const remove = async (caller: DicomCaller) => {
    const accepted = await confirm({
      title: `Remove ${caller.aeTitle}?`,
      message: `Pushes from ${caller.aeTitle} will be rejected from now on. Studies it pushed already stay.`,
      acceptLabel: 'Remove sender',
      acceptPalette: 'red',
    });
    if (!accepted) return;
    try {
      await callers.remove(caller.id);
      toast.show({ summary: 'Sender removed', detail: `${caller.aeTitle} can no longer push studies.`, severity: 'success', life: SUCCESS_TOAST_LIFE_MS });
    } catch (error) {
      toast.show({ summary: 'Not removed', detail: error instanceof ApiError ? error.message : 'The sender could not be removed.', severity: 'error' });
    }
    list.reload();
  };

  const onAction = (caller: DicomCaller, action: DicomCallerAction) => {
    if (action === 'edit') setEditing(caller);
    else void remove(caller);
  };

  const onSaved = (caller: DicomCaller, added: boolean) => {
    toast.show({
      summary: added ? 'Sender registered' : 'Sender saved',
      detail: added ? `${caller.aeTitle} can push studies now.` : `The changes to ${caller.aeTitle} are saved.`,
      severity: 'success',
      life: SUCCESS_TOAST_LIFE_MS,
    });
    list.reload();
  };

  const registered = list.data?.callers ?? null;
  let body;
  if (list.error) {
    body = <ErrorState title="The DICOM senders could not be loaded" message={list.error.message} onRetry={list.reload} />;
  } else if (registered && !list.loading && registered.length === 0) {
    body = (
      <EmptyState
        title="No DICOM sender registered"
        description="Nothing can push studies here by DICOM until you register the calling AE title of each console or PACS that should."
      />
    );
  } else {
    body = <DicomCallersTable callers={registered} busy={list.loading} onAction={onAction} />;
  }

  return (
    <Stack gap="4" as="section" aria-labelledby="dicom-senders-heading" data-testid="dicom-senders">
      <Stack gap="1">
        <Heading as="h2" size="md" id="dicom-senders-heading">
          DICOM senders
        </Heading>
        <Stack gap="1" color="fg.muted" textStyle="sm">
          <Text>Consoles and PACS allowed to push studies into this organisation (DICOM C-STORE). Any other caller is rejected before it sends anything.</Text>
          {list.data ? <ReceiverLine receiver={list.data.receiver} /> : null}
        </Stack>
      </Stack>
      <HStack justify="space-between" wrap="wrap" gap="3">
        <Text color="fg.muted" textStyle="sm" aria-live="polite" data-testid="dicom-callers-total">
          {registered ? `${registered.length} ${registered.length === 1 ? 'sender' : 'senders'}` : 'Loading senders…'}
        </Text>
        <Button onClick={() => setEditing('new')}>Register sender</Button>
      </HStack>
      {body}
      {editing ? <DicomCallerDialog callers={callers} caller={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={onSaved} /> : null}
    </Stack>
  );
}
