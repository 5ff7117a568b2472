import type { KeyboardEvent } from 'react';
import { Box, Table, VisuallyHidden, chakra } from '@chakra-ui/react';
import type { PatientListQuery, PatientSortField, PatientSummary } from '../../../domain/patients.ts';
import { formatDate } from '../../../domain/reports/format-date.ts';
import { SortAscendingIcon, SortDescendingIcon, SortNoneIcon } from '../../ui/icons.tsx';
import { SkeletonRows } from '../../ui/skeleton-rows.tsx';

const COLUMNS: readonly { field: PatientSortField; label: string; numeric?: boolean }[] = [
  { field: 'patientId', label: 'Patient ID' },
  { field: 'name', label: 'Name' },
  { field: 'birthDate', label: 'Birth date' },
  { field: 'sex', label: 'Sex' },
  { field: 'recordCount', label: 'Records', numeric: true },
  { field: 'latestRecordDate', label: 'Latest record' },
];
const FIELDS = COLUMNS.map(({ field }) => field);

const SEX_LABELS: Record<PatientSummary['sex'], string> = { F: 'Female', M: 'Male', O: 'Other', U: 'Unknown' };

export interface PatientsTableProps {
  patients: readonly PatientSummary[] | null;
  sort: PatientListQuery['sort'];
  order: PatientListQuery['order'];
  /** Rows to show as skeletons while the first page loads. */
  skeletonRows: number;
  busy: boolean;
  onSort: (field: PatientSortField) => void;
  onOpen: (patient: PatientSummary) => void;
}

function SortIcon({ active, order }: { active: boolean; order: 'asc' | 'desc' }) {
  if (!active) return <SortNoneIcon color="fg.subtle" />;
  return order === 'asc' ? <SortAscendingIcon /> : <SortDescendingIcon />;
}

export function PatientsTable({ patients, sort, order, skeletonRows, busy, onSort, onOpen }: PatientsTableProps) {
  const openOnEnter = (event: KeyboardEvent, patient: PatientSummary) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onOpen(patient);
    }
  };

  return (
    <Box overflowX="auto" borderWidth="1px" rounded="l2">
      <Table.Root data-testid="patients-table" aria-busy={busy} interactive size="md" stickyHeader>
        <Table.Caption>
          <VisuallyHidden>Patients. Select a row to open the patient's records.</VisuallyHidden>
        </Table.Caption>
        <Table.Header>
          <Table.Row bg="bg.subtle">
            {COLUMNS.map(({ field, label, numeric }) => {
              const active = sort === field;
              return (
                <Table.ColumnHeader
                  key={field}
                  scope="col"
                  aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}
                  textAlign={numeric ? 'end' : 'start'}
                >
                  <chakra.button
                    type="button"
                    display="inline-flex"
                    alignItems="center"
                    gap="1"
                    fontWeight="semibold"
                    rounded="l1"
                    focusRing="outside"
                    cursor="pointer"
                    onClick={() => onSort(field)}
                  >
                    {label}
                    <SortIcon active={active} order={order} />
                  </chakra.button>
                </Table.ColumnHeader>
              );
            })}
          </Table.Row>
        </Table.Header>
        <Table.Body opacity={busy && patients ? 0.6 : 1} transition="opacity">
          {patients
            ? patients.map((patient) => (
                <Table.Row
                  key={patient.patientId}
                  data-testid="patient-row"
                  tabIndex={0}
                  cursor="pointer"
                  focusRing="inside"
                  onClick={() => onOpen(patient)}
                  onKeyDown={(event) => openOnEnter(event, patient)}
                >
                  <Table.Cell fontFamily="mono">{patient.patientId}</Table.Cell>
                  <Table.Cell fontWeight="medium">{patient.name}</Table.Cell>
                  <Table.Cell>{formatDate(patient.birthDate)}</Table.Cell>
                  <Table.Cell>{SEX_LABELS[patient.sex]}</Table.Cell>
                  <Table.Cell textAlign="end">{patient.recordCount}</Table.Cell>
                  <Table.Cell>{patient.latestRecordDate ? formatDate(patient.latestRecordDate) : '—'}</Table.Cell>
                </Table.Row>
              ))
            : <SkeletonRows rows={skeletonRows} columns={FIELDS} testId="patient-skeleton-row" />}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}
