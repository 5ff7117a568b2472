import { afterEach, beforeEach } from 'vitest';
import { screen } from '@testing-library/react';
import { UploadPage } from '../../../../src/web/features/upload/upload-page.tsx';
import type { ImportSummary } from '../../../../src/domain/imports.ts';
import type { PatientSummary } from '../../../../src/domain/patients.ts';
import { fakeApi, renderApp } from '../../render.tsx';

/** A stand-in for XMLHttpRequest that the test drives: progress, then an answer or a failure. */
export class FakeXhr extends EventTarget {
  static sent: FakeXhr[] = [];
  readonly upload = new EventTarget();
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  aborted = false;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {
    this.aborted = true;
    this.dispatchEvent(new ProgressEvent('abort'));
  }
  progress(loaded: number, total: number) {
    this.upload.dispatchEvent(new ProgressEvent('progress', { lengthComputable: true, loaded, total }));
  }
  respond(status: number, body: unknown) {
    this.upload.dispatchEvent(new ProgressEvent('load'));
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.dispatchEvent(new ProgressEvent('load'));
  }
  fail() {
    this.dispatchEvent(new ProgressEvent('error'));
  }
}

export const lastXhr = () => {
  const xhr = FakeXhr.sent.at(-1);
  if (!xhr) throw new Error('nothing was uploaded');
  return xhr;
};

export const ID_1 = '0b6f6a4e-3f0e-4c1a-9d8e-2a4b5c6d7e81';
export const ID_2 = '0b6f6a4e-3f0e-4c1a-9d8e-2a4b5c6d7e82';
export const ID_3 = '0b6f6a4e-3f0e-4c1a-9d8e-2a4b5c6d7e83';

export function summary(changes: Partial<ImportSummary> = {}): ImportSummary {
  return {
    importId: ID_1,
    status: 'processing',
    fileNames: ['pullback.dcm'],
    framesDone: 0,
    framesTotal: 40,
    error: null,
    warnings: [],
    patientId: null,
    recordId: null,
    source: 'upload',
    sourceName: null,
    createdAt: '2026-03-12T10:15:00.000Z',
    finishedAt: null,
    ...changes,
  };
}

/**
 * The imports API: the list answers `listed`; each GET of one import takes the next answer of its
 * queue (the last one repeats).
 */
export function importsServer({
  listed = [] as ImportSummary[],
  progress = {} as Record<string, ImportSummary[]>,
  patients = [] as PatientSummary[],
} = {}) {
  const polls: string[] = [];
  const searches: string[] = [];
  const fake = fakeApi((url) => {
    const path = url.pathname.replace(/^\/api\/demo\//, '');
    if (path === 'imports') return Response.json({ imports: listed });
    if (path === 'patients') {
      const search = (url.searchParams.get('search') ?? '').toLowerCase();
      searches.push(search);
      const items = patients.filter(({ patientId, name }) => `${patientId} ${name}`.toLowerCase().includes(search));
      return Response.json({ items, total: items.length, page: 1, pageSize: 10 });
    }
    const importId = path.replace(/^imports\//, '');
    polls.push(importId);
    const queue = progress[importId];
    if (!queue || queue.length === 0) return Response.json({ error: 'not_found', message: 'No such import' }, { status: 404 });
    const answer = queue.length > 1 ? queue.shift()! : queue[0]!;
    return Response.json(answer);
  });
  return { ...fake, polls, searches };
}

/** The 202 answer of POST imports: one import per record, and the files skipped. */
export const batchOf = (...imports: ImportSummary[]) => ({ imports, skipped: [] });

export const dicom = (name: string, size: number) => new File([new Uint8Array(size)], name, { type: 'application/dicom' });

export function renderUpload(server = importsServer(), props: Parameters<typeof UploadPage>[0] = {}) {
  return renderApp(<UploadPage pollIntervalMs={10} {...props} />, { api: server.client, path: '/upload' });
}

export const fileInput = () => screen.getByTestId('file-input') as HTMLInputElement;
export const fileRows = () => screen.queryAllByTestId('chosen-file');
export const importItems = () => screen.queryAllByTestId('import-item');

/** Puts FakeXhr in place of XMLHttpRequest around every test of the calling file. */
export function installFakeXhr(): void {
  beforeEach(() => {
    FakeXhr.sent = [];
    globalThis.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest;
  });
  const realXhr = globalThis.XMLHttpRequest;
  afterEach(() => {
    globalThis.XMLHttpRequest = realXhr;
  });
}

/**
 * Waits one animation frame: the tabs of the page (zag) settle in a frame after they render (the
 * panel gives up its own tab stop once it holds focusable buttons). A person never presses Tab
 * before that; a test that does would tab into a stop that is about to vanish.
 */
export const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
