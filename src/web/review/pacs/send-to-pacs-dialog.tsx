import { useEffect, useState, useSyncExternalStore } from 'react';
import { Alert, Button, Dialog, Stack, Text } from '@chakra-ui/react';
import { PacsConnectionListSchema, PacsSendResultSchema, type PacsConnection, type PacsSendRequest } from '../../../domain/pacs.ts';
import { ApiError } from '../../api/api-client.ts';
import { useApi } from '../../api/api-context.tsx';
import { FailureAlert } from '../../ui/failure-alert.tsx';
import { LabelledSelect } from '../../ui/labelled-select.tsx';
import { ModalDialog } from '../../ui/modal-dialog.tsx';
import { LoadingState } from '../../ui/states.tsx';
import { useToast } from '../../ui/toast.tsx';
import { hasUnsavedChanges, type AnnotationStore } from '../manifest/annotation-store.ts';


export const SAVE_FIRST = 'Save first: only saved annotations are sent.';
const SENT_TOAST_LIFE_MS = 6000;

type Connections = { status: 'loading' } | { status: 'ready'; connections: PacsConnection[] } | { status: 'error'; message: string };

export interface SendToPacsDialogProps {
  recordId: string;
  annotations: AnnotationStore;
  /** Issue 28: the review's gating is on, so the reports add the gated figures (the server gates the frames itself). */
  gating?: boolean | undefined;
  onClose: () => void;
}

/**
 * Stores the record's measurement report (DICOM SR) and PDF report in its study on a PACS. The
 * server makes both from what is saved, never from the page, so unsaved changes must be saved first.
 */
export function SendToPacsDialog({ recordId, annotations, gating = false, onClose }: SendToPacsDialogProps) {
  const api = useApi();
  const toast = useToast();
  const [connections, setConnections] = useState<Connections>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [chosenId, setChosenId] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const dirty = useSyncExternalStore(annotations.subscribe, () => hasUnsavedChanges(annotations.getSnapshot()));
  const version = useSyncExternalStore(annotations.subscribe, () => annotations.getSnapshot().version);

  useEffect(() => {
    const controller = new AbortController();
    api
      .get(PacsConnectionListSchema, 'pacs/connections', { signal: controller.signal })
      .then(({ connections: list }) => setConnections({ status: 'ready', connections: list }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setConnections({ status: 'error', message: error instanceof ApiError ? error.message : 'The PACS connections could not be loaded.' });
      });
    return () => controller.abort();
  }, [api, attempt]);

  const list = connections.status === 'ready' ? connections.connections : [];
  const chosen = list.find(({ id }) => id === chosenId) ?? list[0] ?? null;

  const send = async () => {
    if (!chosen || dirty) return;
    setSending(true);
    setFailure(null);
    try {
      const body: PacsSendRequest = { connectionId: chosen.id, ...(gating ? { gating: true } : {}) };
      const result = await api.request({ resource: 'records', pathParams: [recordId, 'pacs-send'], method: 'POST', body, schema: PacsSendResultSchema });
      const held = result.annotationVersion === null ? ' (no saved annotations: borders and analysis only)' : ` (annotations v${result.annotationVersion})`;
      toast.show({ severity: 'success', summary: `Sent to ${chosen.name}`, detail: `Measurement report and PDF stored in the study${held}.`, life: SENT_TOAST_LIFE_MS });
      onClose();
    } catch (error) {
      // The PacsProblem's own message names what went wrong (refused credentials, a store the PACS refused…).
      setFailure(error instanceof ApiError ? error.message : 'The report could not be sent.');
    } finally {
      setSending(false);
    }
  };

  let body;
  if (connections.status === 'loading') {
    body = <LoadingState label="Loading the PACS connections…" />;
  } else if (connections.status === 'error') {
    body = (
      <Alert.Root status="error" role="alert">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>The PACS connections could not be loaded</Alert.Title>
          <Alert.Description>{connections.message}</Alert.Description>
        </Alert.Content>
        <Button size="sm" variant="outline" onClick={() => setAttempt((n) => n + 1)}>
          Retry
        </Button>
      </Alert.Root>
    );
  } else if (!chosen) {
    body = (
      <Text data-testid="no-pacs-connection">
        There is no PACS connection yet. An administrator adds one on Users → PACS; the report can then be sent here.
      </Text>
    );
  } else {
    body = (
      <Stack gap="4">
        <LabelledSelect
          label="PACS"
          value={chosen.id}
          options={list.map(({ id, name }) => ({ value: id, label: name }))}
          onChange={setChosenId}
          disabled={sending}
        />
        <Text textStyle="sm" color="fg.muted">
          A measurement report (DICOM SR) and the PDF report are stored in the record's study. They hold the lumen and vessel analysis and the saved
          annotations{version > 0 ? ` (version ${version})` : ': none are saved yet'}.
          {gating ? ' Gating is on: they add the figures on end-diastolic frames, gated by the server from the same frames.' : ''}
        </Text>
        {dirty ? (
          <Alert.Root status="warning" data-testid="save-first">
            <Alert.Indicator />
            <Alert.Title>{SAVE_FIRST}</Alert.Title>
          </Alert.Root>
        ) : null}
        <FailureAlert message={failure} />
      </Stack>
    );
  }

  return (
    <ModalDialog busy={sending} onClose={onClose}>
      <Dialog.Header>
        <Dialog.Title>Send to PACS</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>{body}</Dialog.Body>
      <Dialog.Footer>
        <Button variant="outline" onClick={onClose} disabled={sending}>
          {chosen ? 'Cancel' : 'Close'}
        </Button>
        {chosen ? (
          <Button colorPalette="teal" onClick={() => void send()} disabled={dirty} loading={sending} loadingText="Sending…">
            Send
          </Button>
        ) : null}
      </Dialog.Footer>
    </ModalDialog>
  );
}
