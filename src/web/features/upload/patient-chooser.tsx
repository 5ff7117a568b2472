import { useEffect, useRef } from 'react';
import { Box, Button, Heading, HStack, Stack, Tabs, Text } from '@chakra-ui/react';
import { ExistingPatientSearch } from './existing-patient-search.tsx';
import type { ImportsApi } from './imports-api.ts';
import { NewPatientForm } from './new-patient-form.tsx';
import { COUNT_FORMAT } from './upload-format.ts';
import type { UploadFields } from './upload-request.ts';

/** File names named in the question; the rest are counted. */
const NAMED_FILES = 5;

export interface PatientChooserProps {
  imports: ImportsApi;
  /** The files the server found no usable Patient ID in. */
  files: readonly string[];
  /** Sends the same files again with the chosen patient. */
  onChoose: (fields: UploadFields) => void;
  onCancel: () => void;
  searchDebounceMs?: number;
}

function fileList(files: readonly string[]): string {
  const named = files.slice(0, NAMED_FILES).join(', ');
  const more = files.length - NAMED_FILES;
  return more > 0 ? `${named} and ${COUNT_FORMAT.format(more)} more` : named;
}

/**
 * The server's question after a 422 patient_id_required: which patient the files belong to, an
 * existing one found by a search or a new one. Nothing was imported; the answer sends the same
 * files again with the patient's form fields. Focus moves to the question when it appears.
 */
export function PatientChooser({ imports, files, onChoose, onCancel, searchDebounceMs }: PatientChooserProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <Stack
      as="section"
      aria-labelledby="patient-chooser-heading"
      data-testid="patient-chooser"
      gap="4"
      borderWidth="1px"
      borderColor="border.warning"
      bg="bg.warning"
      rounded="l3"
      p="5"
    >
      <Stack gap="1">
        <Heading as="h3" size="md" id="patient-chooser-heading" ref={heading} tabIndex={-1}>
          Which patient are these files of?
        </Heading>
        <Text textStyle="sm">
          {files.length > 0 ? `${files.length === 1 ? 'This file has' : 'These files have'} no usable Patient ID: ${fileList(files)}. ` : 'The files have no usable Patient ID. '}
          Nothing was imported yet. Choose an existing patient or create a new one; the same files are then uploaded again.
        </Text>
      </Stack>
      <Tabs.Root defaultValue="existing" variant="enclosed" colorPalette="teal" lazyMount>
        <Tabs.List>
          <Tabs.Trigger value="existing">Existing patient</Tabs.Trigger>
          <Tabs.Trigger value="new">New patient</Tabs.Trigger>
        </Tabs.List>
        <Box pt="4">
          <Tabs.Content value="existing">
            <ExistingPatientSearch
              imports={imports}
              debounceMs={searchDebounceMs}
              onChoose={(patient) => onChoose({ patientId: patient.patientId })}
            />
          </Tabs.Content>
          <Tabs.Content value="new">
            <NewPatientForm onSubmit={onChoose} />
          </Tabs.Content>
        </Box>
      </Tabs.Root>
      <HStack>
        <Button variant="ghost" onClick={onCancel}>
          Cancel: do not upload
        </Button>
      </HStack>
    </Stack>
  );
}
