import { and, eq } from 'drizzle-orm';
import type { Db } from './client.ts';
import { tenants, users } from './schema.ts';

export type TenantRow = typeof tenants.$inferSelect;
export type UserRow = typeof users.$inferSelect;

export async function findTenant(db: Db, tenantId: string): Promise<TenantRow | undefined> {
  const [row] = await db.select().from(tenants).where(eq(tenants.id, tenantId));
  return row;
}

export async function findUserByEmail(db: Db, tenantId: string, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.email, email.trim().toLowerCase())));
  return row;
}

export async function findUserById(db: Db, tenantId: string, userId: string): Promise<UserRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(userId)) return undefined;
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
  return row;
}

export async function recordSignIn(db: Db, tenantId: string, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ lastSignInAt: new Date() })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
}
