/**
 * A real PACS for the PACS tests: Debian's Orthanc with its DICOMweb plugin, started on free ports
 * with its own throw-away storage, so QIDO/WADO/STOW and DIMSE are exercised against a server the
 * project did not write. Absent binaries make `startOrthanc` answer null (the tests skip, with one
 * notice) rather than fail, as the real-PostgreSQL run does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.ts';

export const ORTHANC_BINARY = '/usr/sbin/Orthanc';
export const DICOMWEB_PLUGIN = '/usr/share/orthanc/plugins/libOrthancDicomWeb.so';

export type OrthancOptions = {
  /** Basic-auth users (name -> password); none = no authentication. */
  users?: Record<string, string>;
  /** Orthanc's own AE title (ORTHANC by default). */
  aeTitle?: string;
  /** Peers Orthanc may push to (`POST /modalities/{name}/store`). */
  modalities?: Record<string, { aet: string; host: string; port: number }>;
};

export type OrthancHandle = {
  httpUrl: string;
  /** The DICOMweb root, without a trailing slash (e.g. http://127.0.0.1:P/dicom-web). */
  dicomWebUrl: string;
  dicomPort: number;
  aeTitle: string;
  /** The Authorization header of the first user, or undefined without users. */
  authorization: string | undefined;
  stop(): Promise<void>;
  /** Stores a DICOM file through the REST API; answers Orthanc's instance id. */
  upload(bytes: Uint8Array): Promise<string>;
  /** Orthanc's instance ids. */
  instances(): Promise<string[]>;
};

const STARTUP_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 5_000;

let noticePrinted = false;

/** Whether Debian's orthanc and orthanc-dicomweb are installed (prints the skip notice once when not). */
export function orthancAvailable(): boolean {
  const present = isExecutable(ORTHANC_BINARY) && fs.existsSync(DICOMWEB_PLUGIN);
  if (!present && !noticePrinted) {
    noticePrinted = true;
    console.warn("\nNOTICE: Debian's orthanc/orthanc-dicomweb is not installed: the PACS tests are skipped.\n");
  }
  return present;
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}


/** The configuration Orthanc is started with (exported so a test or a report can show it). */
export function orthancConfig(dir: string, ports: { http: number; dicom: number }, options: OrthancOptions): Record<string, unknown> {
  const users = options.users ?? {};
  const storage = path.join(dir, 'storage');
  return {
    Name: 'ivus-review-tests',
    StorageDirectory: storage,
    IndexDirectory: storage,
    HttpPort: ports.http,
    DicomPort: ports.dicom,
    DicomAet: options.aeTitle ?? 'ORTHANC',
    // Loopback only: the tests are its only clients.
    RemoteAccessAllowed: false,
    AuthenticationEnabled: Object.keys(users).length > 0,
    RegisteredUsers: users,
    // Accept any called AE title, any SOP class and every transfer syntax, as a permissive PACS does.
    DicomCheckCalledAet: false,
    UnknownSopClassAccepted: true,
    AcceptedTransferSyntaxes: ['1.2.840.10008.1.*'],
    DicomAlwaysAllowEcho: true,
    DicomAlwaysAllowStore: true,
    DicomCheckModalityHost: false,
    DicomModalities: Object.fromEntries(
      Object.entries(options.modalities ?? {}).map(([name, m]) => [name, { AET: m.aet, Host: m.host, Port: m.port }]),
    ),
    DicomModalitiesInDatabase: false,
    DicomScuTimeout: 30,
    // Orthanc proposes an instance's own syntax when it pushes; this one only when it has to transcode.
    DicomScuPreferredTransferSyntax: '1.2.840.10008.1.2.1',
    Plugins: [DICOMWEB_PLUGIN],
    DicomWeb: { Enable: true, Root: '/dicom-web/', EnableWado: true, Ssl: false },
    // A study is "stable" (and its change events fire) one second after its last instance.
    StableAge: 1,
    SaveJobs: false,
    OrthancExplorerEnabled: false,
    WebDavEnabled: false,
    MetricsEnabled: false,
    StorageCompression: false,
    OverwriteInstances: true,
    HttpDescribeErrors: true,
    ConcurrentJobs: 2,
    HttpThreadsCount: 8,
    DicomThreadsCount: 2,
  };
}

/**
 * Starts Orthanc on free ports (HTTP and DICOM) with a fresh storage directory; answers null when
 * Debian's orthanc/orthanc-dicomweb is not installed. Orthanc runs as whoever runs the tests (it
 * does not refuse root, unlike PostgreSQL).
 */
export async function startOrthanc(options: OrthancOptions = {}): Promise<OrthancHandle | null> {
  if (!orthancAvailable()) return null;
  // A free port may be taken between the probe and Orthanc's bind: try again with fresh ones once.
  try {
    return await startOnce(options);
  } catch (first) {
    console.warn(`[orthanc] first start failed, retrying: ${(first as Error).message}`);
    return startOnce(options);
  }
}

async function startOnce(options: OrthancOptions): Promise<OrthancHandle> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-orthanc-'));
  const http = await freePort();
  let dicom = await freePort();
  while (dicom === http) dicom = await freePort();
  const configFile = path.join(dir, 'orthanc.json');
  const logFile = path.join(dir, 'orthanc.log');
  fs.writeFileSync(configFile, JSON.stringify(orthancConfig(dir, { http, dicom }, options), null, 2));

  const child = spawn(ORTHANC_BINARY, [`--logfile=${logFile}`, '--no-jobs', configFile], { stdio: ['ignore', 'ignore', 'pipe'], cwd: dir });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 16_384) stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const httpUrl = `http://127.0.0.1:${http}`;
  const firstUser = Object.entries(options.users ?? {})[0];
  const authorization = firstUser ? `Basic ${Buffer.from(`${firstUser[0]}:${firstUser[1]}`).toString('base64')}` : undefined;
  const headers = (extra: Record<string, string> = {}): Record<string, string> => (authorization ? { ...extra, authorization } : extra);

  const stop = async (): Promise<void> => {
    await terminate(child, exited);
    fs.rmSync(dir, { recursive: true, force: true });
  };

  try {
    await waitUntilUp(`${httpUrl}/system`, headers(), exited);
  } catch (error) {
    const tail = readTail(logFile) || stderr.slice(-4000);
    console.warn(`[orthanc] did not start (${(error as Error).message}); log tail:\n${tail}`);
    await stop();
    throw error;
  }

  return {
    httpUrl,
    dicomWebUrl: `${httpUrl}/dicom-web`,
    dicomPort: dicom,
    aeTitle: options.aeTitle ?? 'ORTHANC',
    authorization,
    stop,
    async upload(bytes) {
      const response = await fetch(`${httpUrl}/instances`, { method: 'POST', headers: headers({ 'content-type': 'application/dicom' }), body: new Uint8Array(bytes) });
      if (!response.ok) throw new Error(`Orthanc refused the upload: ${response.status} ${await response.text()}`);
      const answer = (await response.json()) as { ID: string };
      return answer.ID;
    },
    async instances() {
      const response = await fetch(`${httpUrl}/instances`, { headers: headers() });
      if (!response.ok) throw new Error(`Orthanc did not list its instances: ${response.status}`);
      return (await response.json()) as string[];
    },
  };
}

/** Polls `GET /system` until it answers 200, the process exits, or the startup time runs out. */
async function waitUntilUp(url: string, headers: Record<string, string>, exited: Promise<number | null>): Promise<void> {
  let gone: number | null | undefined;
  void exited.then((code) => {
    gone = code;
  });
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (gone !== undefined) throw new Error(`Orthanc exited with code ${gone}`);
    try {
      const response = await fetch(url, { headers, signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Orthanc did not answer ${url} within ${STARTUP_TIMEOUT_MS / 1000} s`);
}

/** SIGTERM, then SIGKILL when it is still running after the grace period. */
async function terminate(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

function readTail(file: string, lines = 40): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}
