import { PackToGray, type ChunkShape, type FirstFrame } from '../../../src/web/codecs/pack-to-gray.ts';
import type { CodecRegistry } from '../../../src/web/codecs/codec-registry.ts';

/**
 * A pack decoded as the workers get it from the network: in parts of uneven sizes (a single byte,
 * a cut inside the header, inside frames), after a first try of its body that broke off and was sent again.
 */
export async function decodeInParts(pack: Uint8Array, shape: ChunkShape, codecs: CodecRegistry, first?: FirstFrame): Promise<Uint8Array> {
  const decoder = new PackToGray(shape, codecs, first);
  await decoder.push(pack.subarray(0, Math.floor(pack.length / 2)));
  decoder.restart();
  let at = 0;
  for (let k = 0; at < pack.length; k++) {
    const size = [1, 7, 300, 4093, 65536][k % 5]!;
    await decoder.push(pack.slice(at, at + size));
    at += size;
  }
  return decoder.finish();
}
