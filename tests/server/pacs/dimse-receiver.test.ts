/**
 * The C-STORE receiver against real senders: dcmtk's storescu/echoscu (what an IVUS console's DICOM
 * stack behaves like) and Orthanc pushing a stored instance (a real PACS). What arrives is checked
 * with dcmdump, an independent reader: same SOP Instance UID, transfer syntax and pixel data.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeDicom } from '../../support/dicom-fixtures.ts';
import { orthancAvailable, startOrthanc, type OrthancHandle } from '../../support/orthanc.ts';
import { hasTool, transcode } from '../../support/real-encoders.ts';
import { AE, emptied, run, startHarness, stopHarness, TENANT, until, type Harness } from '../../support/dimse-harness.ts';

const hasDcmtk = ['storescu', 'echoscu', 'dcmdump', 'dcmcjpeg'].every(hasTool);
if (!hasDcmtk) console.warn("\nNOTICE: Debian's dcmtk (storescu, echoscu, dcmdump, dcmcjpeg) is not installed: the DIMSE sender tests are skipped.\n");
const hasOrthanc = orthancAvailable();

/** SOP Instance UID, transfer syntax UID and the pixel data (value or fragments) as dcmdump reads them. */
async function dump(file: string): Promise<{ sopInstanceUid: string; transferSyntaxUid: string; pixels: Buffer[] }> {
  const fields = await run('dcmdump', ['-q', '-Un', '+P', '0008,0018', '+P', '0002,0010', file]);
  expect(fields.code, fields.output).toBe(0);
  const value = (tag: string) => new RegExp(`\\(${tag}\\) UI \\[([^\\]]*)\\]`).exec(fields.output)?.[1] ?? '';
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-dcmdump-'));
  try {
    const written = await run('dcmdump', ['-q', '+W', out, file]);
    expect(written.code, written.output).toBe(0);
    const raws = fs.readdirSync(out).sort((a, b) => Number(a.split('.').at(-2)) - Number(b.split('.').at(-2)));
    return { sopInstanceUid: value('0008,0018'), transferSyntaxUid: value('0002,0010'), pixels: raws.map((name) => fs.readFileSync(path.join(out, name))) };
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

describe.skipIf(!hasDcmtk)('DIMSE receiver with dcmtk', () => {
  let work: string;
  let uncompressed: string;
  let jpeg: string;
  let harness: Harness | undefined;

  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-dimse-files-'));
    // A pullback of 120 frames of 256 x 256 (7.5 MiB): many PDUs, and more than the write buffer.
    uncompressed = path.join(work, 'pullback.dcm');
    fs.writeFileSync(uncompressed, makeDicom({ patientId: 'DIMSE-1', rows: 256, columns: 256, frames: 120, distinctFrames: 8 }).bytes);
    jpeg = transcode('dcmcjpeg', ['+eb'], path.join(work, 'pullback.dcm'), path.join(work, 'pullback-jpeg.dcm'));
  });
  afterAll(() => {
    fs.rmSync(work, { recursive: true, force: true });
  });
  afterEach(async () => {
    await stopHarness(harness);
    harness = undefined;
  });

  it.each([
    ['explicit VR little endian', () => uncompressed, [], '1.2.840.10008.1.2.1'],
    ['JPEG baseline', () => jpeg, ['-xy'], '1.2.840.10008.1.2.4.50'],
  ] as const)('receives a multi-frame pullback in %s as it was sent', async (_label, file, proposal, syntax) => {
    harness = await startHarness();
    const sent = await dump(file());
    expect(sent.transferSyntaxUid).toBe(syntax);

    const result = await run('storescu', [...proposal, '-aet', 'CONSOLE', '-aec', AE, '127.0.0.1', String(harness.receiver.port), file()]);
    expect(result.code, result.output).toBe(0);
    await until(() => harness!.calls.length === 1);
    await until(emptied(harness));

    const [received] = harness.calls;
    expect(received).toMatchObject({ tenantId: TENANT, callingAeTitle: 'CONSOLE', calledAeTitle: AE, remoteAddress: '127.0.0.1' });
    expect(received!.files).toHaveLength(1);
    const [file0] = received!.files;
    expect(file0!.fileName).toBe(`${sent.sopInstanceUid}.dcm`);
    const kept = path.join(harness.kept, file0!.fileName);
    expect(fs.statSync(kept).size).toBe(file0!.size);

    const got = await dump(kept);
    expect(got.sopInstanceUid).toBe(sent.sopInstanceUid);
    expect(got.transferSyntaxUid).toBe(syntax);
    expect(got.pixels.length).toBe(sent.pixels.length);
    got.pixels.forEach((pixels, i) => expect(pixels.equals(sent.pixels[i]!), `pixel data part ${i}`).toBe(true));
  });

  it('rejects an association calling an unknown AE title, and calls nothing', async () => {
    harness = await startHarness();
    const result = await run('storescu', ['-aet', 'CONSOLE', '-aec', 'SOMEONE', '127.0.0.1', String(harness.receiver.port), uncompressed]);
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/Called AE Title Not Recognized/i);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(harness.calls).toEqual([]);
    expect(fs.readdirSync(harness.tempRoot)).toEqual([]);
    // Who called is logged, without patient data.
    expect(harness.logs.join('\n')).toMatch(/not recognised/);
    expect(harness.logs.join('\n')).toContain('SOMEONE');
    expect(harness.logs.join('\n')).not.toContain('DIMSE-1');
  });

  it('answers C-ECHO, and an association without instances calls nothing', async () => {
    harness = await startHarness();
    const result = await run('echoscu', ['-aet', 'CONSOLE', '-aec', AE, '127.0.0.1', String(harness.receiver.port)]);
    expect(result.code, result.output).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(harness.calls).toEqual([]);
  });

  it('imports nothing of an association over its byte budget', async () => {
    const small = path.join(work, 'small.dcm');
    fs.writeFileSync(small, makeDicom({ patientId: 'DIMSE-2', frames: 4 }).bytes);
    // The small file fits; the pullback after it goes over: nothing of the association is kept.
    harness = await startHarness({ maxAssociationBytes: 1024 * 1024 });
    const result = await run('storescu', ['-v', '-nh', '-aet', 'CONSOLE', '-aec', AE, '127.0.0.1', String(harness.receiver.port), small, uncompressed]);
    expect(result.output).toMatch(/Refused: ?Out ?Of ?Resources/i);
    await until(emptied(harness));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(harness.calls).toEqual([]);
    expect(harness.logs.join('\n')).toMatch(/over its byte budget/);
  });

  it('discards what an aborted association brought', async () => {
    harness = await startHarness();
    const result = await run('storescu', ['--abort', '-aet', 'CONSOLE', '-aec', AE, '127.0.0.1', String(harness.receiver.port), uncompressed]);
    expect(result.code, result.output).toBe(0);
    await until(() => harness!.logs.some((line) => line.includes('without a release')));
    await until(emptied(harness));
    expect(harness.calls).toEqual([]);
  });

  it('logs a failing callback and keeps serving', async () => {
    harness = await startHarness({
      onAssociation: async () => {
        throw new Error('import refused');
      },
    });
    const port = String(harness.receiver.port);
    expect((await run('storescu', ['-aet', 'CONSOLE', '-aec', AE, '127.0.0.1', port, jpeg, '-xy'])).code).toBe(0);
    await until(() => harness!.logs.some((line) => line.includes('import refused')));
    await until(emptied(harness));
    expect((await run('echoscu', ['-aet', 'CONSOLE', '-aec', AE, '127.0.0.1', port])).code).toBe(0);
  });
});

describe.skipIf(!hasDcmtk || !hasOrthanc)('DIMSE receiver with Orthanc pushing', () => {
  let harness: Harness;
  let orthanc: OrthancHandle;
  beforeAll(async () => {
    harness = await startHarness();
    orthanc = (await startOrthanc({ modalities: { review: { aet: AE, host: '127.0.0.1', port: harness.receiver.port } } }))!;
    // The tenant registered the PACS as a sender.
    harness.registered.set(orthanc.aeTitle, []);
  });
  afterAll(async () => {
    await orthanc?.stop();
    await stopHarness(harness);
  });

  it('receives an instance Orthanc stores to it (C-STORE from a real PACS)', async () => {
    const fixture = makeDicom({ patientId: 'DIMSE-PACS', frames: 12 });
    const id = await orthanc.upload(fixture.bytes);
    const response = await fetch(`${orthanc.httpUrl}/modalities/review/store`, { method: 'POST', body: JSON.stringify({ Resources: [id], Synchronous: true }) });
    expect(response.status, await response.clone().text()).toBe(200);
    await until(() => harness.calls.length === 1);
    const [received] = harness.calls;
    expect(received).toMatchObject({ tenantId: TENANT, callingAeTitle: orthanc.aeTitle, calledAeTitle: AE });
    expect(received!.files).toHaveLength(1);

    const sentFile = path.join(harness.kept, 'sent.dcm');
    fs.writeFileSync(sentFile, fixture.bytes);
    const sent = await dump(sentFile);
    const got = await dump(path.join(harness.kept, received!.files[0]!.fileName));
    expect(got.sopInstanceUid).toBe(sent.sopInstanceUid);
    expect(got.transferSyntaxUid).toBe(sent.transferSyntaxUid);
    expect(Buffer.concat(got.pixels).equals(Buffer.concat(sent.pixels))).toBe(true);
  });
});
