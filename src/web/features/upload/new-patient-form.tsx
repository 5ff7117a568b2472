import { useRef, useState, type FormEvent } from 'react';
import { Box, Button, Field, Input, NativeSelect, SimpleGrid, Stack } from '@chakra-ui/react';
import { SEX_VALUES } from '../../../domain/patients.ts';
import { EMPTY_PATIENT, SEX_LABELS, localToday, validateNewPatient, type NewPatientDraft, type NewPatientErrors, type Sex } from './patient-form.ts';
import type { UploadFields } from './upload-request.ts';

export interface NewPatientFormProps {
  onSubmit: (fields: UploadFields) => void;
  submitLabel?: string;
}

const FIELD_ORDER: (keyof NewPatientDraft)[] = ['patientId', 'patientName', 'birthDate', 'sex'];

/** A new patient for files without a Patient ID: ID and name required, birth date and sex optional. */
export function NewPatientForm({ onSubmit, submitLabel = 'Create the patient and upload' }: NewPatientFormProps) {
  const [draft, setDraft] = useState<NewPatientDraft>(EMPTY_PATIENT);
  const [errors, setErrors] = useState<NewPatientErrors>({});
  const form = useRef<HTMLFormElement>(null);
  const set = (name: keyof NewPatientDraft) => (value: string) => {
    setDraft((current) => ({ ...current, [name]: value }));
    // A corrected field stops showing its old error at once.
    setErrors(({ [name]: _, ...others }) => others);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validateNewPatient(draft);
    setErrors(result.errors);
    if (result.fields) {
      onSubmit(result.fields);
      return;
    }
    // The keyboard goes where the first thing to fix is.
    const first = FIELD_ORDER.find((name) => result.errors[name]);
    form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };

  return (
    <Stack asChild gap="4">
      <form ref={form} noValidate onSubmit={submit} aria-label="New patient">
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        <Field.Root required invalid={Boolean(errors.patientId)}>
          <Field.Label>
            Patient ID <Field.RequiredIndicator />
          </Field.Label>
          <Input name="patientId" autoComplete="off" value={draft.patientId} onChange={(event) => set('patientId')(event.currentTarget.value)} />
          <Field.HelperText>Letters, digits, '.', '_' and '-', as your hospital writes it.</Field.HelperText>
          <Field.ErrorText>{errors.patientId}</Field.ErrorText>
        </Field.Root>
        <Field.Root required invalid={Boolean(errors.patientName)}>
          <Field.Label>
            Name <Field.RequiredIndicator />
          </Field.Label>
          <Input name="patientName" autoComplete="off" value={draft.patientName} onChange={(event) => set('patientName')(event.currentTarget.value)} />
          <Field.HelperText>For example Doe, Jane.</Field.HelperText>
          <Field.ErrorText>{errors.patientName}</Field.ErrorText>
        </Field.Root>
        <Field.Root invalid={Boolean(errors.birthDate)}>
          <Field.Label>Birth date</Field.Label>
          <Input name="birthDate" type="date" max={localToday()} value={draft.birthDate} onChange={(event) => set('birthDate')(event.currentTarget.value)} />
          <Field.ErrorText>{errors.birthDate}</Field.ErrorText>
        </Field.Root>
        <Field.Root invalid={Boolean(errors.sex)}>
          <Field.Label>Sex</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field name="sex" value={draft.sex} onChange={(event) => set('sex')(event.currentTarget.value as Sex | '')}>
              <option value="">Not given</option>
              {SEX_VALUES.map((sex) => (
                <option key={sex} value={sex}>
                  {SEX_LABELS[sex]}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <Field.ErrorText>{errors.sex}</Field.ErrorText>
        </Field.Root>
      </SimpleGrid>
      <Box>
        <Button type="submit" colorPalette="teal">
          {submitLabel}
        </Button>
      </Box>
      </form>
    </Stack>
  );
}
