import { and, eq, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../db/client.ts';
import { oidcPayloads } from '../db/schema.ts';

/** The `sid` the session hands each client (and writes into that client's ID tokens). */
function sessionIdsOf(payload: AdapterPayload): string[] {
  return Object.values(payload.authorizations ?? {})
    .map((authorization) => authorization.sid)
    .filter((sid): sid is string => typeof sid === 'string');
}

/**
 * An id a client sent (a code, a refresh token) that PostgreSQL cannot even compare: a NUL character
 * or an unpaired surrogate (issue 24). No stored row has one, so it finds nothing, rather than a 500.
 */
const unstorable = (text: string) => text.includes('\u0000') || !text.isWellFormed();

/**
 * oidc-provider's storage in the database (sessions, grants, codes, refresh tokens,
 * interactions), so it survives restarts and is shared by every replica. One instance
 * per tenant and model.
 */
export class DatabaseAdapter implements Adapter {
  private readonly db: Db;
  private readonly tenantId: string;
  private readonly model: string;

  constructor(db: Db, tenantId: string, model: string) {
    this.db = db;
    this.tenantId = tenantId;
    this.model = model;
  }

  private key(id: string) {
    return and(eq(oidcPayloads.tenantId, this.tenantId), eq(oidcPayloads.model, this.model), eq(oidcPayloads.id, id));
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const row = {
      payload,
      grantId: payload.grantId ?? null,
      userCode: payload.userCode ?? null,
      uid: payload.uid ?? null,
      sessionIds: this.model === 'Session' ? sessionIdsOf(payload) : null,
      expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
    };
    await this.db
      .insert(oidcPayloads)
      .values({ tenantId: this.tenantId, model: this.model, id, ...row })
      .onConflictDoUpdate({ target: [oidcPayloads.tenantId, oidcPayloads.model, oidcPayloads.id], set: row });
  }

  private async findWhere(where: ReturnType<typeof and>): Promise<AdapterPayload | undefined> {
    const [row] = await this.db
      .select()
      .from(oidcPayloads)
      .where(and(where, sql`(${oidcPayloads.expiresAt} is null or ${oidcPayloads.expiresAt} > now())`))
      .limit(1);
    if (!row) return undefined;
    const payload = row.payload as AdapterPayload;
    return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    if (unstorable(id)) return Promise.resolve(undefined);
    return this.findWhere(this.key(id));
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    if (unstorable(uid)) return Promise.resolve(undefined);
    return this.findWhere(
      and(eq(oidcPayloads.tenantId, this.tenantId), eq(oidcPayloads.model, this.model), eq(oidcPayloads.uid, uid)),
    );
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    if (unstorable(userCode)) return Promise.resolve(undefined);
    return this.findWhere(
      and(eq(oidcPayloads.tenantId, this.tenantId), eq(oidcPayloads.model, this.model), eq(oidcPayloads.userCode, userCode)),
    );
  }

  async consume(id: string): Promise<void> {
    if (unstorable(id)) return;
    await this.db.update(oidcPayloads).set({ consumedAt: new Date() }).where(this.key(id));
  }

  async destroy(id: string): Promise<void> {
    if (unstorable(id)) return;
    await this.db.delete(oidcPayloads).where(this.key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db
      .delete(oidcPayloads)
      .where(and(eq(oidcPayloads.tenantId, this.tenantId), eq(oidcPayloads.grantId, grantId)));
  }
}

/** Removes expired provider rows; run periodically so the table does not grow without bound. */
export async function deleteExpiredProviderRows(db: Db): Promise<void> {
  await db.delete(oidcPayloads).where(sql`${oidcPayloads.expiresAt} < now()`);
}
