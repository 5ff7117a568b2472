/**
 * A decode worker's side of the packs it is sent (frame-decode.worker.ts, and the tests' fake
 * worker): the messages about each pack, handled one after another in the order they came, each
 * pack's frames decoded as its bytes complete them (the frame the page asked for first sent alone
 * as soon as it is decoded); the gray, or what was wrong, sent back at its
 * end, and the whole pack then kept for the next visit where the page asked for it.
 */
import type { CodecRegistry } from './codec-registry.ts';
import type { DecodeReply, PackRequest } from './decode-messages.ts';
import { keepPackInCache, type KeepPack, type PackCacheEntry } from './pack-cache.ts';
import { PackToGray } from './pack-to-gray.ts';

export type Reply = (reply: DecodeReply, transfer: Transferable[]) => void;

export function createPackRequestHandler(codecs: CodecRegistry, reply: Reply, keepPack: KeepPack = keepPackInCache): (request: PackRequest) => void {
  const packs = new Map<number, { readonly pack: PackToGray; readonly keep: PackCacheEntry | undefined; decodeMs: number }>();
  let queue = Promise.resolve();

  const fail = (id: number, error: unknown) => {
    packs.delete(id);
    reply({ id, error: error instanceof Error ? error.message : String(error) }, []);
  };

  async function handle(request: PackRequest): Promise<void> {
    if (request.kind === 'open') {
      const { id, first: index } = request;
      // The frame the review shows now goes to the page on its own, before the rest of its chunk is decoded.
      const first = index === undefined ? undefined : { index, take: (gray: Uint8Array<ArrayBuffer>) => reply({ id, frame: index, gray }, [gray.buffer]) };
      packs.set(id, { pack: new PackToGray(request.shape, codecs, first), keep: request.keep, decodeMs: 0 });
      return;
    }
    // A pack that failed already (its error sent) or was cancelled: the rest of its messages are dropped.
    const entry = packs.get(request.id);
    if (!entry) return;
    if (request.kind === 'cancel') return void packs.delete(request.id);
    if (request.kind === 'restart') return entry.pack.restart();
    const started = performance.now();
    try {
      if (request.kind === 'part') {
        await entry.pack.push(request.bytes);
        entry.decodeMs += performance.now() - started;
        return;
      }
      const gray = entry.pack.finish();
      packs.delete(request.id);
      reply({ id: request.id, gray, decodeMs: entry.decodeMs + performance.now() - started }, [gray.buffer]);
      // Only a pack that decoded whole is kept; one that could not be stored is fetched again next time.
      if (entry.keep) void keepPack(entry.keep, entry.pack.packBytes()).catch(() => {});
    } catch (error) {
      fail(request.id, error);
    }
  }

  return (request) => {
    queue = queue.then(() => handle(request));
  };
}
