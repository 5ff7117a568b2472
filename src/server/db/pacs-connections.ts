/**
 * The tenant's DICOMweb connections. Credentials are sealed (crypto/envelope.ts) with the
 * key-encryption key, bound to the tenant and the connection id, so a row copied to another
 * connection or tenant does not open; they are opened only to call the PACS, never sent back.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { PacsConnection, PacsConnectionInput } from '../../domain/pacs.ts';
import { isSealed, seal, unseal, UnsealError, type SealedSecret } from '../crypto/envelope.ts';
import type { KeyEncryptionKey } from '../crypto/key-encryption-key.ts';
import type { Db } from './client.ts';
import { pacsConnections } from './schema.ts';

export type PacsConnectionRow = typeof pacsConnections.$inferSelect;
export type PacsCredentials = { username: string; password: string } | { token: string };

/** Thrown when stored credentials do not open (another key-encryption key, or an altered row). */
export class CredentialsUnreadableError extends Error {}

/** Thrown when a connection's new name is already taken in the tenant. */
export class DuplicateConnectionNameError extends Error {}

const associatedData = (tenantId: string, id: string) => Buffer.from(`pacs-connection\0${tenantId}\0${id}`);

export function sealCredentials(key: KeyEncryptionKey, tenantId: string, id: string, credentials: PacsCredentials): SealedSecret {
  return seal(key, Buffer.from(JSON.stringify(credentials)), associatedData(tenantId, id));
}

export function openCredentials(keys: KeyEncryptionKey | readonly KeyEncryptionKey[], row: Pick<PacsConnectionRow, 'tenantId' | 'id' | 'credentials'>): PacsCredentials | null {
  if (row.credentials === null || row.credentials === undefined) return null;
  if (!isSealed(row.credentials)) throw new CredentialsUnreadableError('stored credentials are not sealed');
  const sealed = row.credentials;
  for (const key of Array.isArray(keys) ? keys : [keys]) {
    if (key.id !== sealed.kek) continue;
    try {
      return JSON.parse(unseal(key, sealed, associatedData(row.tenantId, row.id)).toString('utf8')) as PacsCredentials;
    } catch (error) {
      if (error instanceof UnsealError) break;
      throw error;
    }
  }
  throw new CredentialsUnreadableError('stored credentials do not open with the key-encryption key');
}

export function toPacsConnection(row: PacsConnectionRow): PacsConnection {
  return {
    id: row.id,
    name: row.name,
    qidoUrl: row.qidoUrl,
    wadoUrl: row.wadoUrl,
    stowUrl: row.stowUrl,
    authKind: row.authKind,
    hasCredentials: row.credentials !== null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listPacsConnections(db: Db, tenantId: string): Promise<PacsConnectionRow[]> {
  return db.select().from(pacsConnections).where(eq(pacsConnections.tenantId, tenantId)).orderBy(asc(pacsConnections.name));
}

/** Any other text names no connection (and would make PostgreSQL refuse the query). */
const isConnectionId = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

export async function findPacsConnection(db: Db, tenantId: string, id: string): Promise<PacsConnectionRow | undefined> {
  if (!isConnectionId(id)) return undefined;
  const [row] = await db
    .select()
    .from(pacsConnections)
    .where(and(eq(pacsConnections.tenantId, tenantId), eq(pacsConnections.id, id)));
  return row;
}

/**
 * The credentials an input asks for: new ones, the stored ones (a password or token left out on a
 * change keeps the stored one, if the kind is unchanged), or none.
 */
export function credentialsOf(input: PacsConnectionInput, stored: PacsCredentials | null): PacsCredentials | null | 'missing' {
  const { auth } = input;
  if (auth.kind === 'none') return null;
  if (auth.kind === 'basic') {
    if (auth.password !== undefined && auth.password !== '') return { username: auth.username, password: auth.password };
    return stored && 'password' in stored ? { username: auth.username, password: stored.password } : 'missing';
  }
  if (auth.token !== undefined && auth.token !== '') return { token: auth.token };
  return stored && 'token' in stored ? stored : 'missing';
}

type Fields = { name: string; qidoUrl: string; wadoUrl: string; stowUrl: string; authKind: PacsConnectionRow['authKind'] };

export function fieldsOf(input: PacsConnectionInput): Fields {
  const trim = (url: string) => url.replace(/\/+$/, '');
  const qidoUrl = trim(input.qidoUrl);
  return { name: input.name, qidoUrl, wadoUrl: trim(input.wadoUrl ?? qidoUrl), stowUrl: trim(input.stowUrl ?? qidoUrl), authKind: input.auth.kind };
}

const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && ((error as { code?: string }).code === '23505' || (error as { cause?: { code?: string } }).cause?.code === '23505');

export async function insertPacsConnection(db: Db, key: KeyEncryptionKey, tenantId: string, fields: Fields, credentials: PacsCredentials | null): Promise<PacsConnectionRow> {
  const id = randomUUID();
  try {
    const [row] = await db
      .insert(pacsConnections)
      .values({ id, tenantId, ...fields, credentials: credentials ? sealCredentials(key, tenantId, id, credentials) : null })
      .returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error)) throw new DuplicateConnectionNameError(fields.name);
    throw error;
  }
}

export async function updatePacsConnection(
  db: Db,
  key: KeyEncryptionKey,
  tenantId: string,
  id: string,
  fields: Fields,
  credentials: PacsCredentials | null,
): Promise<PacsConnectionRow | undefined> {
  if (!isConnectionId(id)) return undefined;
  try {
    const [row] = await db
      .update(pacsConnections)
      .set({ ...fields, credentials: credentials ? sealCredentials(key, tenantId, id, credentials) : null, updatedAt: new Date() })
      .where(and(eq(pacsConnections.tenantId, tenantId), eq(pacsConnections.id, id)))
      .returning();
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) throw new DuplicateConnectionNameError(fields.name);
    throw error;
  }
}

export async function deletePacsConnection(db: Db, tenantId: string, id: string): Promise<PacsConnectionRow | undefined> {
  if (!isConnectionId(id)) return undefined;
  const [row] = await db
    .delete(pacsConnections)
    .where(and(eq(pacsConnections.tenantId, tenantId), eq(pacsConnections.id, id)))
    .returning();
  return row;
}
