/**
 * Issue 24, item 2: anyone who reached the DICOM port wrote into any tenant. A push is answered, in
 * the suite's terms, 403 when the receiver rejects the association (A-ASSOCIATE-RJ), 200 when an
 * instance was stored, 0 when the connection ended otherwise. Registering senders is the
 * administrators' alone, within their tenant, and refuses malformed AE titles.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import dimse from 'dcmjs-dimse';
import type { Attack, AttackTarget } from '../attack-types.ts';
import { makeDicom } from '../dicom-fixtures.ts';

/** Registered in the target (attack-target.ts): CATHLAB1 in demo from anywhere, NETLIMITED in demo from 10.0.0.0/8 only. */
export const DEMO_SENDER = 'CATHLAB1';
export const NETWORK_LIMITED_SENDER = 'NETLIMITED';

/** Pushes one small instance from `callingAe` to `calledAe`; what the receiver made of it, as a status. */
export async function pushStatus(target: AttackTarget, callingAe: string, calledAe: string): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-attack-dimse-'));
  try {
    const file = path.join(dir, 'pullback.dcm');
    fs.writeFileSync(file, makeDicom({ patientId: 'ATTACK-DIMSE', frames: 2 }).bytes);
    return await pushFile(target, file, callingAe, calledAe);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function pushFile(target: AttackTarget, file: string, callingAe: string, calledAe: string): Promise<number> {
  return new Promise((resolve) => {
    const client = new dimse.Client();
    const request = new dimse.requests.CStoreRequest(file);
    let status = 0;
    request.on('response', (response: { getStatus(): number }) => {
      status = response.getStatus() === 0 ? 200 : 500;
    });
    client.addRequest(request);
    client.on('associationRejected', () => (status = 403));
    client.on('closed', () => resolve(status));
    client.on('networkError', () => resolve(status));
    client.send('127.0.0.1', target.dicomPort, callingAe, calledAe);
  });
}

async function adminOf(target: AttackTarget, tenantId: string): Promise<string> {
  return `Bearer ${await target.token(tenantId, `admin@${tenantId}.test`)}`;
}

async function registerStatus(target: AttackTarget, authorization: string, body: unknown, tenantId = 'demo'): Promise<number> {
  const response = await target.app.inject({
    method: 'POST',
    url: `/api/${tenantId}/pacs/dicom-callers`,
    headers: { host: target.hostOf(tenantId), authorization, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  return response.statusCode;
}

const CATEGORY = 'DICOM receiver';

export const DICOM_RECEIVER_ATTACKS: readonly Attack[] = [
  {
    category: CATEGORY,
    name: 'C-STORE into demo from a calling AE title nobody registered',
    expected: [403],
    run: (target) => pushStatus(target, 'ANYONE', 'IVUSREVIEW'),
  },
  {
    category: CATEGORY,
    name: "C-STORE from demo's registered sender to acme's called AE title",
    expected: [403],
    run: (target) => pushStatus(target, DEMO_SENDER, 'ACMEIVUS'),
  },
  {
    category: CATEGORY,
    name: 'C-STORE from a registered AE title, from an address outside its registered networks',
    expected: [403],
    run: (target) => pushStatus(target, NETWORK_LIMITED_SENDER, 'IVUSREVIEW'),
  },
  {
    category: CATEGORY,
    name: 'clinician registers a DICOM sender',
    expected: [403],
    run: async (target) => registerStatus(target, `Bearer ${await target.token('demo', 'clinician@demo.test')}`, { aeTitle: 'SNEAKY' }),
  },
  {
    category: CATEGORY,
    name: "acme's administrator registers a sender on demo's address",
    expected: [401, 403],
    run: async (target) => registerStatus(target, await adminOf(target, 'acme'), { aeTitle: 'SNEAKY' }),
  },
  {
    category: CATEGORY,
    name: 'DICOM sender AE title with a NUL byte',
    expected: [400],
    run: async (target) => registerStatus(target, await adminOf(target, 'demo'), { aeTitle: 'CATH\u0000LAB' }),
  },
  {
    category: CATEGORY,
    name: 'DICOM sender AE title with a lone surrogate',
    expected: [400],
    run: async (target) => registerStatus(target, await adminOf(target, 'demo'), { aeTitle: 'CATH\ud800' }),
  },
  {
    category: CATEGORY,
    name: 'DICOM sender description with a lone surrogate',
    expected: [400],
    run: async (target) => registerStatus(target, await adminOf(target, 'demo'), { aeTitle: 'OKTITLE', description: 'lab \udc00' }),
  },
  {
    category: CATEGORY,
    name: 'DICOM sender AE title with a backslash (a DICOM value separator)',
    expected: [400],
    run: async (target) => registerStatus(target, await adminOf(target, 'demo'), { aeTitle: 'CATH\\LAB' }),
  },
];
