/**
 * A decode worker keeps a pack it decoded whole for the next visit, where the page asked it to
 * (the frames service worker hands such packs straight through instead of storing them), and
 * keeps nothing of a pack that failed.
 */
import { describe, expect, it, vi } from 'vitest';
import { buildFramePack } from '../../../src/domain/pixels/frame-pack.ts';
import type { DecodeReply } from '../../../src/web/codecs/decode-messages.ts';
import type { KeepPack } from '../../../src/web/codecs/pack-cache.ts';
import { createPackRequestHandler } from '../../../src/web/codecs/pack-requests.ts';
import { GRAY_FORMAT } from './gray-format.ts';
import { createNodeCodecs } from './node-codecs.ts';

const frame = (seed: number) => Uint8Array.from({ length: 24 }, (_, i) => (seed * 13 + i * 5) & 0xff);
const shape = { width: 6, height: 4, frames: 2 };

describe('a decode worker given a pack part by part', () => {
  it('answers its gray and keeps the whole pack where the page said, but nothing of a pack that ends early', async () => {
    const replies: DecodeReply[] = [];
    const keepPack = vi.fn<KeepPack>(async () => {});
    const handle = createPackRequestHandler(createNodeCodecs(), (reply) => replies.push(reply), keepPack);
    const pack = buildFramePack(GRAY_FORMAT, [frame(1), frame(2)]);
    const keep = { cache: 'ivus-frames-v2 iss sub', url: '/api/demo/records/r1/frames/bmode/0' };
    handle({ kind: 'open', id: 1, shape, keep });
    handle({ kind: 'open', id: 2, shape, keep: { ...keep, url: '/api/demo/records/r1/frames/bmode/1' } });
    for (let at = 0; at < pack.length; at += 16) handle({ kind: 'part', id: 1, bytes: pack.slice(at, at + 16) });
    handle({ kind: 'part', id: 2, bytes: pack.slice(0, pack.length - 3) });
    handle({ kind: 'end', id: 1 });
    handle({ kind: 'end', id: 2 });
    await vi.waitFor(() => expect(replies).toHaveLength(2));
    expect(replies[0]).toMatchObject({ id: 1, gray: new Uint8Array([...frame(1), ...frame(2)]) });
    expect(replies[1]).toMatchObject({ id: 2, error: 'a frame pack ends inside a frame' });
    expect(keepPack).toHaveBeenCalledTimes(1);
    expect(keepPack.mock.calls[0]![0]).toEqual(keep);
    expect(Buffer.from(keepPack.mock.calls[0]![1]).equals(Buffer.from(pack))).toBe(true);
  });
});
