/**
 * A whole server to attack (the demo tenants, a disabled account, a listening port), for the attack
 * suite and `npm run bench:attacks`.
 */
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import type { JWK } from 'jose';
import { users } from '../../src/server/db/schema.ts';
import { findUserByEmail } from '../../src/server/db/tenants.ts';
import { createUser } from '../../src/server/db/users.ts';
import { createTestServer, hostOf, mintIdToken, originOf, signInThroughProvider } from '../server/test-server.ts';
import type { AttackTarget } from './attack-types.ts';

export async function createAttackTarget(): Promise<AttackTarget & { close(): Promise<void> }> {
  // Short body timeouts, so the trickled-body attacks are answered within the suite's patience, and a
  // small per-address connection cap that an attack can reach.
  const server = await createTestServer({ BODY_TIMEOUT_SECONDS: '1', UNAUTHENTICATED_BODY_TIMEOUT_SECONDS: '2', MAX_CONNECTIONS_PER_ADDRESS: '32' });
  const created = await createUser(server.database.db, { tenantId: 'demo', email: 'disabled@demo.test', name: 'Disabled Account', passwordHash: null, actor: { id: 'setup', email: 'setup' } });
  if (!created.ok) throw new Error('could not create the disabled account');
  await server.database.db.update(users).set({ disabled: true }).where(eq(users.id, created.user.id));
  // Each tenant's provider keys are made on first use: made now, so the attacks start from a settled database.
  for (const tenantId of ['demo', 'acme']) await server.app.inject({ method: 'GET', url: '/idp/jwks', headers: { host: hostOf(tenantId) } });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app: server.app,
    database: server.database,
    port: (server.app.server.address() as AddressInfo).port,
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
    close: () => server.close(),
  };
}
