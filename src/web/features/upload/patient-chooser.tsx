import { useLayoutEffect, useRef } from 'react';
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
  /** The files the server found no usable Patient ID in (or the series pulled, named as the user chose them). */
  files: readonly string[];
  /** Sends the same files again with the chosen patient. */
  onChoose: (fields: UploadFields) => void;
  onCancel: () => void;
  searchDebounceMs?: number;
  /** What is imported: uploaded files (named by file), or series pulled from a PACS (named by series). */
  subject?: 'files' | 'series';
}

/** The question's words for files or for series; the answer is the same either way. */
function wording(subject: 'files' | 'series', names: readonly string[]) {
  if (subject === 'series') {
    return {
      heading: names.length === 1 ? 'Which patient is this series of?' : 'Which patient are these series of?',
      without: names.length === 1 ? 'This series has' : 'These series have',
      none: 'The series have no usable Patient ID. ',
      again: 'the same series are then retrieved from the PACS again.',
      verb: 'Import',
      create: 'Create the patient and import',
      cancel: 'Cancel: do not import',
    };
  }
  return {
    heading: 'Which patient are these files of?',
    without: names.length === 1 ? 'This file has' : 'These files have',
    none: 'The files have no usable Patient ID. ',
    again: 'the same files are then uploaded again.',
    verb: 'Upload',
    create: 'Create the patient and upload',
    cancel: 'Cancel: do not upload',
  };
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
export function PatientChooser({ imports, files, onChoose, onCancel, searchDebounceMs, subject = 'files' }: PatientChooserProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const words = wording(subject, files);
  // A layout effect: focus lands in the commit that shows the question, so a key pressed at once
  // never goes to the page behind it.
  useLayoutEffect(() => heading.current?.focus(), []);
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
          {words.heading}
        </Heading>
        <Text textStyle="sm">
          {files.length > 0 ? `${words.without} no usable Patient ID: ${fileList(files)}. ` : words.none}
          Nothing was imported yet. Choose an existing patient or create a new one; {words.again}
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
              verb={words.verb}
              onChoose={(patient) => onChoose({ patientId: patient.patientId })}
            />
          </Tabs.Content>
          <Tabs.Content value="new">
            <NewPatientForm onSubmit={onChoose} submitLabel={words.create} />
          </Tabs.Content>
        </Box>
      </Tabs.Root>
      <HStack>
        <Button variant="ghost" onClick={onCancel}>
          {words.cancel}
        </Button>
      </HStack>
    </Stack>
  );
}
