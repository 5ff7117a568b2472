/**
 * A whole server to attack (the demo tenants, a disabled account, a listening port), for the attack
 * suite and `npm run bench:attacks`.
 */
import net, { type AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import type { JWK } from 'jose';
import { users } from '../../src/server/db/schema.ts';
import { findUserByEmail } from '../../src/server/db/tenants.ts';
import { createUser } from '../../src/server/db/users.ts';
import { insertDicomCaller } from '../../src/server/db/dicom-callers.ts';
import { DEMO_SENDER, NETWORK_LIMITED_SENDER } from './attacks/dicom-receiver.ts';
import { freePort } from './free-port.ts';
import { frameCorsConfiguration } from '../../src/server/storage/frame-cors.ts';
import { startS3Server } from './s3-server.ts';
import { createTestServer, hostOf, mintIdToken, originOf, signInThroughProvider } from '../server/test-server.ts';
import type { AttackTarget } from './attack-types.ts';

/** The receiver starts in an onListen hook, which `listen` does not wait for: waits until its port answers. */
async function receiverListening(port: number): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the DICOM receiver never listened on port ${port}`);
}

export async function createAttackTarget(): Promise<AttackTarget & { close(): Promise<void> }> {
  // Short body timeouts, so the trickled-body attacks are answered within the suite's patience, and a
  // small per-address connection cap that an attack can reach. A DICOM receiver too (it starts once
  // the server listens), with demo's registered senders.
  const dicomPort = await freePort();
  // Frames in a bucket, handed to browsers by signed URLs (issue 27): the frame-url attacks check that
  // none reaches a caller the route refuses.
  const s3 = await startS3Server({ corsConfiguration: frameCorsConfiguration(originOf('{tenant}')) });
  const server = await createTestServer({
    STORAGE: 's3',
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: s3.bucket,
    S3_REGION: s3.region,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    BODY_TIMEOUT_SECONDS: '1',
    UNAUTHENTICATED_BODY_TIMEOUT_SECONDS: '2',
    MAX_CONNECTIONS_PER_ADDRESS: '32',
    DICOM_RECEIVER_PORT: String(dicomPort),
    DICOM_RECEIVER_AE_TITLES: 'IVUSREVIEW=demo,ACMEIVUS=acme',
  });
  await insertDicomCaller(server.database.db, 'demo', { aeTitle: DEMO_SENDER, description: 'Cath lab 1', networks: [] });
  await insertDicomCaller(server.database.db, 'demo', { aeTitle: NETWORK_LIMITED_SENDER, description: 'Remote site', networks: ['10.0.0.0/8'] });
  const created = await createUser(server.database.db, { tenantId: 'demo', email: 'disabled@demo.test', name: 'Disabled Account', passwordHash: null, actor: { id: 'setup', email: 'setup' } });
  if (!created.ok) throw new Error('could not create the disabled account');
  await server.database.db.update(users).set({ disabled: true }).where(eq(users.id, created.user.id));
  // Each tenant's provider keys are made on first use: made now, so the attacks start from a settled database.
  for (const tenantId of ['demo', 'acme']) await server.app.inject({ method: 'GET', url: '/idp/jwks', headers: { host: hostOf(tenantId) } });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  await receiverListening(dicomPort);
  return {
    app: server.app,
    database: server.database,
    port: (server.app.server.address() as AddressInfo).port,
    dicomPort,
    hostOf,
    originOf,
    async token(tenantId, email, options = {}) {
      const user = await findUserByEmail(server.database.db, tenantId, email);
      if (!user) throw new Error(`no account ${email}`);
      return mintIdToken(server, tenantId, { sub: user.id, ...options });
    },
    async publicKey(tenantId) {
      const response = await server.app.inject({ method: 'GET', url: '/idp/jwks', headers: { host: hostOf(tenantId) } });
      return (response.json() as { keys: JWK[] }).keys[0]!;
    },
    async signInStatus(tenantId, email, password) {
      const result = await signInThroughProvider(server, tenantId, email, password);
      return result.ok ? 200 : result.status;
    },
    async signIn(tenantId, email, password, browser) {
      const result = await signInThroughProvider(server, tenantId, email, password, browser);
      return result.ok ? { status: 200, idToken: result.tokens.id_token, cookie: result.cookie } : { status: result.status };
    },
    close: async () => {
      await server.close();
      await s3.stop();
    },
  };
}
