/**
 * Writing one received instance as a DICOM Part 10 file (dimse-receiver.ts): the preamble and file
 * meta information, then the dataset fragments as dcmjs-dimse streams them, never the whole
 * dataset in memory.
 */
import type { FileHandle } from 'node:fs/promises';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';

/** Dataset bytes waiting for the disk before the socket is paused (TCP then slows the sender down). */
const WRITE_HIGH_WATER = 1024 * 1024;

/** Written in the files' meta header: who wrote them (a 2.25 UUID-derived UID of this receiver). */
const IMPLEMENTATION_CLASS_UID = '2.25.241113768532663180836938108474562745430';
const IMPLEMENTATION_VERSION = 'IVUSREVIEW_RCV1';

/** A UID without the padding some devices leave on it (trailing NUL or spaces). */
export const trimUid = (uid: unknown): string => (typeof uid === 'string' ? uid.replace(/[\0 ]+$/, '').slice(0, 64) : '');

/** A file name for an instance: its UID when it is one, otherwise the UID with anything unsafe replaced. */
export function instanceFileName(sopInstanceUid: string, index: number): string {
  const safe = sopInstanceUid.replace(/[^0-9A-Za-z.-]/g, '_');
  return /[0-9A-Za-z]/.test(safe) ? `${safe}.dcm` : `instance-${index}.dcm`;
}

/** The Part 10 preamble and file meta information (explicit VR little endian, as PS3.10 requires). */
export function part10Header(meta: { sopClassUid: string; sopInstanceUid: string; transferSyntaxUid: string; sourceAeTitle: string }): Buffer {
  const element = (tag: number, vr: string, value: Buffer): Buffer => {
    const long = vr === 'OB';
    const head = Buffer.alloc(long ? 12 : 8);
    head.writeUInt16LE(0x0002, 0);
    head.writeUInt16LE(tag, 2);
    head.write(vr, 4, 'latin1');
    if (long) head.writeUInt32LE(value.length, 8);
    else head.writeUInt16LE(value.length, 6);
    return Buffer.concat([head, value]);
  };
  // Values have even lengths: UIDs are padded with NUL, text with a space.
  const even = (value: string, pad: string) => Buffer.from(value.length % 2 ? value + pad : value, 'latin1');
  const ae = meta.sourceAeTitle.replace(/[^\x20-\x7e]/g, '').slice(0, 16);
  const body = Buffer.concat([
    element(0x0001, 'OB', Buffer.from([0, 1])),
    element(0x0002, 'UI', even(meta.sopClassUid, '\0')),
    element(0x0003, 'UI', even(meta.sopInstanceUid, '\0')),
    element(0x0010, 'UI', even(meta.transferSyntaxUid, '\0')),
    element(0x0012, 'UI', even(IMPLEMENTATION_CLASS_UID, '\0')),
    element(0x0013, 'SH', even(IMPLEMENTATION_VERSION, ' ')),
    ...(ae ? [element(0x0016, 'AE', even(ae, ' '))] : []),
  ]);
  const groupLength = Buffer.alloc(4);
  groupLength.writeUInt32LE(body.length);
  return Buffer.concat([Buffer.alloc(128), Buffer.from('DICM', 'latin1'), element(0x0000, 'UL', groupLength), body]);
}

async function writeAll(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length; ) at += (await handle.write(bytes, at, bytes.length - at)).bytesWritten;
}

type Done = (error?: Error | null) => void;

/**
 * One instance's file: the Part 10 header, then the dataset fragments as they arrive. Without a
 * target (the association is over budget) or once `admit` says no, fragments are counted and dropped.
 */
export class InstanceWriter extends Writable {
  /** Bytes in the file (header and dataset), its path once open, and what went wrong. */
  size = 0;
  filePath: string | null = null;
  failed: Error | null = null;
  readonly fileName: string | null;
  private readonly dir: Promise<string> | null;
  private readonly header: Buffer;
  private readonly admit: (bytes: number) => boolean;
  private handle: FileHandle | null = null;

  constructor(target: { fileName: string; dir: Promise<string> } | null, header: Buffer, admit: (bytes: number) => boolean) {
    super({ highWaterMark: WRITE_HIGH_WATER });
    this.fileName = target?.fileName ?? null;
    this.dir = target?.dir ?? null;
    this.header = header;
    this.admit = admit;
    // dcmjs-dimse keeps writing to a failed stream; the failure is answered in the C-STORE response.
    this.on('error', (error) => (this.failed ??= error));
  }

  override _construct(callback: Done): void {
    if (!this.dir || !this.fileName) return callback();
    const fileName = this.fileName;
    this.dir
      .then(async (dir) => {
        this.handle = await fs.open(path.join(dir, fileName), 'w');
        this.filePath = path.join(dir, fileName);
        await writeAll(this.handle, this.header);
        this.size = this.header.length;
      })
      .then(() => callback(), callback);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: Done): void {
    const handle = this.handle;
    if (!this.admit(chunk.length) || !handle) return callback();
    writeAll(handle, chunk).then(() => {
      this.size += chunk.length;
      callback();
    }, callback);
  }

  override _final(callback: Done): void {
    this.closeFile().then(() => callback(), callback);
  }

  override _destroy(error: Error | null, callback: Done): void {
    this.closeFile().then(() => callback(error), () => callback(error));
  }

  private async closeFile(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    await handle?.close();
  }
}
