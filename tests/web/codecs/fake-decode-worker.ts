/**
 * A decode worker run in the test's own thread: the real worker's code path for packs
 * (pack-requests.ts with the page's codec registry, loaded as in Node), messages passed through
 * structuredClone with their transfer lists, as postMessage does (a transferred buffer is
 * detached on the sender's side).
 */
import type { DecodeReply, DecodeRequest } from '../../../src/web/codecs/decode-messages.ts';
import type { DecodeWorker } from '../../../src/web/codecs/decode-pool.ts';
import { createPackRequestHandler } from '../../../src/web/codecs/pack-requests.ts';
import { createNodeCodecs } from './node-codecs.ts';

export class FakeDecodeWorker implements DecodeWorker {
  onmessage: ((event: MessageEvent<DecodeReply>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  terminated = false;
  readonly received: DecodeRequest[] = [];
  /** The next pack's end crashes the worker instead of answering. */
  crashNext = false;
  private readonly handle = createPackRequestHandler(createNodeCodecs(), (reply, transfer) => this.reply(reply, transfer));

  postMessage(message: DecodeRequest, transfer: Transferable[]): void {
    const data = structuredClone(message, { transfer });
    this.received.push(data);
    if (data.kind === 'warm' || data.kind === 'compiled') return;
    if (data.kind === 'end' && this.crashNext) {
      this.crashNext = false;
      queueMicrotask(() => this.onerror?.({ message: 'the worker ran out of memory', preventDefault() {} } as ErrorEvent));
      return;
    }
    this.handle(data);
  }

  private reply(reply: DecodeReply, transfer: Transferable[]): void {
    if (!this.terminated) this.onmessage?.({ data: structuredClone(reply, { transfer }) } as MessageEvent<DecodeReply>);
  }

  terminate(): void {
    this.terminated = true;
  }
}
