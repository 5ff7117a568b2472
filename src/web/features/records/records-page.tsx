import { Button, SimpleGrid, Skeleton } from '@chakra-ui/react';
import { Link } from 'wouter';
import { writeRecordContext } from '../../session/context-store.ts';
import { usePatientContext } from '../../session/use-patient-context.ts';
import { useMemo } from 'react';
import { runsOfDay } from '../../../domain/reports/acquisition-format.ts';
import { formatDate } from '../../../domain/reports/format-date.ts';
import { PageHeader } from '../../ui/page-header.tsx';
import { EmptyState, ErrorState } from '../../ui/states.tsx';
import { RecordCard } from './record-card.tsx';
import { useRecordDrafts } from './use-record-drafts.ts';

const SEX_LABELS: Record<string, string> = { F: 'Female', M: 'Male', O: 'Other', U: 'Unknown' };

export function RecordsPage({ patientId }: { patientId: string }) {
  const { context, loading, error, retry } = usePatientContext(patientId);
  const patient = context?.patient ?? null;
  const runs = useMemo(() => runsOfDay(patient?.records ?? []), [patient]);
  const drafts = useRecordDrafts(patient?.records.map((record) => record.recordId) ?? []);

  if (error?.status === 404) {
    return (
      <>
        <PageHeader title="Patient not found" />
        <ErrorState title="Patient not found" message={`There is no patient ${patientId} in this workspace.`}>
          <Button asChild size="sm" variant="outline">
            <Link href="/patients">Back to patients</Link>
          </Button>
        </ErrorState>
      </>
    );
  }

  const details = patient
    ? [
        `Patient ID ${patient.patientId}`,
        patient.birthDate ? `born ${formatDate(patient.birthDate)}` : null,
        SEX_LABELS[patient.sex],
        `${patient.records.length} ${patient.records.length === 1 ? 'record' : 'records'}`,
      ]
        .filter(Boolean)
        .join(' · ')
    : `Patient ID ${patientId}`;

  let body;
  if (error && !patient) {
    body = <ErrorState title="The records could not be loaded" message={error.message} onRetry={retry} />;
  } else if (!patient) {
    body = (
      <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="4" aria-busy="true" aria-label="Loading records">
        {[0, 1, 2].map((n) => (
          <Skeleton key={n} height="22rem" rounded="l3" />
        ))}
      </SimpleGrid>
    );
  } else if (patient.records.length === 0) {
    body = <EmptyState title="No records yet" description="Records of this patient appear here once they are uploaded." />;
  } else {
    body = (
      <>
        {error ? <ErrorState title="Showing saved records" message={error.message} onRetry={retry} /> : null}
        <SimpleGrid
          as="ul"
          listStyleType="none"
          columns={{ base: 1, md: 2, xl: 3 }}
          gap="4"
          mt={error ? '4' : '0'}
          aria-busy={loading}
          data-testid="record-list"
        >
          {patient.records.map((record) => (
            <li key={record.recordId}>
              <RecordCard
                patientId={patient.patientId}
                record={record}
                run={runs.get(record.recordId) ?? null}
                hasDraft={drafts.has(record.recordId)}
                onOpen={(opened) => writeRecordContext({ patientId: patient.patientId, record: opened })}
              />
            </li>
          ))}
        </SimpleGrid>
      </>
    );
  }

  return (
    <>
      <PageHeader title={patient ? patient.name : 'Records'} subtitle={details} />
      {body}
    </>
  );
}
