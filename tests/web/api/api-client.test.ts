import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, BODY_STALL_MS, BYTES_RETRY_DELAYS_MS, buildApiUrl, createApiClient } from '../../../src/web/api/api-client.ts';

describe('API addresses', () => {
  it('are /api/{tenant}/{resource}[/pathParams][?queryParams]', () => {
    expect(buildApiUrl('demo', 'patients')).toBe('/api/demo/patients');
    expect(buildApiUrl('demo', 'patients', ['P 1/2', 'records'])).toBe('/api/demo/patients/P%201%2F2/records');
    expect(buildApiUrl('demo', 'patients', [], { page: 2, search: 'Ann & Bo', empty: '', none: undefined })).toBe(
      '/api/demo/patients?page=2&search=Ann+%26+Bo',
    );
  });

  it('take server-given paths relative to the tenant root', () => {
    expect(buildApiUrl('demo', 'records/r1/previews/bmode')).toBe('/api/demo/records/r1/previews/bmode');
  });
});

function clientWith(response: Response | (() => Promise<Response>), credentials = { idToken: 'id.token.sig', tokenType: 'Bearer' }) {
  const fetchMock = vi.fn<typeof fetch>(typeof response === 'function' ? response : async () => response);
  const onUnauthorized = vi.fn();
  const client = createApiClient({ tenant: 'demo', getCredentials: () => credentials, onUnauthorized, fetch: fetchMock });
  return { client, fetchMock, onUnauthorized };
}

const Schema = z.object({ ok: z.boolean() });

describe('API client', () => {
  it('sends the id token with its token type and asks for JSON', async () => {
    const { client, fetchMock } = clientWith(Response.json({ ok: true }));
    await expect(client.get(Schema, 'patients', { query: { page: 1 } })).resolves.toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/demo/patients?page=1');
    expect(init?.method).toBe('GET');
    expect(init?.headers).toEqual({ Accept: 'application/json', Authorization: 'Bearer id.token.sig' });
  });

  it('defaults the token type to Bearer', async () => {
    const { client, fetchMock } = clientWith(Response.json({ ok: true }), { idToken: 'tok', tokenType: '' });
    await client.get(Schema, 'patients');
    expect(fetchMock.mock.calls[0]?.[1]?.headers).toMatchObject({ Authorization: 'Bearer tok' });
  });

  it('sends a body as JSON', async () => {
    const { client, fetchMock } = clientWith(Response.json({ ok: true }));
    await client.request({ method: 'POST', resource: 'users', body: { email: 'a@b.c' }, schema: Schema });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.body).toBe('{"email":"a@b.c"}');
    expect(init?.headers).toMatchObject({ 'Content-Type': 'application/json' });
  });

  it('turns an error answer into an ApiError with its status and message', async () => {
    const { client } = clientWith(Response.json({ error: 'bad_request', message: 'page must be 1 or more' }, { status: 400 }));
    const failure = client.get(Schema, 'patients');
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 400, code: 'bad_request', message: 'page must be 1 or more' });
  });

  it('ends the session on 401', async () => {
    const { client, onUnauthorized } = clientWith(Response.json({ error: 'unauthorized', message: 'Sign in again.' }, { status: 401 }));
    await expect(client.get(Schema, 'patients')).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('refuses an answer that does not match the schema', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { client } = clientWith(Response.json({ ok: 'yes' }));
    await expect(client.get(Schema, 'patients')).rejects.toMatchObject({ code: 'invalid_response' });
  });

  it('says so when the server cannot be reached', async () => {
    const { client } = clientWith(async () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(client.get(Schema, 'patients')).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });

  it('fetches images as blobs with the same authorization', async () => {
    const { client, fetchMock } = clientWith(new Response('png', { headers: { 'Content-Type': 'image/png' } }));
    const blob = await client.getBlob('records/r1/previews/bmode');
    expect(await blob.text()).toBe('png');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/demo/records/r1/previews/bmode');
    expect(fetchMock.mock.calls[0]?.[1]?.headers).toMatchObject({ Authorization: 'Bearer id.token.sig' });
  });
});

describe('API client, frame chunks while a replica dies behind the balancer', () => {
  const bytes = () => new Response(new Uint8Array([1, 2, 3]), { headers: { 'Content-Type': 'application/octet-stream' } });
  /** Answers these in turn (a status, 'cut' for a broken connection, 'ok' for the bytes), the last one for every later call. */
  function answering(...answers: (number | 'cut' | 'ok')[]) {
    let call = 0;
    return clientWith(async () => {
      const answer = answers[Math.min(call++, answers.length - 1)]!;
      if (answer === 'cut') throw new TypeError('Failed to fetch');
      return answer === 'ok' ? bytes() : new Response('<html>proxy error</html>', { status: answer });
    });
  }
  async function settled<T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> {
    const result = Promise.allSettled([promise]);
    await vi.runAllTimersAsync();
    return (await result)[0]!;
  }

  it('asks again after a proxy error or a cut connection, and answers the bytes', async () => {
    vi.useFakeTimers();
    try {
      const { client, fetchMock } = answering(503, 'cut', 'ok');
      const result = await settled(client.getBytes('records/r1/frames/bmode/3'));
      expect(result).toEqual({ status: 'fulfilled', value: new Uint8Array([1, 2, 3]) });
      expect(fetchMock).toHaveBeenCalledTimes(3);
      expect(fetchMock.mock.calls.every(([url, init]) => url === '/api/demo/records/r1/frames/bmode/3' && init?.method === 'GET')).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('hands a chunk to a body sink part by part as it arrives, and begins again when a cut answer is asked again', async () => {
    vi.useFakeTimers();
    try {
      let call = 0;
      const { client, fetchMock } = clientWith(async () => {
        const first = call++ === 0;
        let sent = 0;
        // The first answer breaks off after one part; the second arrives whole, in three parts.
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (first && sent === 1) return controller.error(new TypeError('network error'));
            if (sent === 3) return controller.close();
            controller.enqueue(new Uint8Array([10 * sent + 1, 10 * sent + 2]));
            sent++;
          },
        });
        return new Response(body, { headers: { 'Content-Type': 'application/vnd.ivus.frame-pack' } });
      });
      const events: string[] = [];
      const sink = { begin: () => events.push('begin'), part: (bytes: Uint8Array) => events.push(Array.from(bytes).join(',')) };
      const result = await settled(client.getBytes('records/r1/frames/bmode/3', { body: sink }));
      expect(result).toEqual({ status: 'fulfilled', value: new Uint8Array(0) });
      expect(events).toEqual(['begin', '1,2', 'begin', '1,2', '11,12', '21,22']);
      // A GET without a body, marked for the frames service worker to hand straight through.
      const init = fetchMock.mock.calls[0]![1]!;
      expect(init.body).toBeUndefined();
      expect(init.headers).toMatchObject({ 'X-Ivus-Streamed': '1' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('drops an answer that stops sending half-way (a store or proxy that stalled) and asks again; a slow one is not dropped', async () => {
    vi.useFakeTimers();
    try {
      let call = 0;
      let cancelled = 0;
      const { client, fetchMock } = clientWith(async () => {
        const attempt = call++;
        let sent = 0;
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            if (sent === 2) return controller.close();
            // The first answer sends one part and then nothing, its connection left open; the second
            // sends its parts a little under the stall time apart.
            if (attempt === 0 && sent === 1) return new Promise<void>(() => undefined);
            if (attempt === 1 && sent === 1) await new Promise((resolve) => setTimeout(resolve, BODY_STALL_MS - 1000));
            controller.enqueue(new Uint8Array([attempt, sent]));
            sent++;
          },
          cancel: () => void cancelled++,
        });
        return new Response(body, { headers: { 'Content-Type': 'application/octet-stream' } });
      });
      for (const streamed of [false, true]) {
        call = 0;
        fetchMock.mockClear();
        const parts: string[] = [];
        const sink = { begin: () => parts.push('begin'), part: (bytes: Uint8Array) => parts.push(Array.from(bytes).join(',')) };
        const result = await settled(client.getBytes('records/r1/frames/bmode/3', streamed ? { body: sink } : {}));
        expect(result).toEqual({ status: 'fulfilled', value: streamed ? new Uint8Array(0) : new Uint8Array([1, 0, 1, 1]) });
        if (streamed) expect(parts).toEqual(['begin', '0,0', 'begin', '1,0', '1,1']);
        expect(fetchMock).toHaveBeenCalledTimes(2);
      }
      expect(cancelled).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives up after its retries with the last error', async () => {
    vi.useFakeTimers();
    try {
      const { client, fetchMock } = answering(502);
      const result = await settled(client.getBytes('records/r1/frames/bmode/3'));
      expect(result).toMatchObject({ status: 'rejected', reason: { status: 502 } });
      expect(fetchMock).toHaveBeenCalledTimes(BYTES_RETRY_DELAYS_MS.length + 1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not ask again for an answer of the server itself (404, 500) or once aborted', async () => {
    for (const status of [404, 500]) {
      const { client, fetchMock } = answering(status, 'ok');
      await expect(client.getBytes('records/r1/frames/bmode/3')).rejects.toMatchObject({ status });
      expect(fetchMock).toHaveBeenCalledTimes(1);
    }
    const controller = new AbortController();
    const { client, fetchMock } = clientWith(async () => {
      controller.abort();
      throw new DOMException('aborted', 'AbortError');
    });
    await expect(client.getBytes('records/r1/frames/bmode/3', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

/** An NDJSON answer that arrives in these chunks, one per read; `thenFail` errors the stream after them. */
function ndjsonAnswer(chunks: readonly (string | Uint8Array)[], { thenFail = false, status = 200 } = {}) {
  const encoder = new TextEncoder();
  let next = 0;
  const cancelled = vi.fn();
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[next++];
      if (chunk !== undefined) controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      else if (thenFail) controller.error(new TypeError('network error'));
      else controller.close();
    },
    cancel: cancelled,
  });
  return { response: new Response(stream, { status, headers: { 'Content-Type': 'application/x-ndjson' } }), cancelled };
}

const LineSchema = z.object({ n: z.number(), text: z.string().optional() });

async function allLines<T>(lines: AsyncIterable<T>): Promise<T[]> {
  const read: T[] = [];
  for await (const line of lines) read.push(line);
  return read;
}

describe('API client, NDJSON answers', () => {
  const post = (client: ReturnType<typeof clientWith>['client']) =>
    client.requestLines({ resource: 'pacs/connections/c1', pathParams: ['pull'], method: 'POST', body: { series: ['1.2'] }, schema: LineSchema });

  it('posts JSON with the same authorization, asks for NDJSON and reads lines split across chunks', async () => {
    // 'é' is two bytes in UTF-8, split between two chunks.
    const bytes = new TextEncoder().encode('{"n":3,"text":"é"}\n');
    const split = bytes.indexOf(0xc3) + 1;
    const { response } = ndjsonAnswer(['{"n":1}\n{"n"', ':2}\n\n', bytes.slice(0, split), bytes.slice(split), '{"n":4}']);
    const { client, fetchMock } = clientWith(response);
    expect(await allLines(post(client))).toEqual([{ n: 1 }, { n: 2 }, { n: 3, text: 'é' }, { n: 4 }]);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/demo/pacs/connections/c1/pull');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"series":["1.2"]}');
    expect(init?.headers).toEqual({ Accept: 'application/x-ndjson', Authorization: 'Bearer id.token.sig', 'Content-Type': 'application/json' });
  });

  it('hands each line over as soon as it has arrived', async () => {
    const { response } = ndjsonAnswer(['{"n":1}\n{"n":', '2}\n']);
    const { client } = clientWith(response);
    const lines = post(client);
    expect(await lines.next()).toEqual({ done: false, value: { n: 1 } });
    expect(await lines.next()).toEqual({ done: false, value: { n: 2 } });
    expect(await lines.next()).toEqual({ done: true, value: undefined });
  });

  it('turns an error answer into an ApiError before any line, and ends the session on 401', async () => {
    const refused = clientWith(Response.json({ error: 'bad_request', message: 'choose at least one series' }, { status: 400 }));
    await expect(allLines(post(refused.client))).rejects.toMatchObject({ status: 400, code: 'bad_request', message: 'choose at least one series' });
    const signedOut = clientWith(Response.json({ error: 'unauthorized', message: 'Sign in again.' }, { status: 401 }));
    await expect(allLines(post(signedOut.client))).rejects.toBeInstanceOf(ApiError);
    expect(signedOut.onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('says the server could not be reached when the answer is cut', async () => {
    const { response } = ndjsonAnswer(['{"n":1}\n{"n"'], { thenFail: true });
    const { client } = clientWith(response);
    const read: unknown[] = [];
    await expect(
      (async () => {
        for await (const line of post(client)) read.push(line);
      })(),
    ).rejects.toMatchObject({ status: 0, code: 'network_error' });
    expect(read).toEqual([{ n: 1 }]);
  });

  it('refuses a line that is not JSON or does not match the schema, and reads no further', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const broken = ndjsonAnswer(['{"n":1}\nnot json\n', '{"n":2}\n']);
    await expect(allLines(post(clientWith(broken.response).client))).rejects.toMatchObject({ status: 200, code: 'invalid_response' });
    expect(broken.cancelled).toHaveBeenCalled();
    const wrong = ndjsonAnswer(['{"n":"one"}\n']);
    await expect(allLines(post(clientWith(wrong.response).client))).rejects.toMatchObject({ code: 'invalid_response' });
  });

  it('cancels the rest of the answer when the reader stops early', async () => {
    const { response, cancelled } = ndjsonAnswer(['{"n":1}\n', '{"n":2}\n']);
    const { client } = clientWith(response);
    for await (const line of post(client)) {
      expect(line).toEqual({ n: 1 });
      break;
    }
    expect(cancelled).toHaveBeenCalled();
  });
});
