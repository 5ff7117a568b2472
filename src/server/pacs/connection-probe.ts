/**
 * "Test connection": one study query through the vetted transport, answered no finer than an
 * administrator needs and an attacker could use: it answers as a DICOMweb service (how many studies
 * it shows), it refused or did not answer (or its address is not one the server may reach), it
 * refused the credentials, or it is not a DICOMweb service. No HTTP status, no body, no error text of
 * whatever answered is passed back: the form must not become a scanner of the hospital's network
 * that reads out what each internal host says.
 */
import { MAX_PACS_STUDIES, PACS_PROBLEMS } from '../../domain/pacs.ts';
import { authorizationHeader, PacsError, type PacsEndpoint } from './dicomweb.ts';
import { PACS_REQUEST_TIMEOUT_MS, readLimited } from './fetch-xhr.ts';
import { RedirectRefusedError, type PacsTransport } from './pacs-transport.ts';

/** Largest study list read (a few hundred studies of DICOM JSON). */
const MAX_PROBE_BYTES = 4 * 1024 * 1024;
const UID = /^[0-9]+(\.[0-9]+)*$/;

/** The only three failures a test answers, each always in the same words. */
export const PROBE_MESSAGES = {
  pacs_unreachable: `${PACS_PROBLEMS.pacs_unreachable}: check its address and that it is running.`,
  pacs_credentials_refused: `${PACS_PROBLEMS.pacs_credentials_refused}: check the user name and password, or the token.`,
  pacs_bad_answer: `${PACS_PROBLEMS.pacs_bad_answer}: something answers at this address, but not as a DICOMweb service (check that it is the QIDO-RS root, often ending in /dicom-web; redirects are not followed).`,
} as const;
const failed = (code: keyof typeof PROBE_MESSAGES) => new PacsError(code, PROBE_MESSAGES[code]);

const isStudy = (item: unknown): boolean => {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return false;
  const uid = (item as Record<string, { Value?: unknown[] } | undefined>)['0020000D']?.Value?.[0];
  return typeof uid === 'string' && UID.test(uid.trim());
};

/** The number of studies the PACS shows (at most MAX_PACS_STUDIES), or a PacsError with one of PROBE_MESSAGES. */
export async function probePacs(endpoint: Pick<PacsEndpoint, 'qidoUrl' | 'credentials'>, transport: PacsTransport): Promise<{ studiesFound: number }> {
  let response: Awaited<ReturnType<PacsTransport['fetch']>>;
  try {
    response = await transport.fetch(`${endpoint.qidoUrl}/studies?limit=${MAX_PACS_STUDIES + 1}&includefield=0020000D`, {
      headers: { ...authorizationHeader(endpoint.credentials), Accept: 'application/dicom+json, application/json' },
      signal: AbortSignal.timeout(PACS_REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    // Something answered with a redirect (not followed); otherwise refused, unreachable, timed out or a forbidden address at connect time, all alike.
    throw failed(error instanceof RedirectRefusedError ? 'pacs_bad_answer' : 'pacs_unreachable');
  }
  if (response.status === 401 || response.status === 403) {
    await response.body?.cancel().catch(() => undefined);
    throw failed('pacs_credentials_refused');
  }
  if (response.status === 204) return { studiesFound: 0 };
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    throw failed('pacs_bad_answer');
  }
  let studies: unknown;
  try {
    studies = JSON.parse(new TextDecoder().decode(await readLimited(response, MAX_PROBE_BYTES)) || '[]');
  } catch {
    throw failed('pacs_bad_answer');
  }
  if (!Array.isArray(studies) || !studies.every(isStudy)) throw failed('pacs_bad_answer');
  return { studiesFound: Math.min(studies.length, MAX_PACS_STUDIES) };
}
