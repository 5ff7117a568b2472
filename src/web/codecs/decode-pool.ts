/**
 * The review's pool of frame decode workers. A chunk's pack is handed to a worker as its bytes
 * arrive from the network (`open`, then `push` part by part), so its frames are decoded while it
 * and the other chunks still download; the worker with the fewest packs open takes the next. Gray
 * chunks come back with their buffers transferred, never copied, as do the parts going there.
 * Created when a record with packs opens, so the workers start while its first chunk downloads;
 * disposed when the review is left, which ends the workers and drops what they had not finished.
 */
import type { PackCodec } from '../../domain/images.ts';
import { readFramePack } from '../../domain/pixels/frame-pack.ts';
import type { DecodeReply, DecodeRequest } from './decode-messages.ts';
import type { PackCacheEntry } from './pack-cache.ts';
import type { ChunkShape, FirstFrame } from './pack-to-gray.ts';

/** The part of a Worker the pool uses (a fake one in the tests). */
export interface DecodeWorker {
  postMessage(message: DecodeRequest, transfer: Transferable[]): void;
  onmessage: ((event: MessageEvent<DecodeReply>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  terminate(): void;
}

/** One pack on its way to a worker, as its bytes arrive. */
export interface PackStream {
  /** The pack's next bytes; handed over (their buffer moves to the worker). */
  push(part: Uint8Array): void;
  /** The body starts again from its first byte (a retried request): what was pushed is dropped. */
  restart(): void;
  /** Every byte was pushed: the chunk's gray; rejects with the reason the pack cannot be decoded. */
  end(): Promise<Uint8Array>;
  /** The pack is not wanted any more (its request failed): the worker drops it. */
  cancel(): void;
}

export interface FrameDecodePool {
  /** A whole pack's gray; rejects with the reason a pack cannot be decoded. `bytes` is handed over (its buffer moves to a worker). */
  decode(bytes: Uint8Array, shape: ChunkShape): Promise<Uint8Array>;
  /**
   * A pack that will come part by part, decoded as it comes; `keep`: where the worker stores it once
   * whole; `first`: the frame of the pack taken alone as soon as it is decoded, before the end's gray
   * (never after the pack failed, was cancelled, or the pool disposed).
   */
  open(shape: ChunkShape, keep?: PackCacheEntry, first?: FirstFrame): PackStream;
  /**
   * Has every worker load the codec of packs of this encoding now (once per codec), so that the
   * first pack does not wait for its .wasm to be fetched and compiled: called with the image
   * lists' packCodec before the first chunk is requested; a pack of another codec still warms its own.
   */
  warm(codec: PackCodec): void;
  dispose(): void;
}

/** Bytes gathered before a pack's part goes to its worker (a frame of a 512x512 JPEG is about 70 KB). */
const PART_BYTES = 32 * 1024;

/** Workers: one core is left to the page's painting; more than 4 only add memory. */
export function poolSize(hardwareConcurrency: number | undefined): number {
  return Math.min(4, Math.max(1, (hardwareConcurrency ?? 1) - 1));
}

export function spawnDecodeWorker(): DecodeWorker {
  return new Worker(new URL('./frame-decode.worker.ts', import.meta.url), { type: 'module', name: 'frame-decode' }) as unknown as DecodeWorker;
}

interface Task {
  readonly frames: number;
  readonly first: FirstFrame | undefined;
  resolve(gray: Uint8Array): void;
  reject(error: Error): void;
}

interface Slot {
  /** Null after a crash until a pack needs the slot again (a worker whose module cannot load is not restarted in a loop). */
  worker: DecodeWorker | null;
  /** The packs this worker has open, by id. */
  readonly tasks: Map<number, Task>;
}

export class PackDecodeError extends Error {}

/** Compiles a codec's WASM in the page (null: it has none); see codec-wasm.ts. */
export type CodecCompiler = (codec: PackCodec) => Promise<WebAssembly.Module | null>;

// Imported when first needed: the .wasm URLs are Vite assets (and the tests never compile).
const compileInPage: CodecCompiler = async (codec) => (await import('./codec-wasm.ts')).compilePackCodec(codec);

/**
 * `compile`: with more than one worker, a codec's WASM is compiled once here and the module handed
 * to every worker (null: each worker fetches and compiles its own, as a single worker always does).
 */
export function createFrameDecodePool(
  size = poolSize(globalThis.navigator?.hardwareConcurrency),
  spawn: () => DecodeWorker = spawnDecodeWorker,
  compile: CodecCompiler | null = compileInPage,
): FrameDecodePool {
  const warmed = new Set<string>();
  let nextId = 1;
  let disposed = false;

  const measure = (decodeMs: number, frames: number) => {
    try {
      // For the bench and the dev tools: how long the workers spend on each chunk.
      performance.measure('ivus:pack-decode', { start: performance.now() - decodeMs, duration: decodeMs, detail: { frames } });
    } catch {
      // a browser without measure options: no figure, the chunk still shows
    }
  };
  const start = (slot: Slot): DecodeWorker => {
    const worker = spawn();
    worker.onmessage = ({ data }) => {
      const task = slot.tasks.get(data.id);
      if (!task || slot.worker !== worker) return;
      if ('frame' in data) return void (task.first?.index === data.frame && task.first.take(data.gray as Uint8Array<ArrayBuffer>));
      slot.tasks.delete(data.id);
      if ('error' in data) task.reject(new PackDecodeError(data.error));
      else {
        task.resolve(data.gray);
        measure(data.decodeMs, task.frames);
      }
    };
    worker.onerror = (event) => {
      // A worker that crashed (its module failed to load, a codec aborted) fails the packs it had; the next pack gets a new one.
      event.preventDefault();
      if (slot.worker !== worker) return;
      const error = new PackDecodeError(event.message || 'a frame decode worker stopped');
      for (const task of slot.tasks.values()) task.reject(error);
      slot.tasks.clear();
      worker.terminate();
      slot.worker = null;
    };
    slot.worker = worker;
    return worker;
  };
  const slots = Array.from({ length: Math.max(1, size) }, () => {
    const slot: Slot = { worker: null, tasks: new Map() };
    start(slot);
    return slot;
  });

  function open({ width, height, frames }: ChunkShape, keep?: PackCacheEntry, first?: FirstFrame): PackStream {
    const id = nextId++;
    let ended: Promise<Uint8Array>;
    if (disposed) {
      ended = Promise.reject(new PackDecodeError('the review was left'));
      ended.catch(() => {});
      return { push() {}, restart() {}, end: () => ended, cancel() {} };
    }
    // The packs are spread by how many each worker has open (a crashed one is restarted here).
    const slot = slots.reduce((least, candidate) => (candidate.tasks.size < least.tasks.size ? candidate : least));
    const worker = slot.worker ?? start(slot);
    ended = new Promise<Uint8Array>((resolve, reject) => slot.tasks.set(id, { frames, first, resolve, reject }));
    // A pack may fail before its end is awaited (a bad header): that is not an unhandled rejection.
    ended.catch(() => {});
    // Messages only while the pack is open in the worker that has it (not after it failed, or a crash).
    const send = (message: DecodeRequest, transfer: Transferable[] = []) => {
      if (slot.worker === worker && slot.tasks.has(id)) worker.postMessage(message, transfer);
    };
    send({ kind: 'open', id, shape: { width, height, frames }, ...(keep ? { keep } : {}), ...(first ? { first: first.index } : {}) });
    // The network's reads are gathered to PART_BYTES before they go: one message a read (a few KB
    // at a fast link) cost the page and the worker more than the copy that gathers them.
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    const flush = () => {
      if (pendingBytes === 0) return;
      const first = pending[0]!;
      const whole = pending.length === 1 && first.byteOffset === 0 && first.byteLength === first.buffer.byteLength;
      const bytes = whole ? first : new Uint8Array(pendingBytes);
      if (!whole) pending.reduce((at, part) => (bytes.set(part, at), at + part.length), 0);
      pending = [];
      pendingBytes = 0;
      // The buffer moves to the worker.
      send({ kind: 'part', id, bytes }, [bytes.buffer]);
    };
    return {
      push(part) {
        pending.push(part);
        pendingBytes += part.length;
        if (pendingBytes >= PART_BYTES) flush();
      },
      restart() {
        pending = [];
        pendingBytes = 0;
        send({ kind: 'restart', id });
      },
      end() {
        flush();
        send({ kind: 'end', id });
        return ended;
      },
      cancel() {
        send({ kind: 'cancel', id });
        slot.tasks.get(id)?.reject(new PackDecodeError('the pack was cancelled'));
        slot.tasks.delete(id);
      },
    };
  }

  function warm({ encoding, bitsStored }: PackCodec): void {
    const key = `${encoding}/${bitsStored}`;
    if (disposed || warmed.has(key)) return;
    warmed.add(key);
    const format = { encoding, bitsStored };
    const tell = (message: DecodeRequest) => {
      if (!disposed) for (const slot of slots) slot.worker?.postMessage(message, []);
    };
    if (!compile || slots.length < 2) return tell({ kind: 'warm', format });
    // The workers load the codec's JavaScript meanwhile, and wait for its WASM (even a pack that
    // arrives first); a failed compile here is no error yet: each worker then compiles its own.
    tell({ kind: 'warm', format, shared: true });
    const send = (module: WebAssembly.Module | null) => tell({ kind: 'compiled', format, module });
    compile(format).then(send, () => send(null));
  }

  /** Without a warm-up from the image lists, the other workers load the codec while the first pack is decoded (its header says which). */
  function warmFromPack(bytes: Uint8Array): void {
    let format;
    try {
      ({ format } = readFramePack(bytes));
    } catch {
      return; // the worker says what is wrong with it
    }
    warm(format);
  }

  return {
    decode(bytes, shape) {
      if (!disposed) warmFromPack(bytes);
      const pack = open(shape);
      pack.push(bytes);
      return pack.end();
    },
    open,
    warm,
    dispose() {
      if (disposed) return;
      disposed = true;
      const left = new PackDecodeError('the review was left');
      for (const slot of slots) {
        for (const task of slot.tasks.values()) task.reject(left);
        slot.tasks.clear();
        slot.worker?.terminate();
      }
    },
  };
}
