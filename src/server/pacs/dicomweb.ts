/**
 * One tenant connection's DICOMweb calls. Queries (QIDO-RS), rendered thumbnails and stores
 * (STOW-RS) go through dicomweb-client, the DICOMweb client of OHIF and Slim; instance retrieves
 * (WADO-RS) are streamed to disk here (multipart-to-files.ts), because dicomweb-client keeps whole
 * responses in memory and a pullback may be a gigabyte. Every failure becomes a PacsError whose
 * code says what went wrong; nothing the PACS answers is passed on to the browser unchecked.
 */
import path from 'node:path';
import fs from 'node:fs/promises';
import { api } from 'dicomweb-client';
import { MAX_PACS_STUDIES, type PacsProblemCode, type PacsSeries, type PacsStudy, type PacsStudyQuery } from '../../domain/pacs.ts';
import type { PacsCredentials } from '../db/pacs-connections.ts';
import { FetchXhr, installFetchXhr, PACS_REQUEST_TIMEOUT_MS, transportRefusal } from './fetch-xhr.ts';
import type { PacsTransport } from './pacs-transport.ts';
import { MultipartError, multipartBoundary, saveMultipartParts } from './multipart-to-files.ts';

installFetchXhr();

export class PacsError extends Error {
  readonly code: PacsProblemCode;
  constructor(code: PacsProblemCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** dicomweb-client's types declare its promises as plain values. */
const settled = (call: unknown): Promise<unknown> => Promise.resolve(call);

export type PacsEndpoint = { qidoUrl: string; wadoUrl: string; stowUrl: string; credentials: PacsCredentials | null };

type DicomJson = Record<string, { vr?: string; Value?: unknown[] } | undefined>;

/** What a pull retrieves, instance by instance. */
export type RetrievePlan = Array<{ studyInstanceUid: string; seriesInstanceUid: string; sopInstanceUid: string }>;

/** The body's chunks as they come, each counted. */
async function* counted(body: AsyncIterable<Uint8Array>, onBytes: ((bytes: number) => void) | undefined): AsyncIterable<Uint8Array> {
  for await (const chunk of body) {
    onBytes?.(chunk.byteLength);
    yield chunk;
  }
}

/** Frames a pull may bring per instance (budgets of the import check the rest). */
const MAX_INSTANCE_BYTES = 16 * 1024 ** 3;
const MAX_INSTANCES_PER_SERIES = 2000;

const first = (item: DicomJson, tag: string): unknown => item[tag]?.Value?.[0];
const text = (item: DicomJson, tag: string): string => {
  const value = first(item, tag);
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return String(value);
  // Person names arrive as { Alphabetic: "Doe^Jane" }.
  if (value && typeof value === 'object' && 'Alphabetic' in value) return String((value as { Alphabetic: unknown }).Alphabetic ?? '').trim();
  return '';
};
const integer = (item: DicomJson, tag: string): number | null => {
  const value = Number(first(item, tag));
  return Number.isFinite(value) ? Math.trunc(value) : null;
};
const isoDate = (value: string): string | null => (/^\d{8}$/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}` : null);
const dicomDate = (iso: string) => iso.replaceAll('-', '');
const UID = /^[0-9]+(\.[0-9]+)*$/;

export function authorizationHeader(credentials: PacsCredentials | null): Record<string, string> {
  if (!credentials) return {};
  if ('token' in credentials) return { Authorization: `Bearer ${credentials.token}` };
  return { Authorization: `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}` };
}

/**
 * What a failed call means for the clinician. Never the HTTP status or what the answer said: an
 * administrator can point a connection at any host of the hospital network, and the PACS pages
 * must not read out what each one answers (only DICOM failure reasons of a store are named).
 */
export function problemOf(status: number, what: string, notFound: PacsProblemCode = 'pacs_not_found'): PacsError {
  if (status === 0) return new PacsError('pacs_unreachable', `The PACS did not answer (${what}): check its address and that it is running.`);
  if (status === 401 || status === 403) return new PacsError('pacs_credentials_refused', `The PACS refused the credentials (${what}).`);
  if (status === 404) return new PacsError(notFound, `The PACS does not have it (${what}).`);
  return new PacsError('pacs_bad_answer', `The PACS answered with an error, or not as DICOMweb (${what}).`);
}

/** The transport's refusals (from dicomweb-client's error, or the transport's own), which a status 0 alone would report as a PACS that does not answer. */
function refusalProblem(error: unknown, what: string): PacsError | null {
  const refusal = (error as { request?: Partial<FetchXhr> } | null)?.request?.refusal ?? transportRefusal(error);
  if (refusal === 'redirect') return new PacsError('pacs_bad_answer', `The PACS redirected elsewhere (${what}); redirects are not followed: enter the address it redirects to.`);
  if (refusal === 'forbidden-address') return new PacsError('pacs_unreachable', `The PACS's address is not one the server may connect to (${what}): link-local, loopback and similar addresses are refused.`);
  return null;
}

/** What a failed transport call means. */
function transportProblem(error: unknown, what: string): PacsError {
  return refusalProblem(error, what) ?? problemOf(0, what);
}

function rethrow(what: string, notFound?: PacsProblemCode): (error: unknown) => never {
  return (error: unknown) => {
    if (error instanceof PacsError) throw error;
    const refused = refusalProblem(error, what);
    if (refused) throw refused;
    const status = typeof error === 'object' && error !== null && 'status' in error ? Number((error as { status: unknown }).status) : 0;
    throw problemOf(Number.isFinite(status) ? status : 0, what, notFound);
  };
}

function asList(value: unknown, what: string): DicomJson[] {
  if (value === null || value === undefined || value === '') return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'object' || item === null)) {
    throw new PacsError('pacs_bad_answer', `The PACS answered ${what} with something that is not DICOM JSON.`);
  }
  return value as DicomJson[];
}

export class PacsClient {
  private readonly qido: api.DICOMwebClient;
  private readonly wado: api.DICOMwebClient;
  private readonly stow: api.DICOMwebClient;
  private readonly headers: Record<string, string>;
  private readonly endpoint: PacsEndpoint;
  private readonly transport: PacsTransport;

  constructor(endpoint: PacsEndpoint, transport: PacsTransport) {
    this.endpoint = endpoint;
    this.transport = transport;
    this.headers = authorizationHeader(endpoint.credentials);
    // dicomweb-client makes its own XMLHttpRequest; the hook (it must take two arguments) hands each one the vetted transport.
    // Any other XMLHttpRequest (one installed by something else) would not vet addresses: the request is refused instead.
    const useTransport = (request: unknown, _metadata: unknown) => {
      if (!(request instanceof FetchXhr)) throw new Error('a PACS request without the vetted transport');
      return Object.assign(request, { transport });
    };
    const make = (url: string) => new api.DICOMwebClient({ url, headers: this.headers, singlepart: false, verbose: false, requestHooks: [useTransport] } as never);
    this.qido = make(endpoint.qidoUrl);
    this.wado = make(endpoint.wadoUrl);
    this.stow = make(endpoint.stowUrl);
  }

  /** Studies matching the query, at most MAX_PACS_STUDIES (`truncated` when the PACS had more). */
  async searchStudies(query: PacsStudyQuery): Promise<{ studies: PacsStudy[]; truncated: boolean }> {
    const params: Record<string, string> = {
      limit: String(MAX_PACS_STUDIES + 1),
      includefield: '00081030,00201206,00100030,00080061,00080050',
    };
    if (query.patientId) params.PatientID = query.patientId;
    if (query.patientName) params.PatientName = `*${query.patientName}*`;
    if (query.from || query.to) params.StudyDate = `${query.from ? dicomDate(query.from) : ''}-${query.to ? dicomDate(query.to) : ''}`;
    if (query.modality) params.ModalitiesInStudy = query.modality;
    const found = asList(await settled(this.qido.searchForStudies({ queryParams: params })).catch(rethrow('searching studies')), 'the study search');
    const studies = found
      .map((item) => ({
        studyInstanceUid: text(item, '0020000D'),
        patientId: text(item, '00100020'),
        patientName: text(item, '00100010').replaceAll('^', ' ').trim(),
        birthDate: isoDate(text(item, '00100030')),
        studyDate: isoDate(text(item, '00080020')),
        description: text(item, '00081030'),
        accessionNumber: text(item, '00080050'),
        modalities: (item['00080061']?.Value ?? []).filter((m): m is string => typeof m === 'string'),
        seriesCount: integer(item, '00201206'),
      }))
      .filter((study) => UID.test(study.studyInstanceUid));
    studies.sort((a, b) => (b.studyDate ?? '').localeCompare(a.studyDate ?? ''));
    return { studies: studies.slice(0, MAX_PACS_STUDIES), truncated: studies.length > MAX_PACS_STUDIES };
  }

  /** A study's series with their frame counts (summed over their instances). */
  async listSeries(studyInstanceUid: string): Promise<Array<Omit<PacsSeries, 'imported'>>> {
    const what = 'listing the series of the study';
    const series = asList(await settled(this.qido.searchForSeries({ studyInstanceUID: studyInstanceUid, queryParams: { includefield: '0008103E,00200011,00201209' } })).catch(rethrow(what)), what);
    const instances = await this.listInstances(studyInstanceUid, null);
    return series
      .map((item) => {
        const uid = text(item, '0020000E');
        const own = instances.filter((i) => i.seriesInstanceUid === uid);
        return {
          seriesInstanceUid: uid,
          modality: text(item, '00080060'),
          description: text(item, '0008103E'),
          seriesNumber: integer(item, '00200011'),
          instanceCount: integer(item, '00201209') ?? own.length,
          frameCount: own.reduce((sum, i) => sum + i.frames, 0),
        };
      })
      .filter((s) => UID.test(s.seriesInstanceUid))
      .sort((a, b) => (a.seriesNumber ?? 0) - (b.seriesNumber ?? 0));
  }

  /** The instances of a study (or of one series), with their frame counts. */
  async listInstances(studyInstanceUid: string, seriesInstanceUid: string | null): Promise<Array<{ seriesInstanceUid: string; sopInstanceUid: string; frames: number }>> {
    const what = seriesInstanceUid ? 'listing the instances of the series' : 'listing the instances of the study';
    const options = {
      studyInstanceUID: studyInstanceUid,
      ...(seriesInstanceUid ? { seriesInstanceUID: seriesInstanceUid } : {}),
      queryParams: { includefield: '00280008', limit: String(MAX_INSTANCES_PER_SERIES * 10) },
    };
    const found = asList(await settled(this.qido.searchForInstances(options)).catch(rethrow(what, seriesInstanceUid ? 'pacs_series_not_found' : 'pacs_not_found')), what);
    return found
      .map((item) => ({ seriesInstanceUid: text(item, '0020000E'), sopInstanceUid: text(item, '00080018'), frames: integer(item, '00280008') ?? 1 }))
      .filter((i) => UID.test(i.sopInstanceUid) && (!seriesInstanceUid || i.seriesInstanceUid === seriesInstanceUid || i.seriesInstanceUid === ''));
  }

  /** A small picture of the series' first instance (its middle frame), as the PACS renders it; null if it cannot. */
  async thumbnail(studyInstanceUid: string, seriesInstanceUid: string): Promise<{ bytes: Uint8Array; type: string } | null> {
    const [instance] = await this.listInstances(studyInstanceUid, seriesInstanceUid);
    if (!instance) throw new PacsError('pacs_series_not_found', 'The PACS does not have this series.');
    try {
      const frame = String(Math.max(1, Math.ceil(instance.frames / 2)));
      const rendered = (await this.wado.retrieveInstanceFramesRendered({
        studyInstanceUID: studyInstanceUid,
        seriesInstanceUID: seriesInstanceUid,
        sopInstanceUID: instance.sopInstanceUid,
        frameNumbers: frame,
        // No `viewport`: dicomweb-client percent-encodes its comma, which Orthanc refuses; the page scales the picture.
        mediaTypes: [{ mediaType: 'image/jpeg' }],
      } as never)) as unknown;
      const buffer = Array.isArray(rendered) ? rendered[0] : rendered;
      if (!(buffer instanceof ArrayBuffer) || buffer.byteLength === 0) return null;
      const bytes = new Uint8Array(buffer);
      const type = bytes[0] === 0x89 ? 'image/png' : bytes[0] === 0xff && bytes[1] === 0xd8 ? 'image/jpeg' : null;
      return type ? { bytes, type } : null;
    } catch (error) {
      const refused = refusalProblem(error, 'rendering a thumbnail');
      if (refused) throw refused;
      const status = (error as { status?: number }).status ?? 0;
      // A PACS without rendering (or a frame it cannot render) has no thumbnail; being down or refusing is still an error.
      if (status === 0 || status === 401 || status === 403) rethrow('rendering a thumbnail')(error);
      return null;
    }
  }

  /**
   * The instances a pull of these series retrieves, checked before anything is retrieved: a series
   * the PACS does not have, or one too large for an import, refuses the whole pull.
   */
  async planRetrieve(studyInstanceUid: string, seriesInstanceUids: readonly string[]): Promise<RetrievePlan> {
    const plan: RetrievePlan = [];
    for (const series of seriesInstanceUids) {
      const instances = await this.listInstances(studyInstanceUid, series);
      if (instances.length === 0) throw new PacsError('pacs_series_not_found', `The PACS does not have the series ${series}.`);
      if (instances.length > MAX_INSTANCES_PER_SERIES) throw new PacsError('pacs_bad_answer', `The series has ${instances.length} instances, more than the ${MAX_INSTANCES_PER_SERIES} an import takes.`);
      plan.push(...instances.map((instance) => ({ studyInstanceUid, seriesInstanceUid: series, sopInstanceUid: instance.sopInstanceUid })));
    }
    return plan;
  }

  /**
   * Retrieves one instance into `dir`, streamed, as the PACS stores it (`transfer-syntax=*`: no
   * transcoding, the import decodes every accepted syntax). `onBytes` hears of every chunk.
   */
  async retrieveInstance(
    instance: RetrievePlan[number],
    dir: string,
    options: { onBytes?: (bytes: number) => void; signal?: AbortSignal } = {},
  ): Promise<{ fileName: string; path: string; size: number }> {
    const { studyInstanceUid, seriesInstanceUid, sopInstanceUid } = instance;
    const url = `${this.endpoint.wadoUrl}/studies/${studyInstanceUid}/series/${seriesInstanceUid}/instances/${sopInstanceUid}`;
    const fileName = `${sopInstanceUid}.dcm`;
    const target = path.join(dir, fileName);
    return { fileName, path: target, size: await this.retrieveTo(url, target, options) };
  }

  private async retrieveTo(url: string, target: string, options: { onBytes?: (bytes: number) => void; signal?: AbortSignal }): Promise<number> {
    const what = 'retrieving an instance';
    let response: Awaited<ReturnType<PacsTransport['fetch']>>;
    // Headers within the usual time; the body may take as long as the request may.
    const timeout = AbortSignal.timeout(PACS_REQUEST_TIMEOUT_MS * 60);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    try {
      response = await this.transport.fetch(url, {
        headers: { ...this.headers, Accept: 'multipart/related; type="application/dicom"; transfer-syntax=*' },
        signal,
      });
    } catch (error) {
      throw transportProblem(error, what);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw problemOf(response.status, what, 'pacs_series_not_found');
    }
    const boundary = multipartBoundary(response.headers.get('content-type'));
    if (!boundary || !response.body) throw new PacsError('pacs_bad_answer', 'The PACS answered a retrieve without a multipart/related body.');
    const partPath = (index: number) => (index === 0 ? target : `${target}.${index}`);
    try {
      const parts = await saveMultipartParts(counted(response.body, options.onBytes), boundary, partPath, { maxPartBytes: MAX_INSTANCE_BYTES, maxParts: 1 });
      if (parts.length !== 1) throw new PacsError('pacs_bad_answer', 'The PACS answered a retrieve without the instance.');
      return parts[0]!.size;
    } catch (error) {
      await fs.rm(target, { force: true });
      if (error instanceof MultipartError) throw new PacsError('pacs_bad_answer', `The PACS's answer to a retrieve is malformed: ${error.message}.`);
      if (error instanceof PacsError) throw error;
      throw problemOf(0, what);
    }
  }

  /** Stores Part 10 files in the study with STOW-RS; a refusal of any of them is a PacsError. */
  async store(studyInstanceUid: string, datasets: Uint8Array[]): Promise<void> {
    const buffers = datasets.map((bytes) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    let answer: unknown;
    try {
      answer = await this.stow.storeInstances({ studyInstanceUID: studyInstanceUid, datasets: buffers });
    } catch (error) {
      const status = (error as { status?: number }).status ?? 0;
      if (status === 0 || status === 401 || status === 403) rethrow('storing the report')(error);
      throw new PacsError('pacs_store_refused', `The PACS refused to store the report${failureReasons((error as { response?: unknown }).response)}.`);
    }
    const reasons = failureReasons(answer);
    if (reasons) throw new PacsError('pacs_store_refused', `The PACS refused to store part of the report${reasons}.`);
  }
}

/** The Failed SOP Sequence (0008,1198) of a STOW-RS answer, as text ('' when nothing failed). */
function failureReasons(answer: unknown): string {
  let json: unknown = answer;
  if (typeof answer === 'string') {
    try {
      json = JSON.parse(answer);
    } catch {
      return '';
    }
  }
  const failed = (json as DicomJson | null)?.['00081198']?.Value;
  if (!Array.isArray(failed) || failed.length === 0) return '';
  const codes = failed.map((item) => integer(item as DicomJson, '00081197')).filter((code) => code !== null);
  return `: ${failed.length} instance${failed.length === 1 ? '' : 's'} failed${codes.length ? `, reason ${codes.map((c) => `0x${c.toString(16).toUpperCase()}`).join(', ')}` : ''}`;
}
