/**
 * What the tests may do to the replicas, through the small HTTP endpoint global setup serves on
 * loopback in the Playwright runner's process (the replicas are that process's children, and it
 * lives for the whole run, unlike a test worker).
 */
export const CONTROL_URL_VARIABLE = 'REPLICAS_CONTROL_URL';
/** Set by global setup when the run cannot happen here (no HAProxy, no PostgreSQL): the tests skip. */
export const SKIP_VARIABLE = 'REPLICAS_SKIP_REASON';

export type ReplicaName = 'a' | 'b';
export type ReplicaState = { name: ReplicaName; port: number; pid: number | null; alive: boolean };

async function call(method: 'GET' | 'POST', path: string): Promise<unknown> {
  const base = process.env[CONTROL_URL_VARIABLE];
  if (!base) throw new Error(`${CONTROL_URL_VARIABLE} is not set: run with -c playwright.replicas.config.ts`);
  const response = await fetch(`${base}${path}`, { method });
  const body = await response.text();
  if (!response.ok) throw new Error(`replica control ${method} ${path}: ${response.status} ${body}`);
  return JSON.parse(body) as unknown;
}

export const replicaStates = () => call('GET', '/replicas') as Promise<ReplicaState[]>;

/** SIGKILL (no graceful shutdown: a crash) and waits until the process is gone. */
export const killReplica = (name: ReplicaName) => call('POST', `/replicas/${name}/kill`) as Promise<ReplicaState>;

/**
 * SIGKILLs the replica that is using the most CPU right now (sampled over half a second): the one
 * decoding an import, whichever replica the balancer sent the upload to.
 */
export const killBusiestReplica = () => call('POST', '/replicas/busiest/kill') as Promise<ReplicaState & { cpuSeconds: Record<ReplicaName, number> }>;

/** Starts it again on the same port with the same environment; answers once HAProxy sends it requests again. */
export const restartReplica = (name: ReplicaName) => call('POST', `/replicas/${name}/start`) as Promise<ReplicaState>;

/** Who delivered the frames so far (since the run started): the object store's presigned GETs, and the replicas behind HAProxy. */
export type Delivery = {
  store: { served: number; bytes: number; refused: { code: string; url: string }[] };
  replicas: { requests: number; bytesOut: number };
  /** The run's throw-away bucket and keys, for a test to sign an already expired URL. */
  s3: { endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string };
};

export const delivery = () => call('GET', '/delivery') as Promise<Delivery>;
