import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IMPORT_ERROR_CODES } from '../../../../src/domain/imports.ts';
import { UploadPage } from '../../../../src/web/features/upload/upload-page.tsx';
import { renderApp } from '../../render.tsx';
import { ORTHANC, pacsServer, problem, progressLine, pullAnswer, pullStream, resultLine } from '../pacs-fixture.ts';
import { ID_1, ID_2, batchOf, summary } from './upload-fixture.tsx';

type Server = ReturnType<typeof pacsServer>;

async function openFromPacs(server: Server = pacsServer()) {
  const user = userEvent.setup();
  renderApp(<UploadPage pollIntervalMs={10} patientSearchDebounceMs={0} />, { api: server.client, path: '/upload' });
  await user.click(screen.getByRole('tab', { name: 'From PACS' }));
  return { user, server };
}

const studyRows = () => screen.queryAllByTestId('pacs-study');
const seriesRows = () => screen.queryAllByTestId('pacs-series-row');
const gets = (server: Server, part: string) => server.requests().filter(({ call }) => call.startsWith('GET') && call.includes(part)).map(({ call }) => call);
const seriesLists = (server: Server) => gets(server, '/series').filter((call) => call.endsWith('/series'));
const pacsPanel = () => within(screen.getByRole('tabpanel', { name: 'From PACS' }));
const pulls = (server: Server) => server.changes().filter(({ call }) => call.endsWith('/pull'));

/** Searches with the empty form and shows the series of the one study. */
async function showSeries(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Search' }));
  await waitFor(() => expect(studyRows()).toHaveLength(1));
  await user.click(within(studyRows()[0]!).getByRole('button', { name: 'Show series' }));
  await waitFor(() => expect(seriesRows()).toHaveLength(3));
}

describe('Upload → From PACS', () => {
  it('keeps the file upload on its own tab', async () => {
    const server = pacsServer();
    renderApp(<UploadPage />, { api: server.client, path: '/upload' });
    expect(screen.getByRole('tab', { name: 'Files', selected: true })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Choose files…' })).toBeTruthy();
    // The PACS is asked nothing until its tab is opened.
    expect(gets(server, 'pacs')).toEqual([]);
  });

  it('tells the user that an administrator adds a connection when there is none', async () => {
    await openFromPacs(pacsServer({ connections: [] }));
    const empty = await pacsPanel().findByTestId('empty-state');
    expect(empty.textContent).toContain('No PACS connection yet');
    expect(empty.textContent).toContain('An administrator adds');
    expect(empty.textContent).toContain('Users → PACS');
    expect(screen.queryByRole('search')).toBeNull();
  });

  it('searches with the form’s values on Enter and lists the studies found', async () => {
    const { user, server } = await openFromPacs(pacsServer({ truncated: true }));
    const form = within(await screen.findByRole('search', { name: 'Search the PACS' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'PACS' }), 'Archive');
    await user.type(form.getByRole('textbox', { name: 'Patient name' }), 'Nguyen');
    await user.type(form.getByLabelText('Study date from'), '2026-01-01');
    await user.type(form.getByLabelText('Study date to'), '2026-03-01');
    await user.selectOptions(form.getByRole('combobox', { name: 'Modality' }), 'IVUS');
    await user.type(form.getByRole('textbox', { name: 'Patient ID' }), 'PAT-7{Enter}');

    await waitFor(() => expect(studyRows()).toHaveLength(1));
    expect(gets(server, '/studies')).toEqual([
      'GET /api/demo/pacs/connections/aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa2/studies?patientId=PAT-7&patientName=Nguyen&from=2026-01-01&to=2026-03-01&modality=IVUS',
    ]);
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Patient', 'Birth date', 'Study date', 'Description', 'Modalities', 'Series', 'Action']);
    expect(within(studyRows()[0]!).getAllByRole('cell').map((cell) => cell.textContent).slice(0, 6)).toEqual([
      'Nguyen, LinhPAT-7',
      '02/03/58',
      '02/20/26',
      'Coronary IVUS',
      'IVUS, XA',
      '3',
    ]);
    expect(screen.getByTestId('pacs-studies-count').textContent).toBe('1 study found');
    expect(screen.getByTestId('pacs-truncated').textContent).toBe('More studies than shown: narrow the search.');
  });

  it('refuses a date range that ends before it starts, without asking the PACS', async () => {
    const { user, server } = await openFromPacs();
    const form = within(await screen.findByRole('search'));
    await user.type(form.getByLabelText('Study date from'), '2026-03-01');
    await user.type(form.getByLabelText('Study date to'), '2026-01-01');
    await user.click(form.getByRole('button', { name: 'Search' }));
    expect(form.getByText('The first date is after the last one.')).toBeTruthy();
    expect(gets(server, '/studies')).toEqual([]);
  });

  it('says when no study matches, and offers Retry when the PACS fails', async () => {
    const server = pacsServer({ studies: [] });
    let failures = 1;
    server.override((_url, _init, path) =>
      path.endsWith('/studies') && failures-- > 0 ? problem('pacs_unreachable', 'The PACS did not answer: connect ECONNREFUSED 10.0.0.9:8042') : undefined,
    );
    const { user } = await openFromPacs(server);
    await user.click(await screen.findByRole('button', { name: 'Search' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Orthanc could not be searched');
    expect(alert.textContent).toContain('The PACS did not answer: connect ECONNREFUSED 10.0.0.9:8042');
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect((await pacsPanel().findByTestId('empty-state')).textContent).toContain('No studies match');
  });

  it('lists the series of a study with previews and frame counts; imported ones cannot be chosen', async () => {
    const server = pacsServer();
    server.override((_url, _init, path) => (path.endsWith('1.2.840.1.3/thumbnail') ? problem('not_found', 'The PACS cannot render a preview of this series.', 404) : undefined));
    let made = 0;
    const created = vi.spyOn(URL, 'createObjectURL').mockImplementation(() => `blob:preview-${++made}`);
    const revoked = vi.spyOn(URL, 'revokeObjectURL');
    const { user } = await openFromPacs(server);
    await showSeries(user);

    expect(seriesLists(server)).toEqual([`GET /api/demo/pacs/connections/${ORTHANC.id}/studies/1.2.840.1/series`]);
    const cells = seriesRows().map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent).slice(2));
    expect(cells).toEqual([
      ['IVUS', 'LAD pullback', '1', '2,400', '1', ''],
      ['XA', 'Angio run', '2', '60', '1', 'Already imported'],
      ['SR', 'Measurements', '3', '0', '1', ''],
    ]);
    const [ivus, angio, report] = seriesRows().map((row) => within(row).getByRole('checkbox') as HTMLInputElement);
    // What the app imports starts checked; what is already imported cannot be checked at all.
    expect([ivus!.checked, angio!.checked, report!.checked]).toEqual([true, false, false]);
    expect(angio!.disabled).toBe(true);
    expect(ivus!.getAttribute('aria-label')).toBe('Import IVUS series 1: LAD pullback');

    await waitFor(() => expect(screen.getAllByTestId('pacs-thumbnail')).toHaveLength(2));
    expect(within(seriesRows()[2]!).getByRole('img', { name: 'No preview of SR series 3: Measurements' }).textContent).toBe('No preview');
    expect(screen.getByTestId('pacs-chosen-count').textContent).toBe('1 series chosen');

    // A new search takes the series away, and their preview images are freed.
    expect(screen.getAllByTestId('pacs-thumbnail').map((image) => image.getAttribute('src'))).toEqual(['blob:preview-1', 'blob:preview-2']);
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(seriesRows()).toHaveLength(0));
    expect(revoked.mock.calls.map(([url]) => url).sort()).toEqual(['blob:preview-1', 'blob:preview-2']);
    created.mockRestore();
    revoked.mockRestore();
  });

  it('pulls the checked series, asks for the patient when they have no Patient ID, and pulls them again with the patient', async () => {
    const done = summary({ importId: ID_1, status: 'done', framesDone: 2400, framesTotal: 2400, fileNames: ['1.2.840.9.dcm'], patientId: 'NEW-1', recordId: 'r-1', source: 'pacs', sourceName: 'Orthanc' });
    const server = pacsServer({ progress: { [ID_1]: done } });
    // The answers stream the retrieval's progress, then end with the status and body of the pull.
    const answers = [
      pullAnswer(
        progressLine(0, 2, 0),
        progressLine(2, 2, 4096),
        resultLine(422, { error: 'patient_id_required', message: IMPORT_ERROR_CODES.patient_id_required, fileName: null, filesWithoutPatientId: ['1.2.840.9.dcm'] }),
      ),
      pullAnswer(resultLine(202, batchOf(summary({ importId: ID_1, fileNames: ['1.2.840.9.dcm'], framesTotal: 2400, source: 'pacs', sourceName: 'Orthanc' })))),
    ];
    server.override((_url, _init, path) => (path.endsWith('/pull') ? answers.shift() : undefined));
    const { user } = await openFromPacs(server);
    await showSeries(user);
    await user.click(within(seriesRows()[2]!).getByRole('checkbox'));
    await user.click(within(seriesRows()[0]!).getByRole('checkbox'));
    await user.click(within(seriesRows()[0]!).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Import selected series' }));

    const chooser = within(await screen.findByTestId('patient-chooser'));
    expect(chooser.getByRole('heading', { name: 'Which patient are these series of?' })).toBeTruthy();
    expect(chooser.getByText(/These series have no usable Patient ID: IVUS series 1: LAD pullback, SR series 3: Measurements\./)).toBeTruthy();
    expect(pulls(server)).toEqual([
      { call: `POST /api/demo/pacs/connections/${ORTHANC.id}/pull`, body: { studyInstanceUid: '1.2.840.1', seriesInstanceUids: ['1.2.840.1.1', '1.2.840.1.3'] } },
    ]);

    await user.click(chooser.getByRole('tab', { name: 'New patient' }));
    const form = within(chooser.getByRole('form', { name: 'New patient' }));
    await user.type(form.getByRole('textbox', { name: /Patient ID/ }), 'NEW-1');
    await user.type(form.getByRole('textbox', { name: /Name/ }), 'Doe, Jane');
    await user.click(form.getByRole('button', { name: 'Create the patient and import' }));

    await waitFor(() => expect(pulls(server)).toHaveLength(2));
    expect(pulls(server)[1]!.body).toEqual({
      studyInstanceUid: '1.2.840.1',
      seriesInstanceUids: ['1.2.840.1.1', '1.2.840.1.3'],
      patientId: 'NEW-1',
      patientName: 'Doe, Jane',
    });
    await waitFor(() => expect(screen.queryByTestId('patient-chooser')).toBeNull());
    expect(await screen.findByText('2 series retrieved from Orthanc')).toBeTruthy();

    // The import is followed as an upload's is, under its source.
    const batch = within(screen.getByTestId('batch-result'));
    expect(batch.getByRole('heading', { name: 'This import' })).toBeTruthy();
    expect(batch.getByText('From PACS Orthanc')).toBeTruthy();
    await waitFor(() => expect(batch.getByTestId('import-status').textContent).toBe('Done'));
    expect(batch.getByRole('link', { name: 'Open the record' }).getAttribute('href')).toBe('/patients/NEW-1/records/r-1/review');
    // The series list is asked again, so the series just pulled show as imported.
    await waitFor(() => expect(seriesLists(server)).toHaveLength(2));
  });

  it('shows the PACS problem of a pull with Retry, which pulls the same series again', async () => {
    const server = pacsServer();
    const answers = [
      pullAnswer(resultLine(404, { error: 'pacs_series_not_found', message: 'The PACS does not have this series: 1.2.840.1.1' })),
      pullAnswer(resultLine(202, batchOf(summary({ importId: ID_2, source: 'pacs', sourceName: 'Orthanc' })))),
    ];
    server.override((_url, _init, path) => (path.endsWith('/pull') ? answers.shift() : undefined));
    const { user } = await openFromPacs(server);
    await showSeries(user);
    await user.click(screen.getByRole('button', { name: 'Import selected series' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Orthanc could not give the series');
    expect(alert.textContent).toContain('The PACS does not have this series: 1.2.840.1.1');
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(pulls(server)).toHaveLength(2));
    expect(pulls(server)[1]!.body).toEqual(pulls(server)[0]!.body);
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('pulls the same series again when their import fails on the server', async () => {
    const failed = summary({ importId: ID_1, status: 'failed', error: { code: 'decode_failed', message: 'Frame 12 could not be decoded.' }, source: 'pacs', sourceName: 'Orthanc' });
    const server = pacsServer({ progress: { [ID_1]: failed } });
    const answers = [
      pullAnswer(resultLine(202, batchOf(summary({ importId: ID_1, source: 'pacs', sourceName: 'Orthanc' })))),
      pullAnswer(resultLine(202, batchOf(summary({ importId: ID_2, source: 'pacs', sourceName: 'Orthanc' })))),
    ];
    server.override((_url, _init, path) => (path.endsWith('/pull') ? answers.shift() : undefined));
    const { user } = await openFromPacs(server);
    await showSeries(user);
    await user.click(screen.getByRole('button', { name: 'Import selected series' }));

    const error = await screen.findByTestId('import-error');
    expect(error.textContent).toContain(IMPORT_ERROR_CODES.decode_failed);
    await user.click(within(error).getByRole('button', { name: 'Retrieve these series again' }));
    await waitFor(() => expect(pulls(server)).toHaveLength(2));
    expect(pulls(server)[1]!.body).toEqual({ studyInstanceUid: '1.2.840.1', seriesInstanceUids: ['1.2.840.1.1'] });
  });

  it('shows how far the retrieval from the PACS is, then the batch', async () => {
    const server = pacsServer();
    const stream = pullStream();
    server.override((_url, _init, path) => (path.endsWith('/pull') ? stream.response : undefined));
    const { user } = await openFromPacs(server);
    await showSeries(user);
    await user.click(screen.getByRole('button', { name: 'Import selected series' }));

    const text = () => screen.getByTestId('pacs-pull-progress').textContent;
    await waitFor(() => expect(text()).toMatch(/^Retrieving 1 series from Orthanc: the PACS sends every image/));
    expect(pulls(server)[0]!.call).toBe(`POST /api/demo/pacs/connections/${ORTHANC.id}/pull`);
    expect(server.fetchMock.mock.calls.at(-1)?.[1]?.headers).toMatchObject({ Accept: 'application/x-ndjson' });
    // The button stays disabled while the series are retrieved.
    expect((screen.getByRole('button', { name: /Retrieving from the PACS/ }) as HTMLButtonElement).disabled).toBe(true);

    stream.send(progressLine(0, 3, 0), progressLine(2, 3, 145 * 1024 * 1024));
    await waitFor(() => expect(text()).toBe('Retrieving from Orthanc: 2 of 3 instances, 145 MiB'));
    const bar = screen.getByRole('progressbar', { name: 'Retrieval from Orthanc' });
    expect(bar.getAttribute('aria-valuenow')).toBe('67');
    expect(bar.getAttribute('aria-valuetext')).toBe('Retrieving from Orthanc: 2 of 3 instances, 145 MiB');
    // Announced as the upload's progress is: politely.
    expect(screen.getByTestId('pacs-pull-progress').closest('[aria-live="polite"]')).not.toBeNull();

    stream.send(progressLine(3, 3, 150.5 * 1024 * 1024));
    await waitFor(() => expect(text()).toBe('Retrieved 3 instances from Orthanc (150.5 MiB): the server is checking them…'));
    expect(bar.getAttribute('aria-valuenow')).toBe('100');

    stream.send(resultLine(202, batchOf(summary({ importId: ID_1, source: 'pacs', sourceName: 'Orthanc' }))));
    expect(await screen.findByText('1 series retrieved from Orthanc')).toBeTruthy();
    expect(screen.queryByTestId('pacs-pull-progress')).toBeNull();
    expect(screen.queryByRole('progressbar', { name: 'Retrieval from Orthanc' })).toBeNull();
    expect(within(screen.getByTestId('batch-result')).getByText('From PACS Orthanc')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Import selected series' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('says the request did not reach the server when the answer is cut before its result', async () => {
    const server = pacsServer();
    const streams = [pullStream(), pullStream()];
    const answers = [...streams];
    server.override((_url, _init, path) => (path.endsWith('/pull') ? answers.shift()?.response : undefined));
    const { user } = await openFromPacs(server);
    await showSeries(user);
    await user.click(screen.getByRole('button', { name: 'Import selected series' }));

    // The connection is lost in the middle of the retrieval…
    streams[0]!.send(progressLine(1, 2, 2048));
    await waitFor(() => expect(screen.getByTestId('pacs-pull-progress').textContent).toBe('Retrieving from Orthanc: 1 of 2 instances, 2 KiB'));
    streams[0]!.cut();
    let alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The request did not reach the server');
    expect(alert.textContent).toContain('Check the connection and try again.');
    expect(screen.queryByTestId('pacs-pull-progress')).toBeNull();

    // …or the answer ends without saying how the pull ended.
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(pulls(server)).toHaveLength(2));
    streams[1]!.send(progressLine(2, 2, 4096));
    streams[1]!.end();
    alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The request did not reach the server');
    expect(screen.queryByText(/retrieved from Orthanc/)).toBeNull();
  });

  it('shows an error answered before the retrieval starts, as a plain JSON answer', async () => {
    const server = pacsServer();
    server.override((_url, _init, path) => (path.endsWith('/pull') ? problem('bad_request', 'seriesInstanceUids: choose at least one series', 400) : undefined));
    const { user } = await openFromPacs(server);
    await showSeries(user);
    await user.click(screen.getByRole('button', { name: 'Import selected series' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The import from the PACS failed');
    expect(alert.textContent).toContain('seriesInstanceUids: choose at least one series');
  });

  it('names where each recent import came from', async () => {
    const listed = [
      summary({ importId: ID_1, status: 'done', source: 'pacs', sourceName: 'Orthanc', fileNames: ['1.2.3.dcm', '1.2.4.dcm'] }),
      summary({ importId: ID_2, status: 'done', source: 'dimse', sourceName: 'CATHLAB1', fileNames: ['1.2.5.dcm'] }),
    ];
    renderApp(<UploadPage pollIntervalMs={10} />, { api: pacsServer({ listed }).client, path: '/upload' });
    await waitFor(() => expect(screen.getAllByTestId('import-item')).toHaveLength(2));
    const [pulled, pushed] = screen.getAllByTestId('import-item');
    expect(within(pulled!).getByText('From PACS Orthanc')).toBeTruthy();
    expect(within(pulled!).getByText(/^2 DICOM files · Started/)).toBeTruthy();
    expect(within(pushed!).getByText('Pushed by CATHLAB1 (DICOM)')).toBeTruthy();
  });
});
