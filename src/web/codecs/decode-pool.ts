/**
 * The review's pool of frame decode workers: frame packs go to whichever worker is free, in the
 * order they arrived (the loader fetches the current slice's chunk first, so it is decoded first),
 * and come back as gray chunks whose buffers were transferred, never copied. Created when a record
 * with packs opens, so the workers start while its first chunk downloads; disposed when the review
 * is left, which ends the workers and drops what they had not finished.
 */
import type { PackCodec } from '../../domain/images.ts';
import { readFramePack } from '../../domain/pixels/frame-pack.ts';
import type { DecodeReply, DecodeRequest } from './decode-messages.ts';
import type { ChunkShape } from './pack-to-gray.ts';

/** The part of a Worker the pool uses (a fake one in the tests). */
export interface DecodeWorker {
  postMessage(message: DecodeRequest, transfer: Transferable[]): void;
  onmessage: ((event: MessageEvent<DecodeReply>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  terminate(): void;
}

export interface FrameDecodePool {
  /** The chunk's gray bytes; rejects with the reason a pack cannot be decoded. `bytes` is handed over (its buffer moves to a worker). */
  decode(bytes: Uint8Array, shape: ChunkShape): Promise<Uint8Array>;
  /**
   * Has every worker load the codec of packs of this encoding now (once per codec), so that the
   * first pack does not wait for its .wasm to be fetched and compiled: called with the image
   * lists' packCodec before the first chunk is requested; a pack of another codec still warms its own.
   */
  warm(codec: PackCodec): void;
  dispose(): void;
}

/** Workers: one core is left to the page's painting; more than 4 only add memory. */
export function poolSize(hardwareConcurrency: number | undefined): number {
  return Math.min(4, Math.max(1, (hardwareConcurrency ?? 1) - 1));
}

export function spawnDecodeWorker(): DecodeWorker {
  return new Worker(new URL('./frame-decode.worker.ts', import.meta.url), { type: 'module', name: 'frame-decode' }) as unknown as DecodeWorker;
}

interface Task {
  readonly id: number;
  readonly bytes: Uint8Array;
  readonly shape: ChunkShape;
  resolve(gray: Uint8Array): void;
  reject(error: Error): void;
}

interface Slot {
  /** Null after a crash until a pack needs the slot again (a worker whose module cannot load is not restarted in a loop). */
  worker: DecodeWorker | null;
  task: Task | null;
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
  const queue: Task[] = [];
  const warmed = new Set<string>();
  let nextId = 1;
  let disposed = false;

  const settle = (slot: Slot) => {
    slot.task = null;
    pump();
  };
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
      const task = slot.task;
      if (!task || task.id !== data.id) return;
      if ('error' in data) task.reject(new PackDecodeError(data.error));
      else {
        task.resolve(data.gray);
        measure(data.decodeMs, task.shape.frames);
      }
      settle(slot);
    };
    worker.onerror = (event) => {
      // A worker that crashed (its module failed to load, a codec aborted) fails its pack; the next pack gets a new one.
      event.preventDefault();
      slot.task?.reject(new PackDecodeError(event.message || 'a frame decode worker stopped'));
      worker.terminate();
      slot.worker = null;
      settle(slot);
    };
    slot.worker = worker;
    return worker;
  };
  const slots = Array.from({ length: Math.max(1, size) }, () => {
    const slot: Slot = { worker: null, task: null };
    start(slot);
    return slot;
  });

  function pump(): void {
    for (const slot of slots) {
      if (disposed || slot.task || queue.length === 0) continue;
      const task = queue.shift()!;
      slot.task = task;
      (slot.worker ?? start(slot)).postMessage({ kind: 'decode', id: task.id, pack: task.bytes, shape: task.shape }, [task.bytes.buffer]);
    }
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
      if (disposed) return Promise.reject(new PackDecodeError('the review was left'));
      warmFromPack(bytes);
      // The buffer moves to the worker: a view into a larger buffer is copied out first.
      const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
      return new Promise<Uint8Array>((resolve, reject) => {
        queue.push({ id: nextId++, bytes: own, shape, resolve, reject });
        pump();
      });
    },
    warm,
    dispose() {
      if (disposed) return;
      disposed = true;
      const left = new PackDecodeError('the review was left');
      for (const task of queue.splice(0)) task.reject(left);
      for (const slot of slots) {
        slot.task?.reject(left);
        slot.task = null;
        slot.worker?.terminate();
      }
    },
  };
}
