import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Input, InputGroup } from '@chakra-ui/react';
import { useLocation, useSearch } from 'wouter';
import { LOCALE } from '../../../domain/constants.ts';
import { firstOrderOf, type PatientListQuery, type PatientSortField, type PatientSummary } from '../../../domain/patients.ts';
import { PageHeader } from '../../ui/page-header.tsx';
import { EmptyState, ErrorState } from '../../ui/states.tsx';
import { SearchIcon } from '../../ui/icons.tsx';
import { pageCount, queryFromSearch, searchFromQuery } from './patient-list-query.ts';
import { PatientsPagination } from './patients-pagination.tsx';
import { PatientsTable } from './patients-table.tsx';
import { usePatientPage } from './use-patient-page.ts';

/** Typing pauses this long before the list is searched, so a name costs one request, not one per letter. */
export const SEARCH_DEBOUNCE_MS = 300;

const COUNT_FORMAT = new Intl.NumberFormat(LOCALE);

export function patientRecordsPath(patientId: string): string {
  return `/patients/${encodeURIComponent(patientId)}/records`;
}

export function PatientsPage() {
  const [, navigate] = useLocation();
  const search = useSearch();
  const query = useMemo(() => queryFromSearch(search), [search]);
  const { data, loading, error, retry } = usePatientPage(query);

  const setQuery = useCallback(
    (changes: Partial<PatientListQuery>) => {
      const next = searchFromQuery({ ...query, ...changes });
      navigate(next ? `/patients?${next}` : '/patients', { replace: true });
    },
    [query, navigate],
  );
  const setQueryRef = useRef(setQuery);
  useEffect(() => {
    setQueryRef.current = setQuery;
  });

  const [text, setText] = useState(query.search);
  const [shownSearch, setShownSearch] = useState(query.search);
  if (query.search !== shownSearch) {
    // The address changed under the box (Back, a link): show what is searched.
    setShownSearch(query.search);
    if (text.trim() !== query.search) setText(query.search);
  }
  const debounceTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(debounceTimer.current), []);
  const onSearchInput = (value: string) => {
    setText(value);
    clearTimeout(debounceTimer.current);
    debounceTimer.current = setTimeout(() => setQueryRef.current({ search: value.trim(), page: 1 }), SEARCH_DEBOUNCE_MS);
  };

  const total = data?.total ?? 0;
  const lastPage = pageCount(total, query.pageSize);
  useEffect(() => {
    // Fewer results than before (another search, a larger page): stay within the pages that exist.
    if (!loading && data && total > 0 && query.page > lastPage) setQuery({ page: lastPage });
  }, [loading, data, total, query.page, lastPage, setQuery]);

  const onSort = (field: PatientSortField) =>
    setQuery(
      query.sort === field ? { order: query.order === 'asc' ? 'desc' : 'asc', page: 1 } : { sort: field, order: firstOrderOf(field), page: 1 },
    );
  const onOpen = (patient: PatientSummary) => navigate(patientRecordsPath(patient.patientId));

  const searchBox = (
    <InputGroup startElement={<SearchIcon color="fg.muted" />} width={{ base: 'full', md: '22rem' }}>
      <Input
        type="search"
        value={text}
        onChange={(event) => onSearchInput(event.currentTarget.value)}
        placeholder="Search by patient ID or name"
        aria-label="Search patients"
        data-testid="patients-search"
        maxLength={100}
      />
    </InputGroup>
  );

  let body;
  if (error) {
    body = <ErrorState title="The patients could not be loaded" message={error.message} onRetry={retry} />;
  } else if (data && !loading && data.items.length === 0) {
    body = (
      <EmptyState
        title={query.search ? `No patients match “${query.search}”` : 'No patients yet'}
        description={query.search ? 'Check the spelling, or search by patient ID.' : 'Patients appear here once records are uploaded.'}
      />
    );
  } else {
    body = (
      <>
        <PatientsTable
          patients={data?.items ?? null}
          sort={query.sort}
          order={query.order}
          skeletonRows={Math.min(query.pageSize, 10)}
          busy={loading}
          onSort={onSort}
          onOpen={onOpen}
        />
        {data ? (
          <PatientsPagination
            page={query.page}
            pageSize={query.pageSize}
            total={total}
            disabled={loading}
            onPage={(page) => setQuery({ page })}
            onPageSize={(pageSize) => setQuery({ pageSize, page: 1 })}
          />
        ) : null}
      </>
    );
  }

  return (
    <>
      <PageHeader
        title="Patients"
        subtitle={
          <span data-testid="patients-total" aria-live="polite">
            {data ? `${COUNT_FORMAT.format(total)} ${total === 1 ? 'patient' : 'patients'}` : 'Loading patients…'}
          </span>
        }
        actions={searchBox}
      />
      {body}
    </>
  );
}
