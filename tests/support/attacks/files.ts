/**
 * Issue 24, hostile files: deflate bombs (a megabyte of deflate that inflates to a gigabyte) sent
 * to the import, one and several at once. The builders are shared with the import's own tests
 * (tests/server/dicom/deflate-bomb.test.ts).
 */
import zlib from 'node:zlib';
import type { Attack, AttackTarget } from '../attack-types.ts';
import { makeDicom, multipartBody } from '../dicom-fixtures.ts';

export const DEFLATED_TRANSFER_SYNTAX = '1.2.840.10008.1.2.1.99';
const MiB = 1024 ** 2;

/** The Part 10 preamble and File Meta group of a deflated explicit VR little endian file. */
function deflatedMeta(): Buffer {
  const { bytes } = makeDicom({ frames: 1, rows: 8, columns: 8, transferSyntaxUid: DEFLATED_TRANSFER_SYNTAX });
  return bytes.subarray(0, 144 + bytes.readUInt32LE(140));
}

/**
 * A deflated file whose data set is `head` then zeros, `inflatedBytes` in all: deflated a megabyte
 * at a time, so the gigabyte it stands for is never in memory nor on disk.
 */
export async function deflatedBomb(inflatedBytes: number, head: Buffer = Buffer.alloc(0)): Promise<Buffer> {
  const deflate = zlib.createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise<void>((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  const zeros = Buffer.alloc(MiB);
  deflate.write(head);
  for (let left = inflatedBytes - head.length; left > 0; left -= zeros.length) {
    if (!deflate.write(left >= zeros.length ? zeros : zeros.subarray(0, left))) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await ended;
  return Buffer.concat([deflatedMeta(), ...out]);
}

/**
 * The data set (no meta group) of a 512 x 512 IVUS run whose header announces `frames` frames,
 * up to its pixel data's value: what a bomb with a plausible header puts before its zeros.
 */
export function announcingHeader(frames: number): Buffer {
  const { bytes } = makeDicom({ frames: 1, rows: 512, columns: 512, numberOfFrames: String(frames) });
  const dataSet = bytes.subarray(144 + bytes.readUInt32LE(140));
  // Up to and including the pixel data element's header (tag, VR OB/OW, reserved, length).
  const pixelTag = dataSet.indexOf(Buffer.from([0xe0, 0x7f, 0x10, 0x00]));
  return Buffer.from(dataSet.subarray(0, pixelTag + 12));
}

let zeroBomb: Promise<Buffer> | null = null;
/** A 1 MiB deflated file of 1 GiB of zeros, made once. */
export function gigabyteZeroBomb(): Promise<Buffer> {
  zeroBomb ??= deflatedBomb(1024 * MiB);
  return zeroBomb;
}

async function uploadStatus(target: AttackTarget, name: string, bytes: Buffer): Promise<number> {
  const { body, contentType } = multipartBody([{ name, bytes }]);
  const token = await target.token('demo', 'clinician@demo.test');
  const response = await target.app.inject({
    method: 'POST',
    url: '/api/demo/imports',
    headers: { host: target.hostOf('demo'), authorization: `Bearer ${token}`, 'content-type': contentType },
    payload: body,
  });
  return response.statusCode;
}

/** The statuses of uploads sent at once: their common status, or 0 when they differ. */
async function concurrentStatus(statuses: Promise<number>[]): Promise<number> {
  const all = await Promise.all(statuses);
  return all.every((status) => status === all[0]) ? all[0]! : 0;
}

export const FILE_ATTACKS: readonly Attack[] = [
  // Zeros read as elements without a VR: refused as not DICOM (415) on the first look at them
  // (src/server/dicom/element-order.ts); a bomb that passes that look stops at the budgets (413/422).
  { category: 'files', name: 'a deflate bomb (1 MiB inflating to 1 GiB of zeros)', expected: [413, 415, 422], run: async (t) => uploadStatus(t, 'bomb.dcm', await gigabyteZeroBomb()) },
  {
    category: 'files',
    name: 'three deflate bombs at once',
    expected: [413, 415, 422],
    run: async (t) => {
      const bomb = await gigabyteZeroBomb();
      return concurrentStatus([0, 1, 2].map((n) => uploadStatus(t, `bomb-${n}.dcm`, bomb)));
    },
  },
  {
    category: 'files',
    name: 'a deflate bomb behind a header announcing 16 GiB of frames',
    expected: [413],
    run: async (t) => uploadStatus(t, 'announced.dcm', await deflatedBomb(64 * MiB, announcingHeader(65_536))),
  },
];
