import { useState } from 'react';
import { Stack, Text } from '@chakra-ui/react';
import type { PacsStudy, PacsStudyQuery } from '../../../domain/pacs.ts';
import { LabelledSelect } from '../../ui/labelled-select.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states.tsx';
import { IdentityMismatch } from './identity-mismatch.tsx';
import type { ImportsApi } from './imports-api.ts';
import type { PacsBrowseApi } from './pacs-api.ts';
import { PacsPullProgress } from './pacs-pull-progress.tsx';
import { PacsSearchForm } from './pacs-search-form.tsx';
import { PacsSeriesList } from './pacs-series-list.tsx';
import { PacsStudiesTable } from './pacs-studies-table.tsx';
import { PatientChooser } from './patient-chooser.tsx';
import { rejectionSentences } from './upload-request.ts';
import type { usePull } from './use-pull.ts';
import { plural } from './use-upload.ts';
import { useRemote } from '../../api/use-remote.ts';

export interface PacsPullTabProps {
  pacs: PacsBrowseApi;
  /** For the patient search of series without a Patient ID. */
  imports: ImportsApi;
  pull: ReturnType<typeof usePull>;
  patientSearchDebounceMs?: number;
}

/**
 * Upload → From PACS: search a connection's studies, choose one, check its series and import
 * them. The server retrieves the series and imports them as an upload, so its answers (and the
 * questions about the patient) are those of the Files tab, and the imports join the same list.
 */
export function PacsPullTab({ pacs, imports, pull, patientSearchDebounceMs }: PacsPullTabProps) {
  const connections = useRemote('pacs-connections', (signal) => pacs.connections(signal), 'The PACS connections could not be loaded.');
  const [connectionId, setConnectionId] = useState<string | null>(null);
  /** The search last sent; `n` counts the presses of Search, so the same query can be asked again. */
  const [search, setSearch] = useState<{ query: PacsStudyQuery; n: number } | null>(null);
  const [study, setStudy] = useState<PacsStudy | null>(null);

  const list = connections.data?.connections ?? null;
  const connection = list?.find(({ id }) => id === connectionId) ?? list?.[0] ?? null;
  const studies = useRemote(
    connection && search ? JSON.stringify([connection.id, search.query, search.n]) : null,
    (signal) => pacs.studies(connection?.id ?? '', search?.query ?? {}, signal),
    'The PACS could not be searched.',
  );

  if (connections.error) {
    return <ErrorState title="The PACS connections could not be loaded" message={connections.error.message} onRetry={connections.reload} />;
  }
  if (!list) return <LoadingState label="Loading the PACS connections…" />;
  if (!connection) {
    return (
      <EmptyState
        title="No PACS connection yet"
        description="An administrator adds the organisation's PACS on Users → PACS; its studies can then be searched and imported here."
      />
    );
  }

  const chooseConnection = (id: string) => {
    setConnectionId(id);
    setSearch(null);
    setStudy(null);
  };

  const { state } = pull;
  const found = studies.data?.studies ?? null;
  let results;
  if (!search) {
    results = (
      <Text textStyle="sm" color="fg.muted">
        Search by patient, study date or modality: the studies found in {connection.name} are listed here.
      </Text>
    );
  } else if (studies.error) {
    results = <ErrorState title={`${connection.name} could not be searched`} message={studies.error.message} onRetry={studies.reload} />;
  } else if (found && !studies.loading && found.length === 0) {
    results = <EmptyState title="No studies match" description="Check the spelling, widen the dates or choose Any modality." />;
  } else {
    results = (
      <Stack gap="2">
        <PacsStudiesTable studies={found} busy={studies.loading} chosen={study?.studyInstanceUid ?? null} onChoose={setStudy} />
        {studies.data?.truncated && !studies.loading ? (
          <Text textStyle="sm" color="fg.warning" data-testid="pacs-truncated">
            More studies than shown: narrow the search.
          </Text>
        ) : null}
      </Stack>
    );
  }

  const refusal = state.phase === 'rejected' ? rejectionSentences(state.rejection) : null;
  return (
    <Stack gap="6">
      <LabelledSelect
        label="PACS"
        maxWidth="24rem"
        value={connection.id}
        options={list.map(({ id, name }) => ({ value: id, label: name }))}
        onChange={chooseConnection}
      />
      <PacsSearchForm
        searching={studies.loading}
        onSearch={(query) => {
          setSearch((last) => ({ query, n: (last?.n ?? 0) + 1 }));
          setStudy(null);
        }}
      />
      <Stack as="section" gap="2" aria-label="Studies found">
        <Text textStyle="sm" color="fg.muted" aria-live="polite" data-testid="pacs-studies-count">
          {found && !studies.loading && search ? `${plural(found.length, 'study', 'studies')} found` : ''}
        </Text>
        {results}
      </Stack>
      {study && found?.some(({ studyInstanceUid }) => studyInstanceUid === study.studyInstanceUid) ? (
        <PacsSeriesList
          key={`${connection.id} ${study.studyInstanceUid}`}
          pacs={pacs}
          connection={connection}
          study={study}
          pulling={pull.pulling}
          refresh={pull.accepted}
          onImport={(series) => void pull.send({ connection, study, series })}
        />
      ) : null}
      <PacsPullProgress pull={state.phase === 'pulling' ? state : null} />
      {state.phase === 'needs-patient' ? (
        <PatientChooser
          imports={imports}
          files={state.series}
          subject="series"
          onChoose={pull.choosePatient}
          onCancel={pull.cancelQuestion}
          searchDebounceMs={patientSearchDebounceMs}
        />
      ) : null}
      {state.phase === 'identity-mismatch' ? <IdentityMismatch identity={state.identity} onConfirm={pull.confirmIdentity} onCancel={pull.cancelQuestion} /> : null}
      {refusal ? (
        <ErrorState title="The import was refused" message={refusal.reason}>
          {refusal.detail ? <Text textStyle="sm">{refusal.detail}</Text> : null}
        </ErrorState>
      ) : null}
      {state.phase === 'failed' ? <ErrorState title={state.title} message={state.message} onRetry={pull.retryLast} /> : null}
    </Stack>
  );
}
