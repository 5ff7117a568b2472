import { useRef } from 'react';
import { Badge, Button, Table, Text } from '@chakra-ui/react';
import { QuestionDialog } from '../../ui/question-dialog.tsx';
import type { ImportRejected } from '../../../domain/imports.ts';
import { formatDate } from '../../../domain/reports/format-date.ts';

export type PatientIdentity = NonNullable<ImportRejected['patientIdentity']>;

export interface IdentityMismatchProps {
  identity: PatientIdentity;
  /** Sends the same files again with confirmPatientIdentity=true. */
  onConfirm: () => void;
  onCancel: () => void;
}

const birth = (value: string | null) => (value ? formatDate(value) || value : 'not given');

/** The label of the button that files the upload under the existing patient: it says exactly that. */
export function confirmLabel(identity: PatientIdentity): string {
  return `Import into existing patient ${identity.existing.name} (${identity.patientId})`;
}

/**
 * A 409 patient_identity_mismatch: the files' Patient ID exists under another name or birth date.
 * Both identities side by side, the differences marked. A wrong-patient import is the worst an
 * import can do, so the focused, first and plain way out is Cancel (as Escape and a click outside);
 * importing anyway takes a click on a button that names the patient.
 */
export function IdentityMismatch({ identity, onConfirm, onCancel }: IdentityMismatchProps) {
  const cancel = useRef<HTMLButtonElement>(null);
  const rows = [
    { label: 'Name', file: identity.file.name, existing: identity.existing.name },
    { label: 'Birth date', file: birth(identity.file.birthDate), existing: birth(identity.existing.birthDate) },
  ];
  return (
    <QuestionDialog
      title="Is this the same patient?"
      description={`Patient ID ${identity.patientId} already belongs to a patient with another name or birth date. Nothing was imported. Check that the files are of this patient before importing them.`}
      safeButton={cancel}
      onDismiss={onCancel}
      size="lg"
      testId="identity-mismatch"
      footer={
        <>
          <Button ref={cancel} colorPalette="teal" onClick={onCancel}>
            Cancel: import nothing
          </Button>
          <Button variant="outline" colorPalette="red" onClick={onConfirm}>
            {confirmLabel(identity)}
          </Button>
        </>
      }
    >
      <Table.Root size="sm" mt="4" variant="outline">
        <Table.Caption captionSide="top" textAlign="start" mb="1">
          Patient ID {identity.patientId}
        </Table.Caption>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader />
            <Table.ColumnHeader scope="col">In this upload</Table.ColumnHeader>
            <Table.ColumnHeader scope="col">Existing patient</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((row) => {
            const differs = row.file !== row.existing;
            return (
              <Table.Row key={row.label} data-testid={`identity-${row.label === 'Name' ? 'name' : 'birth-date'}`} data-differs={differs || undefined}>
                <Table.Cell as="th" scope="row" fontWeight="medium">
                  {row.label}
                  {differs ? (
                    <Badge ms="2" colorPalette="orange" variant="subtle">
                      differs
                    </Badge>
                  ) : null}
                </Table.Cell>
                <Table.Cell fontWeight={differs ? 'semibold' : undefined}>{row.file}</Table.Cell>
                <Table.Cell fontWeight={differs ? 'semibold' : undefined}>{row.existing}</Table.Cell>
              </Table.Row>
            );
          })}
        </Table.Body>
      </Table.Root>
      <Text textStyle="sm" color="fg.muted" mt="3">
        If they are different people, cancel and correct the Patient ID on the imaging system before uploading again.
      </Text>
    </QuestionDialog>
  );
}
