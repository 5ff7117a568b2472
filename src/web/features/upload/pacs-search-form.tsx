import { useState, type FormEvent } from 'react';
import { Box, Button, Field, Input, SimpleGrid, Stack } from '@chakra-ui/react';
import type { PacsStudyQuery } from '../../../domain/pacs.ts';
import { SearchIcon } from '../../ui/icons.tsx';
import { LabelledSelect } from '../../ui/labelled-select.tsx';

const MODALITIES = [
  { value: '', label: 'Any' },
  { value: 'IVUS', label: 'IVUS' },
  { value: 'US', label: 'US (ultrasound)' },
  { value: 'XA', label: 'XA (angiography)' },
] as const;
type Modality = (typeof MODALITIES)[number]['value'];

interface SearchDraft {
  patientId: string;
  patientName: string;
  from: string;
  to: string;
  modality: Modality;
}

const EMPTY: SearchDraft = { patientId: '', patientName: '', from: '', to: '', modality: '' };

/** The QIDO-RS query of the form: what is empty is left out (the PACS then matches anything). */
export function queryOf(draft: SearchDraft): PacsStudyQuery {
  const query: PacsStudyQuery = {};
  if (draft.patientId.trim()) query.patientId = draft.patientId.trim();
  if (draft.patientName.trim()) query.patientName = draft.patientName.trim();
  if (draft.from) query.from = draft.from;
  if (draft.to) query.to = draft.to;
  if (draft.modality) query.modality = draft.modality;
  return query;
}

export interface PacsSearchFormProps {
  onSearch: (query: PacsStudyQuery) => void;
  searching: boolean;
  disabled?: boolean;
}

/** Patient, study dates and modality; Enter in any field searches (it is a form). */
export function PacsSearchForm({ onSearch, searching, disabled = false }: PacsSearchFormProps) {
  const [draft, setDraft] = useState<SearchDraft>(EMPTY);
  const [dateError, setDateError] = useState<string | null>(null);
  const set = (name: keyof SearchDraft) => (value: string) => {
    setDraft((current) => ({ ...current, [name]: value }));
    if (name === 'from' || name === 'to') setDateError(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft.from && draft.to && draft.from > draft.to) {
      setDateError('The first date is after the last one.');
      return;
    }
    onSearch(queryOf(draft));
  };

  return (
    <Stack asChild gap="4">
      <form noValidate onSubmit={submit} aria-label="Search the PACS" role="search">
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
          <Field.Root>
            <Field.Label>Patient ID</Field.Label>
            <Input value={draft.patientId} maxLength={64} autoComplete="off" onChange={(event) => set('patientId')(event.currentTarget.value)} />
          </Field.Root>
          <Field.Root>
            <Field.Label>Patient name</Field.Label>
            <Input value={draft.patientName} maxLength={64} autoComplete="off" onChange={(event) => set('patientName')(event.currentTarget.value)} />
            <Field.HelperText>Part of the name is enough, e.g. Nguyen.</Field.HelperText>
          </Field.Root>
          <Field.Root invalid={Boolean(dateError)}>
            <Field.Label>Study date from</Field.Label>
            <Input type="date" value={draft.from} onChange={(event) => set('from')(event.currentTarget.value)} />
            <Field.ErrorText>{dateError}</Field.ErrorText>
          </Field.Root>
          <Field.Root invalid={Boolean(dateError)}>
            <Field.Label>Study date to</Field.Label>
            <Input type="date" value={draft.to} onChange={(event) => set('to')(event.currentTarget.value)} />
          </Field.Root>
          <LabelledSelect label="Modality" value={draft.modality} options={MODALITIES} onChange={set('modality')} />
        </SimpleGrid>
        <Box>
          <Button type="submit" colorPalette="teal" loading={searching} loadingText="Searching…" disabled={disabled}>
            <SearchIcon /> Search
          </Button>
        </Box>
      </form>
    </Stack>
  );
}
