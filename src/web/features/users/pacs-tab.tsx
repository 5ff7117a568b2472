import { useState } from 'react';
import { Button, Heading, HStack, Separator, Stack, Text } from '@chakra-ui/react';
import type { PacsConnection } from '../../../domain/pacs.ts';
import { ApiError } from '../../api/api-client.ts';
import { useConfirm } from '../../ui/confirm.tsx';
import { EmptyState, ErrorState } from '../../ui/states.tsx';
import { useToast } from '../../ui/toast.tsx';
import type { DicomCallersApi } from './dicom-callers-api.ts';
import { DicomSendersSection } from './dicom-senders-section.tsx';
import type { PacsAdminApi } from './pacs-api.ts';
import { PacsConnectionDialog } from './pacs-connection-dialog.tsx';
import { PacsConnectionsTable, type PacsConnectionAction } from './pacs-connections-table.tsx';
import { testFailure, type PacsTestState } from './pacs-test-outcome.tsx';
import { SUCCESS_TOAST_LIFE_MS } from './use-user-actions.ts';
import { useRemote } from '../../api/use-remote.ts';

/**
 * The tenant's DICOMweb connections: users import studies from them (Upload → From PACS) and send
 * reports back (the review's Send to PACS). Administrators add, change, test and remove them here,
 * and register the devices allowed to push studies by DICOM (below them).
 */
export function PacsTab({ pacs, callers }: { pacs: PacsAdminApi; callers: DicomCallersApi }) {
  const toast = useToast();
  const confirm = useConfirm();
  const list = useRemote('pacs-connections', (signal) => pacs.list(signal), 'The PACS connections could not be loaded.');
  /** The connection being changed, 'new' while one is added, null with the dialog closed. */
  const [editing, setEditing] = useState<PacsConnection | 'new' | null>(null);
  const [tests, setTests] = useState<Record<string, PacsTestState>>({});

  const setTest = (id: string, state: PacsTestState) => setTests((known) => ({ ...known, [id]: state }));

  const testSaved = async (connection: PacsConnection) => {
    setTest(connection.id, { status: 'testing' });
    try {
      setTest(connection.id, { status: 'ok', result: await pacs.testSaved(connection.id) });
    } catch (error) {
      setTest(connection.id, testFailure(error));
    }
  };

  const remove = async (connection: PacsConnection) => {
    const accepted = await confirm({
      title: 'Remove this PACS connection?',
      message: `Users will no longer import from ${connection.name} or send reports to it, and its stored credentials are deleted. Records already imported stay.`,
      acceptLabel: 'Remove connection',
      acceptPalette: 'red',
    });
    if (!accepted) return;
    try {
      await pacs.remove(connection.id);
      toast.show({ summary: 'Connection removed', detail: `${connection.name} is removed.`, severity: 'success', life: SUCCESS_TOAST_LIFE_MS });
    } catch (error) {
      const detail = error instanceof ApiError ? error.message : 'The connection could not be removed.';
      toast.show({ summary: 'Not removed', detail, severity: 'error' });
    }
    list.reload();
  };

  const onAction = (connection: PacsConnection, action: PacsConnectionAction) => {
    if (action === 'test') void testSaved(connection);
    else if (action === 'edit') setEditing(connection);
    else void remove(connection);
  };

  const onSaved = (connection: PacsConnection, added: boolean) => {
    toast.show({
      summary: added ? 'Connection added' : 'Connection saved',
      detail: added ? `${connection.name} can be searched from Upload → From PACS.` : `The changes to ${connection.name} are saved.`,
      severity: 'success',
      life: SUCCESS_TOAST_LIFE_MS,
    });
    // A change may make an earlier test of this connection wrong.
    setTests(({ [connection.id]: _, ...others }) => others);
    list.reload();
  };

  const connections = list.data?.connections ?? null;
  let body;
  if (list.error) {
    body = <ErrorState title="The PACS connections could not be loaded" message={list.error.message} onRetry={list.reload} />;
  } else if (connections && !list.loading && connections.length === 0) {
    body = (
      <EmptyState
        title="No PACS connection yet"
        description="Add the DICOMweb address of a PACS: users then import studies from it on the Upload page and send reports back to it from the review."
      />
    );
  } else {
    body = <PacsConnectionsTable connections={connections} busy={list.loading} tests={tests} onAction={onAction} />;
  }

  return (
    <Stack gap="8">
      <Stack gap="4" as="section" aria-labelledby="pacs-connections-heading">
        <Heading as="h2" size="md" id="pacs-connections-heading">
          DICOMweb connections
        </Heading>
        <HStack justify="space-between" wrap="wrap" gap="3">
          <Text color="fg.muted" textStyle="sm" aria-live="polite" data-testid="pacs-total">
            {connections ? `${connections.length} ${connections.length === 1 ? 'connection' : 'connections'}` : 'Loading connections…'}
          </Text>
          <Button onClick={() => setEditing('new')}>Add connection</Button>
        </HStack>
        {body}
        {editing ? (
          <PacsConnectionDialog pacs={pacs} connection={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={onSaved} />
        ) : null}
      </Stack>
      <Separator />
      <DicomSendersSection callers={callers} />
    </Stack>
  );
}
