import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { batchSummary } from '../../../../src/web/features/upload/batch-result.tsx';
import { MAX_LISTED_FILES } from '../../../../src/web/features/upload/chosen-files.tsx';
import type { EntryLike } from '../../../../src/web/features/upload/folder-entries.ts';
import { FakeXhr, ID_1, ID_2, ID_3, dicom, fileInput, fileRows, importsServer, installFakeXhr, lastXhr, nextFrame, renderUpload, summary } from './upload-fixture.tsx';

installFakeXhr();

describe('the answer of a whole study', () => {
  it('follows every import of the upload, links each record, and lists the skipped files with their reasons', async () => {
    const user = userEvent.setup();
    const done = (importId: string, recordId: string, fileNames: string[]) =>
      summary({ importId, fileNames, status: 'done', framesDone: 40, patientId: 'P-9', recordId, finishedAt: '2026-03-12T10:16:00.000Z' });
    const server = importsServer({
      listed: [summary({ importId: ID_3, fileNames: ['older.dcm'], status: 'done', framesDone: 40, patientId: 'P-1', recordId: 'R-1', createdAt: '2026-03-11T10:00:00.000Z' })],
      progress: {
        [ID_1]: [summary({ importId: ID_1, fileNames: ['run1.dcm'], framesDone: 20 }), done(ID_1, 'R-10', ['run1.dcm'])],
        [ID_2]: [done(ID_2, 'R-11', ['run2.dcm', 'angio.dcm'])],
      },
    });
    renderUpload(server);
    await screen.findByTestId('import-item');
    await user.upload(fileInput(), [dicom('run1.dcm', 10), dicom('run2.dcm', 10), dicom('angio.dcm', 10), dicom('report.sr', 10)]);
    await user.click(screen.getByRole('button', { name: 'Upload 4 files' }));
    lastXhr().respond(202, {
      imports: [summary({ importId: ID_1, fileNames: ['run1.dcm'] }), summary({ importId: ID_2, fileNames: ['run2.dcm', 'angio.dcm'] })],
      skipped: [{ fileName: 'report.sr', code: 'unsupported_object', message: 'report.sr is a structured report, not an image.' }],
    });

    const batch = within(await screen.findByTestId('batch-result'));
    expect(batch.getByRole('heading', { name: 'This upload' })).toBeTruthy();
    expect(batch.getAllByTestId('import-item')).toHaveLength(2);
    expect(batch.getByTestId('batch-summary').textContent).toBe('2 records: 2 processing · 1 file not imported');
    const skipped = batch.getByRole('list', { name: 'Files not imported' });
    expect(within(skipped).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['report.sr: report.sr is a structured report, not an image.']);
    expect(batch.getByText('One file was not imported')).toBeTruthy();

    await waitFor(() => expect(batch.getByTestId('batch-summary').textContent).toBe('2 records: 2 done · 1 file not imported'));
    expect(batch.getAllByRole('link', { name: 'Open the record' }).map((link) => link.getAttribute('href'))).toEqual([
      '/patients/P-9/records/R-10/review',
      '/patients/P-9/records/R-11/review',
    ]);
    // Imports before this upload stay listed, once, under their own heading.
    const earlier = screen.getByRole('list', { name: 'Recent imports' });
    expect(within(earlier).getAllByTestId('import-item')).toHaveLength(1);
    expect(earlier.textContent).toContain('older.dcm');
    expect(screen.getByRole('heading', { name: 'Earlier imports' })).toBeTruthy();
    expect(fileRows()).toHaveLength(0);
  });

  it('counts the imports by state', () => {
    expect(batchSummary([summary({ status: 'done' }), summary({ status: 'failed' }), summary()])).toBe('3 records: 1 done, 1 processing, 1 failed');
    expect(batchSummary([summary({ status: 'done' })])).toBe('1 record: 1 done');
  });
});

/** A dropped folder as the browser hands it over: DataTransfer items with entries. */
function droppedFolder(files: Record<string, File>): { types: string[]; files: File[]; items: unknown[] } {
  const children: EntryLike[] = Object.entries(files).map(([name, file]) =>
    Object.assign({ isFile: true, isDirectory: false, name, fullPath: `/study/${name}` }, { file: (success: (f: File) => void) => success(file) }),
  );
  const folder = {
    isFile: false,
    isDirectory: true,
    name: 'study',
    fullPath: '/study',
    createReader: () => {
      let read = false;
      return { readEntries: (success: (entries: EntryLike[]) => void) => success(read ? [] : ((read = true), children)) };
    },
  };
  return { types: ['Files'], files: [], items: [{ kind: 'file', webkitGetAsEntry: () => folder }] };
}

describe('folders', () => {
  it('takes the files of a dropped folder, with their paths', async () => {
    renderUpload();
    const zone = screen.getByTestId('drop-zone');
    fireEvent.drop(zone, { dataTransfer: droppedFolder({ IM0001: dicom('IM0001', 10), DICOMDIR: dicom('DICOMDIR', 5), '.DS_Store': dicom('.DS_Store', 1) }) });
    await waitFor(() => expect(fileRows()).toHaveLength(2));
    expect(fileRows().map((row) => row.textContent)).toEqual([expect.stringContaining('study/DICOMDIR'), expect.stringContaining('study/IM0001')]);
    expect(screen.getByRole('button', { name: 'Remove study/IM0001' })).toBeTruthy();
  });

  it('says when a dropped folder holds no files', async () => {
    renderUpload();
    fireEvent.drop(screen.getByTestId('drop-zone'), { dataTransfer: droppedFolder({}) });
    expect((await screen.findByTestId('pick-note')).textContent).toBe('No files were found in what was dropped.');
  });

  it('opens a folder picker from a button the keyboard reaches', async () => {
    const user = userEvent.setup();
    renderUpload();
    const picker = screen.getByTestId('folder-input') as HTMLInputElement;
    expect(picker.webkitdirectory).toBe(true);
    let opened = 0;
    picker.addEventListener('click', () => (opened += 1));
    await nextFrame();
    await user.tab(); // the tabs (Files, From PACS)
    await user.tab();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Choose folder…' }));
    await user.keyboard('{Enter}');
    expect(opened).toBe(1);
  });

  it('lists a large study in part, and sends every file in one request', async () => {
    const user = userEvent.setup();
    renderUpload();
    const files = Array.from({ length: 120 }, (_, i) => dicom(`IM${String(i).padStart(4, '0')}`, 1024));
    await user.upload(fileInput(), files);
    expect(fileRows()).toHaveLength(MAX_LISTED_FILES);
    expect(screen.getByTestId('unlisted-files').textContent).toBe('and 70 more files (70 KiB)');
    await user.click(screen.getByRole('button', { name: 'Upload 120 files' }));
    expect(FakeXhr.sent).toHaveLength(1);
    expect(lastXhr().body?.getAll('files')).toHaveLength(120);
  });
});
