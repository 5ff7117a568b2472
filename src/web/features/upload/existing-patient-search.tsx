import { useEffect, useId, useState } from 'react';
import { Box, Button, Field, Input, Stack, Text, chakra } from '@chakra-ui/react';
import type { PatientPage, PatientSummary } from '../../../domain/patients.ts';
import { formatDate } from '../../../domain/reports/format-date.ts';
import { ErrorState, LoadingState } from '../../ui/states.tsx';
import type { ImportsApi } from './imports-api.ts';
import { COUNT_FORMAT } from './upload-format.ts';

/** Typing pauses this long before the patients are asked for, so every keystroke is not a request. */
export const PATIENT_SEARCH_DEBOUNCE_MS = 300;

type SearchState =
  | { status: 'loading' }
  | { status: 'ready'; page: PatientPage }
  | { status: 'error'; message: string };

function usePatientSearch(imports: ImportsApi, search: string, debounceMs: number) {
  const [state, setState] = useState<{ key: string; result: SearchState }>({ key: '', result: { status: 'loading' } });
  const [attempt, setAttempt] = useState(0);
  const key = `${attempt}\u0000${search}`;
  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      imports
        .searchPatients(search.trim(), controller.signal)
        .then((page) => setState({ key, result: { status: 'ready', page } }))
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          setState({ key, result: { status: 'error', message: error instanceof Error ? error.message : 'The patients could not be loaded.' } });
        });
    }, debounceMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [imports, search, key, debounceMs]);
  // An answer to an older search is not shown as the answer to this one.
  const result: SearchState = state.key === key ? state.result : { status: 'loading' };
  return { result, retry: () => setAttempt((n) => n + 1) };
}

const describe = (patient: PatientSummary) =>
  [patient.patientId, patient.birthDate ? `born ${formatDate(patient.birthDate)}` : 'birth date unknown'].join(' · ');

export interface ExistingPatientSearchProps {
  imports: ImportsApi;
  onChoose: (patient: PatientSummary) => void;
  debounceMs?: number;
  /** What choosing does: 'Upload' (files) or 'Import' (series from a PACS). */
  verb?: string;
}

/** A search of the tenant's patients (by ID or name) and a choice of one, as radio buttons the arrow keys move through. */
export function ExistingPatientSearch({ imports, onChoose, debounceMs = PATIENT_SEARCH_DEBOUNCE_MS, verb = 'Upload' }: ExistingPatientSearchProps) {
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<PatientSummary | null>(null);
  const [missing, setMissing] = useState(false);
  const { result, retry } = usePatientSearch(imports, search, debounceMs);
  const groupName = useId();

  let body;
  if (result.status === 'loading') body = <LoadingState label="Searching the patients…" />;
  else if (result.status === 'error') body = <ErrorState title="The patients could not be searched" message={result.message} onRetry={retry} />;
  else if (result.page.items.length === 0) {
    body = (
      <Text textStyle="sm" color="fg.muted" data-testid="patient-search-empty">
        {search.trim() ? `No patient's ID or name contains "${search.trim()}".` : 'There are no patients yet: create a new one.'}
      </Text>
    );
  } else {
    const { items, total } = result.page;
    body = (
      <Stack gap="1">
        <Stack as="fieldset" gap="1" role="radiogroup" aria-label="Patients found" data-testid="patient-results">
          {items.map((patient) => (
            <chakra.label
              key={patient.patientId}
              display="flex"
              gap="3"
              alignItems="center"
              px="3"
              py="2"
              borderWidth="1px"
              rounded="l2"
              cursor="pointer"
              borderColor={chosen?.patientId === patient.patientId ? 'colorPalette.solid' : 'border'}
              colorPalette="teal"
            >
              <input
                type="radio"
                name={groupName}
                value={patient.patientId}
                checked={chosen?.patientId === patient.patientId}
                onChange={() => {
                  setChosen(patient);
                  setMissing(false);
                }}
              />
              <Box minWidth="0">
                <Text fontWeight="medium">{patient.name}</Text>
                <Text textStyle="sm" color="fg.muted">
                  {describe(patient)}
                </Text>
              </Box>
            </chakra.label>
          ))}
        </Stack>
        {total > items.length ? (
          <Text textStyle="xs" color="fg.muted">
            Showing {items.length} of {COUNT_FORMAT.format(total)} patients: type more of the name or ID to narrow the list.
          </Text>
        ) : null}
      </Stack>
    );
  }

  return (
    <Stack gap="4">
      <Field.Root>
        <Field.Label>Search patients by name or Patient ID</Field.Label>
        <Input type="search" value={search} autoComplete="off" onChange={(event) => setSearch(event.currentTarget.value)} />
      </Field.Root>
      <Box aria-live="polite">{body}</Box>
      {missing ? (
        <Text textStyle="sm" color="fg.error" role="alert">
          Choose a patient from the list first.
        </Text>
      ) : null}
      <Box>
        <Button
          colorPalette="teal"
          onClick={() => {
            if (chosen) onChoose(chosen);
            else setMissing(true);
          }}
        >
          {chosen ? `${verb} for ${chosen.name} (${chosen.patientId})` : `${verb} for the chosen patient`}
        </Button>
      </Box>
    </Stack>
  );
}
