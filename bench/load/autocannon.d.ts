/** The part of autocannon 9 that bench/load.ts uses (the package has no types of its own). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export type RawRequest = { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer };

  export type RequestSpec = RawRequest & {
    setupRequest?: (request: RawRequest, context: Record<string, unknown>) => RawRequest;
    onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
  };

  /** One connection. `requestIterator` is internal; the bench reads the path of the request just answered from it. */
  export type Client = EventEmitter & {
    setRequests(requests: RequestSpec[]): void;
    requestIterator?: { currentRequest?: { path?: string } };
  };

  export type Options = {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    headers?: Record<string, string>;
    method?: string;
    requests?: RequestSpec[];
    setupClient?: (client: Client) => void;
  };

  export type Histogram = { average: number; p50: number; p99: number; total: number; max: number };

  export type Result = {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
  };

  export type Instance = EventEmitter &
    PromiseLike<Result> & {
      stop(): void;
      on(event: 'response', listener: (client: Client, statusCode: number, resBytes: number, responseTime: number) => void): Instance;
      on(event: 'done', listener: (result: Result) => void): Instance;
    };

  function autocannon(options: Options, callback?: (error: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
