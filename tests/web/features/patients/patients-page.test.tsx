import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PatientsPage } from '../../../../src/web/features/patients/patients-page.tsx';
import { firstOrderOf, type PatientSortField, type PatientSummary } from '../../../../src/domain/patients.ts';
import { fakeApi, renderApp } from '../../render.tsx';

const PATIENTS: PatientSummary[] = Array.from({ length: 60 }, (_, i) => ({
  patientId: `P-${String(i + 1).padStart(4, '0')}`,
  name: i === 0 ? 'Ann Lee' : `Patient ${i + 1}`,
  birthDate: '1961-04-09',
  sex: i % 2 ? 'M' : 'F',
  recordCount: i % 4,
  // Patient k was last seen k days into 2024; every fourth has no record yet.
  latestRecordDate: i % 4 ? new Date(Date.UTC(2024, 0, 1 + i, 10)).toISOString() : null,
}));

/** A tiny stand-in for GET /api/{tenant}/patients: search, sort (nulls last, then by id), paging. */
function patientsServer({ fail = 0 } = {}) {
  let failures = fail;
  return fakeApi((url) => {
    if (failures > 0) {
      failures -= 1;
      return Response.json({ error: 'server_error', message: 'The database is not reachable.' }, { status: 503 });
    }
    const page = Number(url.searchParams.get('page') ?? 1);
    const pageSize = Number(url.searchParams.get('pageSize') ?? 25);
    const search = (url.searchParams.get('search') ?? '').toLowerCase();
    const matching = PATIENTS.filter((p) => !search || p.name.toLowerCase().includes(search) || p.patientId.toLowerCase().includes(search));
    const sort = (url.searchParams.get('sort') ?? 'latestRecordDate') as keyof PatientSummary;
    const order = url.searchParams.get('order') ?? firstOrderOf(sort as PatientSortField);
    const direction = order === 'desc' ? -1 : 1;
    matching.sort((a, b) => {
      const [x, y] = [a[sort], b[sort]];
      if (x === y) return a.patientId.localeCompare(b.patientId);
      if (x === null) return 1;
      if (y === null) return -1;
      return (x < y ? -1 : 1) * direction;
    });
    return Response.json({ items: matching.slice((page - 1) * pageSize, page * pageSize), total: matching.length, page, pageSize });
  });
}

const rows = () => screen.queryAllByTestId('patient-row');
const requests = (fetchMock: ReturnType<typeof fakeApi>['fetchMock']) =>
  fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://x').searchParams);

describe('patients list', () => {
  it('shows skeleton rows, then the patients in an accessible table', async () => {
    const { client } = patientsServer();
    renderApp(<PatientsPage />, { api: client, path: '/patients' });
    expect(screen.getAllByTestId('patient-skeleton-row').length).toBeGreaterThan(0);
    expect(screen.getByRole('heading', { level: 1, name: 'Patients' })).toBeTruthy();

    await waitFor(() => expect(rows()).toHaveLength(25));
    const headers = screen.getAllByRole('columnheader').map((th) => th.textContent);
    expect(headers).toEqual(['Patient ID', 'Name', 'Birth date', 'Sex', 'Records', 'Latest record']);
    expect(screen.getAllByRole('columnheader').every((th) => th.getAttribute('scope') === 'col')).toBe(true);
    // The most recently seen patient first.
    const first = within(rows()[0] as HTMLElement).getAllByRole('cell').map((cell) => cell.textContent);
    expect(first).toEqual(['P-0060', 'Patient 60', '04/09/61', 'Male', '3', '02/29/24']);
    expect(screen.getByTestId('patients-total').textContent).toBe('60 patients');
    expect(screen.getByTestId('page-indicator').textContent).toBe('Page 1 of 3');
  });

  it('searches by id or name once typing pauses', async () => {
    const user = userEvent.setup();
    const { client, fetchMock } = patientsServer();
    const { currentPath } = renderApp(<PatientsPage />, { api: client, path: '/patients' });
    await waitFor(() => expect(rows()).toHaveLength(25));

    await user.type(screen.getByRole('searchbox', { name: 'Search patients' }), 'ann');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(requests(fetchMock).map((query) => query.get('search'))).toEqual([null, 'ann']);
    expect(currentPath()).toBe('/patients?search=ann');
  });

  it('says when no patient matches', async () => {
    const user = userEvent.setup();
    const { client } = patientsServer();
    renderApp(<PatientsPage />, { api: client, path: '/patients' });
    await user.type(screen.getByRole('searchbox', { name: 'Search patients' }), 'zzz');
    expect(await screen.findByText('No patients match “zzz”')).toBeTruthy();
  });

  it('sorts by a column and tells assistive technology which way', async () => {
    const user = userEvent.setup();
    const { client, fetchMock } = patientsServer();
    renderApp(<PatientsPage />, { api: client, path: '/patients' });
    await waitFor(() => expect(rows()).toHaveLength(25));
    expect(screen.getByRole('columnheader', { name: /Latest record/ }).getAttribute('aria-sort')).toBe('descending');
    const nameHeader = screen.getByRole('columnheader', { name: /Name/ });
    expect(nameHeader.getAttribute('aria-sort')).toBe('none');

    // A name sorts from A first; a second click turns it.
    await user.click(within(nameHeader).getByRole('button'));
    await waitFor(() => expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('ascending'));
    expect(requests(fetchMock).at(-1)?.get('sort')).toBe('name');
    await user.click(within(screen.getByRole('columnheader', { name: /Name/ })).getByRole('button'));
    await waitFor(() => expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('descending'));
    expect(requests(fetchMock).at(-1)?.get('order')).toBe('desc');

    await user.click(within(screen.getByRole('columnheader', { name: /Birth date/ })).getByRole('button'));
    await waitFor(() => expect(screen.getByRole('columnheader', { name: /Birth date/ }).getAttribute('aria-sort')).toBe('ascending'));
    expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('none');
    expect(requests(fetchMock).at(-1)?.get('sort')).toBe('birthDate');
  });

  it('pages on the server and changes the page size', async () => {
    const user = userEvent.setup();
    const { client, fetchMock } = patientsServer();
    renderApp(<PatientsPage />, { api: client, path: '/patients?sort=patientId' });
    await waitFor(() => expect(rows()).toHaveLength(25));

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByTestId('page-indicator').textContent).toBe('Page 2 of 3'));
    await waitFor(() => expect(rows()[0]?.textContent).toContain('P-0026'));
    expect(requests(fetchMock).at(-1)?.get('page')).toBe('2');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Rows per page' }), '50');
    await waitFor(() => expect(rows()).toHaveLength(50));
    expect(screen.getByTestId('page-indicator').textContent).toBe('Page 1 of 2');
    expect(screen.getByRole('button', { name: 'Previous' }).hasAttribute('disabled')).toBe(true);
  });

  it('shows a failure with a Retry that works', async () => {
    const user = userEvent.setup();
    const { client } = patientsServer({ fail: 1 });
    renderApp(<PatientsPage />, { api: client, path: '/patients' });
    expect(await screen.findByText('The database is not reachable.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(rows()).toHaveLength(25));
  });

  it('opens a patient’s records by click or by Enter on the focused row', async () => {
    const user = userEvent.setup();
    const { client } = patientsServer();
    const { currentPath } = renderApp(<PatientsPage />, { api: client, path: '/patients?sort=patientId' });
    await waitFor(() => expect(rows()).toHaveLength(25));

    await user.click(screen.getByText('Ann Lee'));
    expect(currentPath()).toBe('/patients/P-0001/records');

    const second = rows()[1] as HTMLElement;
    const secondId = within(second).getAllByRole('cell')[0]!.textContent;
    second.focus();
    await user.keyboard('{Enter}');
    expect(currentPath()).toBe(`/patients/${secondId}/records`);
  });

  it('starts from the page and search in the address', async () => {
    const { client, fetchMock } = patientsServer();
    renderApp(<PatientsPage />, { api: client, path: '/patients?search=patient&page=2' });
    await waitFor(() => expect(screen.getByTestId('page-indicator').textContent).toBe('Page 2 of 3'));
    expect(requests(fetchMock)[0]?.get('search')).toBe('patient');
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('patient');
  });
});
