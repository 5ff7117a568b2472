import { and, desc, eq, sql } from 'drizzle-orm';
import type { AnnotationCounts, AnnotationVersionSummary } from '../../domain/annotation-versions.ts';
import type { AnnotationManifest } from '../../domain/annotations/manifest.ts';
import { appendAudit } from './audit.ts';
import type { Db } from './client.ts';
import { annotationVersions, records } from './schema.ts';

/** One stored version, as the API shows it: the author is their email. */
export type StoredAnnotationVersion = {
  version: number;
  manifest: AnnotationManifest;
  savedBy: string;
  savedAt: Date;
};

/** Who saved the newest version, for a conflict answer; version 0 when nothing is saved. */
export type LatestVersionInfo = { version: number; savedBy: string | null; savedAt: Date | null };

export type SaveAnnotationsInput = {
  tenantId: string;
  recordId: string;
  patientId: string;
  /** The version the client edited; 0 when it started from nothing. */
  baseVersion: number;
  /** The annotation status the client said it saved over (the `status` query). */
  baseStatus: 'new' | 'saved';
  manifest: AnnotationManifest;
  userId: string;
  email: string;
};

export type SaveAnnotationsResult =
  | { ok: true; version: number; savedAt: Date; savedBy: string }
  | { ok: false; latest: LatestVersionInfo };

type Reader = Pick<Db, 'select'>;

const ofRecord = (tenantId: string, recordId: string) =>
  and(eq(annotationVersions.tenantId, tenantId), eq(annotationVersions.recordId, recordId));

// Accounts without an email (possible with an external provider) are still named.
const author = sql<string>`coalesce(nullif(${annotationVersions.savedByEmail}, ''), ${annotationVersions.savedBy})`;

async function latestInfo(db: Reader, tenantId: string, recordId: string): Promise<LatestVersionInfo> {
  const [row] = await db
    .select({ version: annotationVersions.version, savedBy: author, savedAt: annotationVersions.savedAt })
    .from(annotationVersions)
    .where(ofRecord(tenantId, recordId))
    .orderBy(desc(annotationVersions.version))
    .limit(1);
  return row ?? { version: 0, savedBy: null, savedAt: null };
}

/** A given version of a record's annotations, or the latest when `version` is omitted. */
export async function findAnnotationVersion(
  db: Db,
  tenantId: string,
  recordId: string,
  version?: number,
): Promise<StoredAnnotationVersion | undefined> {
  const where = version === undefined ? ofRecord(tenantId, recordId) : and(ofRecord(tenantId, recordId), eq(annotationVersions.version, version));
  const [row] = await db
    .select({ version: annotationVersions.version, manifest: annotationVersions.manifest, savedBy: author, savedAt: annotationVersions.savedAt })
    .from(annotationVersions)
    .where(where)
    .orderBy(desc(annotationVersions.version))
    .limit(1);
  // Every stored manifest passed the schema on its way in.
  return row && { ...row, manifest: row.manifest as AnnotationManifest };
}

const countOf = (kind: keyof AnnotationCounts) =>
  sql<number>`coalesce(jsonb_array_length(${annotationVersions.manifest} -> ${kind}::text), 0)::int`;

/** Every version of a record, newest first, without the manifests (only how many of each kind). */
export async function listAnnotationVersions(db: Db, tenantId: string, recordId: string): Promise<AnnotationVersionSummary[]> {
  const rows = await db
    .select({
      version: annotationVersions.version,
      savedBy: author,
      savedAt: annotationVersions.savedAt,
      ruler: countOf('ruler'),
      area: countOf('area'),
      text: countOf('text'),
      angle: countOf('angle'),
    })
    .from(annotationVersions)
    .where(ofRecord(tenantId, recordId))
    .orderBy(desc(annotationVersions.version));
  return rows.map((r) => ({
    version: r.version,
    savedBy: r.savedBy,
    savedAt: r.savedAt.toISOString(),
    counts: { ruler: Number(r.ruler), area: Number(r.area), text: Number(r.text), angle: Number(r.angle) },
  }));
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Object; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/**
 * Stores the manifest as the next version if the client edited the latest one; otherwise answers
 * who saved the newer version. The version, the record's annotation status and the audit row
 * land together or not at all.
 */
export async function saveAnnotationVersion(db: Db, input: SaveAnnotationsInput): Promise<SaveAnnotationsResult> {
  const { tenantId, recordId } = input;
  try {
    return await db.transaction(async (tx) => {
      // Locking the record row queues concurrent saves of one record, so the second one sees the
      // first one's version and gets a conflict that names it. 'no key update' is the lock the
      // status update below takes anyway; it does not block unrelated inserts that reference the record.
      await tx
        .select({ id: records.id })
        .from(records)
        .where(and(eq(records.tenantId, tenantId), eq(records.id, recordId)))
        .for('no key update');
      const latest = await latestInfo(tx, tenantId, recordId);
      if (latest.version !== input.baseVersion) return { ok: false, latest };
      const version = latest.version + 1;
      const [row] = await tx
        .insert(annotationVersions)
        .values({
          tenantId,
          recordId,
          version,
          manifest: input.manifest,
          baseStatus: input.baseStatus,
          savedBy: input.userId,
          savedByEmail: input.email,
        })
        .returning({ savedAt: annotationVersions.savedAt });
      const savedAt = row!.savedAt;
      const savedBy = input.email || input.userId;
      await tx
        .update(records)
        .set({ annotationStatus: 'saved', annotationSavedBy: savedBy, annotationSavedAt: savedAt })
        .where(and(eq(records.tenantId, tenantId), eq(records.id, recordId)));
      await appendAudit(tx, {
        tenantId,
        action: 'annotations-saved',
        actorId: input.userId,
        actorEmail: input.email,
        targetType: 'record',
        targetId: recordId,
        details: {
          patientId: input.patientId,
          version,
          baseVersion: input.baseVersion,
          baseStatus: input.baseStatus,
          counts: {
            ruler: input.manifest.ruler.length,
            area: input.manifest.area.length,
            text: input.manifest.text.length,
            angle: input.manifest.angle.length,
          },
        },
      });
      return { ok: true, version, savedAt, savedBy };
    });
  } catch (error) {
    // The row lock makes this rare, but the unique (tenant, record, version) key is the last word:
    // two saves of the same version never both succeed.
    if (!isUniqueViolation(error)) throw error;
    return { ok: false, latest: await latestInfo(db, tenantId, recordId) };
  }
}
