/**
 * A frame decode worker: turns frame packs into gray chunks off the main thread, so decoding never
 * holds up painting or scrubbing. Codecs load the first time a pack (or a warm-up) needs them.
 */
/// <reference lib="webworker" />
import { createBrowserCodecs, expectCompiled, provideCompiled } from './browser-codecs.ts';
import { wasmUrlOf } from './codec-wasm.ts';
import type { DecodeReply, DecodeRequest } from './decode-messages.ts';
import { decodePackToGray } from './pack-to-gray.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const codecs = createBrowserCodecs();

scope.onmessage = async ({ data }: MessageEvent<DecodeRequest>) => {
  if (data.kind === 'compiled') {
    const url = wasmUrlOf(data.format);
    if (url) provideCompiled(url, data.module);
    return;
  }
  if (data.kind === 'warm') {
    const url = wasmUrlOf(data.format);
    if (data.shared && url) expectCompiled(url);
    // A failed warm-up is not an error yet: the pack that needs the codec tries again and says why.
    codecs.init(data.format).catch(() => {});
    return;
  }
  const started = performance.now();
  try {
    const gray = await decodePackToGray(data.pack, data.shape, codecs);
    const reply: DecodeReply = { id: data.id, gray, decodeMs: performance.now() - started };
    scope.postMessage(reply, [gray.buffer]);
  } catch (error) {
    const reply: DecodeReply = { id: data.id, error: error instanceof Error ? error.message : String(error) };
    scope.postMessage(reply);
  }
};
