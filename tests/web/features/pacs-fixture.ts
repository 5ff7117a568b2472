import type { DicomCaller, DicomCallerList } from '../../../src/domain/dicom-callers.ts';
import type { ImportSummary } from '../../../src/domain/imports.ts';
import type { PacsConnection, PacsSeries, PacsStudy } from '../../../src/domain/pacs.ts';
import type { PatientSummary } from '../../../src/domain/patients.ts';
import { fakeApi } from '../render.tsx';

export const ORTHANC: PacsConnection = {
  id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa1',
  name: 'Orthanc',
  qidoUrl: 'http://orthanc.example:8042/dicom-web',
  wadoUrl: 'http://orthanc.example:8042/dicom-web',
  stowUrl: 'http://orthanc.example:8042/dicom-web',
  authKind: 'basic',
  hasCredentials: true,
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
};

export const ARCHIVE: PacsConnection = {
  id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa2',
  name: 'Archive',
  qidoUrl: 'https://archive.example/qido',
  wadoUrl: 'https://archive.example/wado',
  stowUrl: 'https://archive.example/qido',
  authKind: 'none',
  hasCredentials: false,
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
};

export const CATHLAB: DicomCaller = {
  id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbb1',
  aeTitle: 'CATHLAB1',
  description: 'Cath lab 1 console',
  networks: ['10.1.2.0/24'],
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
};

export const STUDY: PacsStudy = {
  studyInstanceUid: '1.2.840.1',
  patientId: 'PAT-7',
  patientName: 'Nguyen, Linh',
  birthDate: '1958-02-03',
  studyDate: '2026-02-20',
  description: 'Coronary IVUS',
  accessionNumber: 'ACC-1',
  modalities: ['IVUS', 'XA'],
  seriesCount: 3,
};

export const SERIES: PacsSeries[] = [
  { seriesInstanceUid: '1.2.840.1.1', modality: 'IVUS', description: 'LAD pullback', seriesNumber: 1, instanceCount: 1, frameCount: 2400, imported: false },
  { seriesInstanceUid: '1.2.840.1.2', modality: 'XA', description: 'Angio run', seriesNumber: 2, instanceCount: 1, frameCount: 60, imported: true },
  { seriesInstanceUid: '1.2.840.1.3', modality: 'SR', description: 'Measurements', seriesNumber: 3, instanceCount: 1, frameCount: 0, imported: false },
];

type Handler = (url: URL, init: RequestInit | undefined, path: string) => Response | undefined;

/**
 * A stand-in for the PACS API (and the imports and patients the Upload page asks for) with fixed
 * answers; `override` answers a request first (to fail it, or to answer a pull). Every request is
 * kept, with its JSON body.
 */
export function pacsServer({
  connections = [ORTHANC, ARCHIVE],
  studies = [STUDY],
  series = SERIES,
  truncated = false,
  listed = [] as ImportSummary[],
  /** GET imports/{id}: the import as it stands. */
  progress = {} as Record<string, ImportSummary>,
  patients = [] as PatientSummary[],
  /** GET pacs/dicom-callers: the registered DICOM senders and the receiver. */
  callers = [CATHLAB] as DicomCaller[],
  receiver = { port: 11112, calledAeTitles: ['IVUSREVIEW'] } as DicomCallerList['receiver'],
} = {}) {
  let override: Handler | null = null;
  const { client, fetchMock, requests } = fakeApi((url, init) => {
    const path = url.pathname.replace(/^\/api\/demo\//, '');
    const method = init?.method ?? 'GET';
    const answered = override?.(url, init, path);
    if (answered) return answered;
    if (path === 'pacs/connections' && method === 'GET') return Response.json({ connections });
    if (path === 'pacs/dicom-callers' && method === 'GET') return Response.json({ callers, receiver });
    if (/^pacs\/connections\/[^/]+\/studies$/.test(path)) return Response.json({ studies, truncated });
    if (/\/series$/.test(path)) return Response.json({ series });
    if (/\/thumbnail$/.test(path)) return new Response(new Blob([new Uint8Array([0xff, 0xd8])], { type: 'image/jpeg' }), { status: 200 });
    if (path === 'imports') return Response.json({ imports: listed });
    const known = path.startsWith('imports/') ? progress[path.slice('imports/'.length)] : undefined;
    if (known) return Response.json(known);
    if (path === 'patients') return Response.json({ items: patients, total: patients.length, page: 1, pageSize: 10 });
    return Response.json({ error: 'not_found', message: `No route ${method} ${path}` }, { status: 404 });
  });

  return {
    client,
    fetchMock,
    requests,
    /** The requests whose method is not GET. */
    changes: () => requests().filter(({ call }) => !call.startsWith('GET')),
    override: (handler: Handler | null) => {
      override = handler;
    },
  };
}

export const problem = (error: string, message: string, status = 502) => Response.json({ error, message }, { status });

/** A progress line of a streamed pull (`Accept: application/x-ndjson`). */
export const progressLine = (instancesDone: number, instancesTotal: number, bytes: number) => ({ type: 'progress', instancesDone, instancesTotal, bytes });
/** The result line of a streamed pull: the status and body the pull answers without streaming. */
export const resultLine = (status: number, body: unknown) => ({ type: 'result', status, body });

/**
 * A pull's NDJSON answer whose lines the test sends when it wants, each one cut in two chunks
 * (as the network may cut them); `end` closes the answer, `cut` breaks it (a lost connection).
 */
export function pullStream() {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  let open = true;
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
    cancel: () => {
      open = false;
    },
  });
  const response = new Response(stream, { status: 200, headers: { 'Content-Type': 'application/x-ndjson' } });
  return {
    response,
    send(...lines: object[]) {
      for (const line of lines) {
        const text = `${JSON.stringify(line)}\n`;
        const half = Math.floor(text.length / 2);
        controller?.enqueue(encoder.encode(text.slice(0, half)));
        controller?.enqueue(encoder.encode(text.slice(half)));
      }
    },
    end: () => {
      if (open) controller?.close();
      open = false;
    },
    cut: () => {
      if (open) controller?.error(new TypeError('network error'));
      open = false;
    },
  };
}

/** A whole streamed pull answer at once: these lines (in chunks that split them), then its end. */
export function pullAnswer(...lines: object[]): Response {
  const stream = pullStream();
  stream.send(...lines);
  stream.end();
  return stream.response;
}
