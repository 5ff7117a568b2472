/**
 * The pool of decode workers: packs become gray chunks, whole or part by part as they download,
 * the bytes move to the workers and back without copies, a bad pack fails only its own chunk, a
 * crashed worker only the packs it had, and leaving the review
 * ends the workers and drops the packs they had not decoded.
 */
import { describe, expect, it, vi } from 'vitest';
import { buildFramePack } from '../../../src/domain/pixels/frame-pack.ts';
import { wasmLibraryOf } from '../../../src/web/codecs/codec-registry.ts';
import { createFrameDecodePool, poolSize, type CodecCompiler } from '../../../src/web/codecs/decode-pool.ts';
import { FakeDecodeWorker } from './fake-decode-worker.ts';
import { GRAY_FORMAT } from './gray-format.ts';

/** The smallest valid WASM module (magic and version): a stand-in for a codec's. */
const EMPTY_WASM = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
const frame = (seed: number) => Uint8Array.from({ length: 24 }, (_, i) => (seed * 37 + i * 11) & 0xff);
const shape = (frames: number) => ({ width: 6, height: 4, frames });

function pool(size: number, compile: CodecCompiler | null = null) {
  const workers: FakeDecodeWorker[] = [];
  const created = createFrameDecodePool(
    size,
    () => {
      const worker = new FakeDecodeWorker();
      workers.push(worker);
      return worker;
    },
    compile,
  );
  return { pool: created, workers };
}

describe('the frame decode pool', () => {
  it('has one worker fewer than the cores (one left to painting), at least 1 and at most 4', () => {
    expect([undefined, 1, 2, 3, 8, 64].map(poolSize)).toEqual([1, 1, 1, 2, 4, 4]);
  });

  it('decodes packs into gray chunks, handing the pack over to a worker', async () => {
    const { pool: decoder, workers } = pool(2);
    expect(workers).toHaveLength(2);
    const packs = [0, 1, 2].map((k) => buildFramePack(GRAY_FORMAT, [frame(2 * k), frame(2 * k + 1)]));
    const grays = await Promise.all(packs.map((pack) => decoder.decode(pack, shape(2))));
    grays.forEach((gray, k) => expect(Array.from(gray)).toEqual([...frame(2 * k), ...frame(2 * k + 1)]));
    // Moved, not copied: the page's pack buffers are detached.
    for (const pack of packs) expect(pack.buffer.byteLength).toBe(0);
    decoder.dispose();
  });

  it('fails a bad pack with its reason and goes on with the next', async () => {
    const { pool: decoder } = pool(1);
    const bad = decoder.decode(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]), shape(1));
    const good = decoder.decode(buildFramePack(GRAY_FORMAT, [frame(1)]), shape(1));
    await expect(bad).rejects.toThrow('not a frame pack');
    expect(Array.from(await good)).toEqual(Array.from(frame(1)));
    decoder.dispose();
  });

  it('replaces a worker that crashed: the packs it had fail, the next is decoded by a new one', async () => {
    const { pool: decoder, workers } = pool(1);
    workers[0]!.crashNext = true;
    const lost = decoder.decode(buildFramePack(GRAY_FORMAT, [frame(1)]), shape(1));
    await expect(lost).rejects.toThrow('out of memory');
    const next = decoder.decode(buildFramePack(GRAY_FORMAT, [frame(2)]), shape(1));
    expect(Array.from(await next)).toEqual(Array.from(frame(2)));
    expect(workers).toHaveLength(2);
    expect(workers[0]!.terminated).toBe(true);
    decoder.dispose();
  });

  it('decodes a pack whose bytes come in parts, gathering small reads into one message, spreading packs over the workers', async () => {
    const { pool: decoder, workers } = pool(2);
    const frames = [frame(1), frame(2), frame(3)];
    const bytes = buildFramePack(GRAY_FORMAT, frames);
    const streams = [decoder.open(shape(3)), decoder.open(shape(3))];
    // Split inside the prefix, the header and a frame; the second pack's body is sent again from its start.
    const cuts = [0, 3, 20, bytes.length - 30, bytes.length];
    const parts = cuts.slice(1).map((end, k) => bytes.slice(cuts[k], end));
    for (const part of parts) streams[0]!.push(part);
    streams[1]!.push(bytes.slice(0, 40));
    streams[1]!.restart();
    const again = bytes.slice();
    streams[1]!.push(again);
    for (const gray of await Promise.all(streams.map((stream) => stream.end()))) expect(Array.from(gray)).toEqual(frames.flatMap((f) => Array.from(f)));
    const received = workers.map((worker) => worker.received.map((m) => m.kind));
    expect(received).toEqual([
      ['open', 'part', 'end'],
      ['open', 'restart', 'part', 'end'],
    ]);
    // A read that goes alone is handed over, not copied.
    expect(again.buffer.byteLength).toBe(0);
    decoder.dispose();
  });

  it('sends a large pack in parts as they arrive, before its end', async () => {
    const { pool: decoder, workers } = pool(1);
    const frames = Array.from({ length: 8 }, () => Uint8Array.from({ length: 24 * 1024 }, (_, i) => (i * 7) & 0xff));
    const stream = decoder.open({ width: 6 * 1024, height: 4, frames: 8 });
    const bytes = buildFramePack({ ...GRAY_FORMAT, columns: 6 * 1024 }, frames);
    for (let at = 0; at < bytes.length; at += 4096) stream.push(bytes.slice(at, at + 4096));
    const before = workers[0]!.received.filter((m) => m.kind === 'part').length;
    expect(before).toBeGreaterThan(4);
    expect((await stream.end()).length).toBe(8 * 24 * 1024);
    decoder.dispose();
  });

  it('fails a pack that ends early, or is cancelled, and goes on with the others', async () => {
    const { pool: decoder } = pool(1);
    const bytes = buildFramePack(GRAY_FORMAT, [frame(1), frame(2)]);
    const short = decoder.open(shape(2));
    const cancelled = decoder.open(shape(2));
    const whole = decoder.open(shape(2));
    short.push(bytes.slice(0, bytes.length - 1));
    cancelled.push(bytes.slice(0, 10));
    cancelled.cancel();
    whole.push(bytes.slice());
    await expect(short.end()).rejects.toThrow('ends inside a frame');
    await expect(cancelled.end()).rejects.toThrow('cancelled');
    expect(Array.from(await whole.end())).toEqual([...frame(1), ...frame(2)]);
    decoder.dispose();
  });

  it('does not restart in a loop a worker whose module cannot load: each pack fails with the reason', async () => {
    const workers: FakeDecodeWorker[] = [];
    const decoder = createFrameDecodePool(1, () => {
      const worker = new FakeDecodeWorker();
      workers.push(worker);
      queueMicrotask(() => worker.onerror?.({ message: 'the worker script was blocked', preventDefault() {} } as ErrorEvent));
      return worker;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(workers).toHaveLength(1);
    await expect(decoder.decode(buildFramePack(GRAY_FORMAT, [frame(1)]), shape(1))).rejects.toThrow('the worker script was blocked');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(workers).toHaveLength(2);
    decoder.dispose();
  });

  it('tells every worker to load the codec the first pack of an encoding needs', async () => {
    const { pool: decoder, workers } = pool(3);
    await decoder.decode(buildFramePack({ ...GRAY_FORMAT, encoding: 'rle' }, []), shape(0));
    await decoder.decode(buildFramePack({ ...GRAY_FORMAT, encoding: 'rle' }, []), shape(0));
    for (const worker of workers) expect(worker.received.filter((m) => m.kind === 'warm')).toEqual([{ kind: 'warm', format: { encoding: 'rle', bitsStored: 8 } }]);
    decoder.dispose();
  });

  it('has every worker load a codec named before any pack (the image lists), once, and not again for its packs', async () => {
    const { pool: decoder, workers } = pool(2);
    decoder.warm({ encoding: 'jpeg-ls', bitsStored: 8 });
    decoder.warm({ encoding: 'jpeg-ls', bitsStored: 8 });
    for (const worker of workers) expect(worker.received).toEqual([{ kind: 'warm', format: { encoding: 'jpeg-ls', bitsStored: 8 } }]);
    await decoder.decode(buildFramePack({ ...GRAY_FORMAT, encoding: 'jpeg-ls' }, []), shape(0));
    const warms = workers.flatMap((worker) => worker.received.filter((m) => m.kind === 'warm'));
    expect(warms).toHaveLength(2);
    // A pack of another codec than the lists said still has it loaded everywhere.
    await decoder.decode(buildFramePack({ ...GRAY_FORMAT, encoding: 'rle' }, []), shape(0));
    for (const worker of workers) expect(worker.received.filter((m) => m.kind === 'warm').map((m) => m.kind === 'warm' && m.format.encoding)).toEqual(['jpeg-ls', 'rle']);
    decoder.dispose();
  });

  it('compiles a codec\'s WASM once in the page and hands the module to each of its workers', async () => {
    const compiled: string[] = [];
    const { pool: decoder, workers } = pool(3, async (codec) => {
      compiled.push(codec.encoding);
      return new WebAssembly.Module(EMPTY_WASM);
    });
    decoder.warm({ encoding: 'jpeg-ls', bitsStored: 8 });
    decoder.warm({ encoding: 'jpeg-ls', bitsStored: 8 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(compiled).toEqual(['jpeg-ls']);
    const format = { encoding: 'jpeg-ls', bitsStored: 8 };
    for (const worker of workers) {
      // Told at once to wait for the page's compile (not to fetch its own), then handed it.
      expect(worker.received.map((message) => message.kind)).toEqual(['warm', 'compiled']);
      const [warm, compiledModule] = worker.received;
      expect(warm).toEqual({ kind: 'warm', format, shared: true });
      expect(compiledModule).toMatchObject({ kind: 'compiled', format });
      expect(compiledModule?.kind === 'compiled' && compiledModule.module).toBeInstanceOf(WebAssembly.Module);
    }
    decoder.dispose();
  });

  it('leaves a single worker to compile its own, and every worker to load its own when the page cannot compile it', async () => {
    let compiles = 0;
    const { pool: single, workers: one } = pool(1, async () => {
      compiles++;
      return new WebAssembly.Module(EMPTY_WASM);
    });
    single.warm({ encoding: 'jpeg', bitsStored: 8 });
    expect(compiles).toBe(0);
    expect(one[0]!.received).toEqual([{ kind: 'warm', format: { encoding: 'jpeg', bitsStored: 8 } }]);
    single.dispose();
    const { pool: failing, workers } = pool(2, async () => {
      throw new Error('the codec could not be fetched (HTTP 503)');
    });
    failing.warm({ encoding: 'htj2k', bitsStored: 8 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const format = { encoding: 'htj2k', bitsStored: 8 };
    for (const worker of workers) expect(worker.received).toEqual([{ kind: 'warm', format, shared: true }, { kind: 'compiled', format, module: null }]);
    failing.dispose();
  });

  it('knows which codecs have a WASM to compile (RLE, JPEG lossless and 12-bit JPEG decode in JavaScript)', () => {
    const codecs = [
      { encoding: 'jpeg', bitsStored: 8 },
      { encoding: 'jpeg-ls', bitsStored: 8 },
      { encoding: 'jpeg2000', bitsStored: 12 },
      { encoding: 'htj2k', bitsStored: 16 },
      { encoding: 'jpeg', bitsStored: 12 },
      { encoding: 'jpeg-lossless', bitsStored: 16 },
      { encoding: 'rle', bitsStored: 8 },
    ] as const;
    expect(codecs.map(wasmLibraryOf)).toEqual(['libjpegTurbo', 'charls', 'openjpeg', 'openjph', null, null, null]);
  });

  it('ends its workers when the review is left, dropping what was not decoded', async () => {
    const { pool: decoder, workers } = pool(1);
    const pending = [1, 2, 3].map((k) => decoder.decode(buildFramePack(GRAY_FORMAT, [frame(k)]), shape(1)));
    decoder.dispose();
    for (const decoded of pending) await expect(decoded).rejects.toThrow('the review was left');
    expect(workers.every((worker) => worker.terminated)).toBe(true);
    await expect(decoder.decode(buildFramePack(GRAY_FORMAT, [frame(1)]), shape(1))).rejects.toThrow('the review was left');
  });
});

describe('the frame the review shows first (issue 27)', () => {
  // Frames of 64 KB: larger than the parts the pool gathers, as a real frame is, so each goes to the worker as it arrives.
  const WIDE = { ...GRAY_FORMAT, columns: 16 * 1024 };
  const wide = (seed: number) => Uint8Array.from({ length: 16 * 1024 * 4 }, (_, i) => (seed * 37 + i * 11) & 0xff);
  const wideShape = (frames: number) => ({ width: 16 * 1024, height: 4, frames });
  const taker = (index: number) => {
    const taken: Uint8Array[] = [];
    return { taken, first: { index, take: (gray: Uint8Array) => void taken.push(gray) } };
  };

  it('is handed over alone as soon as it is decoded, before the rest of its pack has arrived; the chunk still comes whole', async () => {
    const { pool: decoder } = pool(1);
    const frames = [wide(1), wide(2), wide(3)];
    const bytes = buildFramePack(WIDE, frames);
    const { taken, first } = taker(1);
    const stream = decoder.open(wideShape(3), undefined, first);
    // Everything but the last frame, as one read (larger than a gathered part, so it goes at once).
    stream.push(bytes.slice(0, bytes.length - frames[2]!.length));
    await vi.waitFor(() => expect(taken).toHaveLength(1));
    expect(Buffer.from(taken[0]!).equals(Buffer.from(frames[1]!))).toBe(true);
    // Its own buffer, moved from the worker: one frame, not a view into the chunk.
    expect(taken[0]!.buffer.byteLength).toBe(frames[1]!.length);
    stream.push(bytes.slice(bytes.length - frames[2]!.length));
    const gray = await stream.end();
    expect(Buffer.from(gray).equals(Buffer.concat(frames))).toBe(true);
    expect(taken).toHaveLength(1);
    decoder.dispose();
  });

  it('is handed over even when a later frame of its pack fails; the pack itself fails as a whole, as before', async () => {
    const { pool: decoder } = pool(1);
    const frames = [wide(1), wide(2)];
    const bytes = buildFramePack(WIDE, frames);
    const { taken, first } = taker(0);
    const stream = decoder.open(wideShape(2), undefined, first);
    stream.push(bytes.slice(0, bytes.length - 10));
    await expect(stream.end()).rejects.toThrow('ends inside a frame');
    expect(taken).toHaveLength(1);
    expect(Buffer.from(taken[0]!).equals(Buffer.from(frames[0]!))).toBe(true);
    decoder.dispose();
  });

  it('is dropped when it comes after its pack was cancelled or the review was left', async () => {
    const { pool: decoder, workers } = pool(2);
    const bytes = buildFramePack(WIDE, [wide(1), wide(2)]);
    const cancelled = taker(0);
    const left = taker(0);
    const first = decoder.open(wideShape(2), undefined, cancelled.first);
    const second = decoder.open(wideShape(2), undefined, left.first);
    // The frame's bytes reach the workers; the page no longer wants them before the workers answer.
    first.push(bytes.slice());
    second.push(bytes.slice());
    first.cancel();
    expect(workers.map((worker) => worker.received.filter((m) => m.kind === 'part').length)).toEqual([1, 1]);
    const ended = second.end();
    decoder.dispose();
    await expect(ended).rejects.toThrow('the review was left');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(cancelled.taken).toEqual([]);
    expect(left.taken).toEqual([]);
  });
});
