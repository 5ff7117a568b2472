/**
 * A frame decode worker: turns frame packs into gray chunks off the main thread, so decoding never
 * holds up painting or scrubbing. A pack's bytes come as they arrive from the network and its
 * frames are decoded as they complete (pack-requests.ts). Codecs load the first time a pack (or a
 * warm-up) needs them.
 */
/// <reference lib="webworker" />
import { createBrowserCodecs, expectCompiled, provideCompiled } from './browser-codecs.ts';
import { wasmUrlOf } from './codec-wasm.ts';
import type { DecodeRequest } from './decode-messages.ts';
import { createPackRequestHandler } from './pack-requests.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const codecs = createBrowserCodecs();
const handlePack = createPackRequestHandler(codecs, (reply, transfer) => scope.postMessage(reply, transfer));

scope.onmessage = ({ data }: MessageEvent<DecodeRequest>) => {
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
  handlePack(data);
};
