import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { UploadPage } from '../../../../src/web/features/upload/upload-page.tsx';
import { fileFractions, formatBytes } from '../../../../src/web/features/upload/upload-format.ts';
import { IMPORT_ERROR_CODES } from '../../../../src/domain/imports.ts';
import { fakeApi, renderApp } from '../../render.tsx';
import {
  FakeXhr,
  ID_1,
  ID_2,
  ID_3,
  batchOf,
  dicom,
  fileInput,
  fileRows,
  importItems,
  importsServer,
  lastXhr,
  nextFrame,
  renderUpload,
  summary,
  installFakeXhr,
} from './upload-fixture.tsx';

installFakeXhr();

describe('upload helpers', () => {
  it('writes sizes in binary units', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(812)).toBe('812 bytes');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(2 * 1024 ** 3)).toBe('2 GiB');
  });

  it('shares the bytes sent out over the files in order', () => {
    // Two files of 100 and 300 bytes, 40 bytes of multipart framing (20 before each).
    expect(fileFractions([100, 300], 0, 440)).toEqual([0, 0]);
    expect(fileFractions([100, 300], 70, 440)).toEqual([0.5, 0]);
    expect(fileFractions([100, 300], 290, 440)).toEqual([1, 0.5]);
    expect(fileFractions([100, 300], 440, 440)).toEqual([1, 1]);
  });
});

describe('the upload screen', () => {
  it('lists the chosen files with their sizes, once each, and lets one be removed', async () => {
    const user = userEvent.setup();
    renderUpload();
    expect(await screen.findByText('No imports yet')).toBeTruthy();

    const first = dicom('pullback.dcm', 3 * 1024 * 1024);
    await user.upload(fileInput(), [first, dicom('angio.dcm', 1536)]);
    await user.upload(fileInput(), [first]);
    expect(fileRows().map((row) => row.textContent)).toEqual([
      expect.stringContaining('pullback.dcm3 MiB'),
      expect.stringContaining('angio.dcm1.5 KiB'),
    ]);
    expect(screen.getByRole('button', { name: 'Upload 2 files' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Remove angio.dcm' }));
    expect(fileRows()).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Upload 1 file' })).toBeTruthy();
  });

  it('takes files dropped on the zone', async () => {
    renderUpload();
    const zone = screen.getByTestId('drop-zone');
    const files = [dicom('IM0001', 10), dicom('IM0002', 20)];
    fireEvent.dragOver(zone, { dataTransfer: { types: ['Files'], files } });
    expect(zone.getAttribute('data-dragging')).toBe('true');
    fireEvent.drop(zone, { dataTransfer: { types: ['Files'], files } });
    expect(fileRows()).toHaveLength(2);
    expect(zone.getAttribute('data-dragging')).toBeNull();
  });

  it('opens the file picker from a button the keyboard reaches', async () => {
    const user = userEvent.setup();
    renderUpload();
    const picker = fileInput();
    let opened = 0;
    picker.addEventListener('click', () => (opened += 1));
    // The tabs come first (Files, From PACS: one stop), then the drop zone's buttons.
    await nextFrame();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Files' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Choose files…' }));
    await user.keyboard('{Enter}');
    expect(opened).toBe(1);
    expect(picker.multiple).toBe(true);
  });

  it('refuses a file over the size limit before sending anything', async () => {
    const user = userEvent.setup();
    renderUpload();
    const huge = dicom('huge.dcm', 10);
    Object.defineProperty(huge, 'size', { value: 3 * 1024 ** 3 });
    await user.upload(fileInput(), [huge, dicom('small.dcm', 10)]);

    const row = within(fileRows()[0]!);
    expect(row.getByTestId('file-error').textContent).toBe(
      'This file is 3 GiB: larger than the upload limit of 2 GiB per file. Remove it to upload the others.',
    );
    expect(within(fileRows()[1]!).queryByTestId('file-error')).toBeNull();
    const button = screen.getByRole('button', { name: 'Upload 2 files' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(screen.getByText('One file is over the upload limit: remove it to upload.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Remove huge.dcm' }));
    expect((screen.getByRole('button', { name: 'Upload 1 file' }) as HTMLButtonElement).disabled).toBe(false);
    expect(FakeXhr.sent).toHaveLength(0);
  });

  it('sends the files as one multipart request with per-file progress, then follows the processing to the record', async () => {
    const user = userEvent.setup();
    const server = importsServer({
      progress: {
        [ID_1]: [
          summary({ fileNames: ['pullback.dcm', 'angio.dcm'], framesDone: 20 }),
          summary({ fileNames: ['pullback.dcm', 'angio.dcm'], framesDone: 40, status: 'done', patientId: 'IMP-001', recordId: 'R-77', finishedAt: '2026-03-12T10:16:00.000Z', warnings: ['No pullback rate in the file: 0.5 mm/s assumed.'] }),
        ],
      },
    });
    renderUpload(server);
    await screen.findByText('No imports yet');
    await user.upload(fileInput(), [dicom('pullback.dcm', 100), dicom('angio.dcm', 300)]);
    await user.click(screen.getByRole('button', { name: 'Upload 2 files' }));

    const xhr = lastXhr();
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/demo/imports');
    expect(xhr.headers.Authorization).toBe('Bearer id.token.sig');
    expect(xhr.body?.getAll('files').map((part) => (part as File).name)).toEqual(['pullback.dcm', 'angio.dcm']);
    expect(screen.getByRole('button', { name: 'Choose files…' })).toHaveProperty('disabled', true);

    xhr.progress(290, 440);
    const first = await screen.findByRole('progressbar', { name: 'Upload of pullback.dcm' });
    await waitFor(() => expect(first.getAttribute('aria-valuenow')).toBe('100'));
    expect(screen.getByRole('progressbar', { name: 'Upload of angio.dcm' }).getAttribute('aria-valuenow')).toBe('50');
    expect(screen.getByTestId('upload-status').textContent).toBe('Uploading 2 files: 66%');

    xhr.respond(202, batchOf(summary({ fileNames: ['pullback.dcm', 'angio.dcm'] })));
    await waitFor(() => expect(fileRows()).toHaveLength(0));
    expect(importItems()).toHaveLength(1);
    const item = within(importItems()[0]!);
    expect(item.getByText('pullback.dcm, angio.dcm')).toBeTruthy();

    await waitFor(() => expect(item.getByTestId('import-status').textContent).toBe('Done'));
    expect(server.polls).toContain(ID_1);
    expect(item.getByTestId('import-progress').textContent).toBe('40 frames imported for patient IMP-001.');
    expect(item.getByRole('link', { name: 'Open the record' }).getAttribute('href')).toBe('/patients/IMP-001/records/R-77/review');
    expect(item.getByRole('link', { name: 'Records of patient IMP-001' }).getAttribute('href')).toBe('/patients/IMP-001/records');
    expect(item.getByText('No pullback rate in the file: 0.5 mm/s assumed.')).toBeTruthy();

    // Finished imports are no longer asked for.
    const polled = server.polls.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.polls.length).toBe(polled);
  });

  it('shows the decoding progress while the server processes', async () => {
    const user = userEvent.setup();
    const server = importsServer({ progress: { [ID_1]: [summary({ framesDone: 12, framesTotal: 400 })] } });
    renderUpload(server);
    await user.upload(fileInput(), [dicom('pullback.dcm', 100)]);
    await user.click(screen.getByRole('button', { name: 'Upload 1 file' }));
    lastXhr().respond(202, batchOf(summary({ framesTotal: 400 })));

    const item = await screen.findByTestId('import-item');
    await waitFor(() => expect(within(item).getByTestId('import-progress').textContent).toBe('Decoding frames: 12 of 400'));
    expect(within(item).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('3');
    expect(within(item).getByTestId('import-status').textContent).toBe('Processing');
  });

  it("shows the server's refusal next to the file it names, keeps the files, and uploads again", async () => {
    const user = userEvent.setup();
    renderUpload();
    await user.upload(fileInput(), [dicom('pullback.dcm', 100), dicom('notes.txt', 10)]);
    await user.click(screen.getByRole('button', { name: 'Upload 2 files' }));
    lastXhr().respond(415, { error: 'not_dicom', message: 'notes.txt is not a DICOM file (no DICM marker).', fileName: 'notes.txt' });

    await screen.findByTestId('file-error');
    const row = within(fileRows()[1]!);
    expect(row.getByText('notes.txt')).toBeTruthy();
    expect(row.getByText(IMPORT_ERROR_CODES.not_dicom)).toBeTruthy();
    expect(row.getByText('notes.txt is not a DICOM file (no DICM marker).')).toBeTruthy();
    expect(within(fileRows()[0]!).queryByTestId('file-error')).toBeNull();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByText('Nothing was imported. Remove or replace the file, then upload again.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Remove notes.txt' }));
    expect(screen.queryByTestId('file-error')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Upload 1 file' }));
    expect(FakeXhr.sent).toHaveLength(2);
    expect(lastXhr().body?.getAll('files').map((part) => (part as File).name)).toEqual(['pullback.dcm']);
  });

  it('shows a refusal that names no file above the list', async () => {
    const user = userEvent.setup();
    renderUpload();
    await user.upload(fileInput(), [dicom('a.dcm', 100), dicom('b.dcm', 100)]);
    await user.click(screen.getByRole('button', { name: 'Upload 2 files' }));
    lastXhr().respond(409, { error: 'conflicting_files', message: 'a.dcm and b.dcm belong to different patients.', fileName: null });

    const alert = await screen.findByTestId('error-state');
    expect(alert.textContent).toContain('The upload was refused');
    expect(alert.textContent).toContain(IMPORT_ERROR_CODES.conflicting_files);
    expect(alert.textContent).toContain('a.dcm and b.dcm belong to different patients.');
    expect(fileRows()).toHaveLength(2);
  });

  it('offers Retry after a network failure and sends the same files again', async () => {
    const user = userEvent.setup();
    renderUpload();
    await user.upload(fileInput(), [dicom('pullback.dcm', 100)]);
    await user.click(screen.getByRole('button', { name: 'Upload 1 file' }));
    lastXhr().progress(50, 300);
    lastXhr().fail();

    const alert = await screen.findByTestId('error-state');
    expect(alert.textContent).toContain('The upload did not reach the server');
    expect(screen.queryByRole('progressbar')).toBeNull();
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(FakeXhr.sent).toHaveLength(2);
    expect(screen.queryByTestId('error-state')).toBeNull();
    lastXhr().respond(202, batchOf(summary()));
    await waitFor(() => expect(importItems()).toHaveLength(1));
  });

  it('cancels an upload still sending and leaves the files to send again', async () => {
    const user = userEvent.setup();
    renderUpload();
    await user.upload(fileInput(), [dicom('pullback.dcm', 100)]);
    await user.click(screen.getByRole('button', { name: 'Upload 1 file' }));
    await user.click(screen.getByRole('button', { name: 'Cancel upload' }));
    expect(lastXhr().aborted).toBe(true);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByRole('button', { name: 'Upload 1 file' })).toBeTruthy();
  });

  it('lists recent imports newest first when coming back, still following the one processing', async () => {
    const server = importsServer({
      listed: [
        summary({ importId: ID_3, fileNames: ['new.dcm'], framesDone: 5, createdAt: '2026-03-12T12:00:00.000Z' }),
        summary({
          importId: ID_2,
          fileNames: ['broken.dcm'],
          status: 'failed',
          error: { code: 'decode_failed', message: 'Frame 7 of broken.dcm could not be decoded.' },
          createdAt: '2026-03-12T11:00:00.000Z',
        }),
        summary({ importId: ID_1, fileNames: ['old.dcm'], status: 'done', framesDone: 40, patientId: 'P-1', recordId: 'R-1', createdAt: '2026-03-12T10:00:00.000Z' }),
      ],
      progress: { [ID_3]: [summary({ importId: ID_3, fileNames: ['new.dcm'], framesDone: 30, createdAt: '2026-03-12T12:00:00.000Z' }), summary({ importId: ID_3, fileNames: ['new.dcm'], status: 'done', framesDone: 40, patientId: 'P-2', recordId: 'R-2', createdAt: '2026-03-12T12:00:00.000Z' })] },
    });
    renderUpload(server);
    await waitFor(() => expect(importItems()).toHaveLength(3));
    expect(importItems().map((item) => within(item).getByTestId('import-status').textContent)).toEqual(['Processing', 'Failed', 'Done']);
    expect(importItems()[0]!.textContent).toContain('new.dcm');
    expect(importItems()[0]!.textContent).toContain('Decoding frames: 5 of 40');

    const failed = within(importItems()[1]!);
    expect(failed.getByText(IMPORT_ERROR_CODES.decode_failed)).toBeTruthy();
    expect(failed.getByText('Frame 7 of broken.dcm could not be decoded.')).toBeTruthy();
    expect(failed.getByText(/Choose the files again above to retry/)).toBeTruthy();

    await waitFor(() => expect(within(importItems()[0]!).getByTestId('import-status').textContent).toBe('Done'));
    expect(within(importItems()[0]!).getByRole('link', { name: 'Open the record' }).getAttribute('href')).toBe('/patients/P-2/records/R-2/review');
    expect(new Set(server.polls)).toEqual(new Set([ID_3]));
  });

  it('shows a background failure and sends the same files again from it', async () => {
    const user = userEvent.setup();
    const server = importsServer({
      progress: {
        [ID_1]: [summary({ status: 'failed', error: { code: 'interrupted', message: IMPORT_ERROR_CODES.interrupted }, finishedAt: '2026-03-12T10:16:00.000Z' })],
      },
    });
    renderUpload(server);
    await user.upload(fileInput(), [dicom('pullback.dcm', 100)]);
    await user.click(screen.getByRole('button', { name: 'Upload 1 file' }));
    lastXhr().respond(202, batchOf(summary()));

    const item = await screen.findByTestId('import-item');
    await waitFor(() => expect(within(item).getByTestId('import-status').textContent).toBe('Failed'));
    expect(within(item).getByTestId('import-error').textContent).toContain(IMPORT_ERROR_CODES.interrupted);
    await user.click(within(item).getByRole('button', { name: 'Upload these files again' }));
    expect(FakeXhr.sent).toHaveLength(2);
    expect(lastXhr().body?.getAll('files').map((part) => (part as File).name)).toEqual(['pullback.dcm']);
    expect(fileRows()).toHaveLength(1);
  });

  it('says when the recent imports cannot be loaded, with Retry', async () => {
    let fail = true;
    const server = fakeApi(() =>
      fail ? Response.json({ error: 'internal', message: 'The database is away.' }, { status: 500 }) : Response.json({ imports: [] }),
    );
    const user = userEvent.setup();
    renderApp(<UploadPage />, { api: server.client });
    const alert = await screen.findByTestId('error-state');
    expect(alert.textContent).toContain('The database is away.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No imports yet')).toBeTruthy();
  });
});
