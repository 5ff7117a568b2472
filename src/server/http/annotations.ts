import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  MANIFEST_FILE_NAME,
  MAX_MANIFEST_BYTES,
  SaveAnnotationsFieldsSchema,
  SaveAnnotationsQuerySchema,
  type AnnotationConflict,
  type AnnotationVersion,
  type AnnotationVersionList,
  type ManifestRejected,
  type SaveAnnotationsFields,
  type SavedAnnotations,
} from '../../domain/annotation-versions.ts';
import { checkManifestAgainstImage, emptyManifest, parseManifest } from '../../domain/annotations/manifest.ts';
import { findAnnotationVersion, listAnnotationVersions, saveAnnotationVersion } from '../db/annotations.ts';
import { appendAudit } from '../db/audit.ts';
import type { Db } from '../db/client.ts';
import { findRecord, type RecordRow } from '../db/records.ts';
import { BadRequestError, NotFoundError, parseOrThrow, refuseUnstorableText, unstorableTextAt } from './validation.ts';

class UnsupportedMediaTypeError extends Error {
  readonly statusCode = 415;
}

const RecordParamsSchema = z.object({
  tenant: z.string(),
  recordId: z.uuid({ error: 'recordId must be a record id' }),
});
const VersionParamsSchema = RecordParamsSchema.extend({
  version: z.string().regex(/^[1-9]\d{0,8}$/, 'version must be a version number (1 or more)').transform(Number),
});

type Deps = { db: Db };

/**
 * Reads the save form: a few short text fields and one file named manifest.json. The file is read
 * whole (it is bounded by MAX_MANIFEST_BYTES), whatever order the parts come in.
 */
async function readSaveForm(request: FastifyRequest): Promise<{ fields: SaveAnnotationsFields; file: Buffer }> {
  if (!request.isMultipart()) {
    throw new UnsupportedMediaTypeError(`Send the annotations as multipart/form-data with a file named ${MANIFEST_FILE_NAME}.`);
  }
  const fields: Record<string, string> = {};
  let file: Buffer | undefined;
  let wrongFileName: string | undefined;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer();
      if (part.filename === MANIFEST_FILE_NAME) file = bytes;
      else wrongFileName = part.filename;
    } else {
      if (part.valueTruncated) throw new BadRequestError(`${part.fieldname}: the value is too long`);
      if (part.fieldname in fields) throw new BadRequestError(`${part.fieldname}: sent more than once`);
      fields[part.fieldname] = String(part.value);
    }
  }
  if (!file) {
    const sent = wrongFileName === undefined ? 'none was sent' : `the file sent is named "${wrongFileName}"`;
    throw new BadRequestError(`A file named ${MANIFEST_FILE_NAME} is required: ${sent}.`);
  }
  refuseUnstorableText(fields, 'form');
  return { fields: parseOrThrow(SaveAnnotationsFieldsSchema, fields), file };
}

function rejectManifest(reply: FastifyReply, problems: string[]) {
  const body: ManifestRejected = {
    error: 'bad_request',
    message: `The annotations were not saved: ${MANIFEST_FILE_NAME} has ${problems.length === 1 ? 'a problem' : 'problems'}.`,
    problems,
  };
  return reply.code(400).send(body);
}

function parseJson(bytes: Buffer): { ok: true; json: unknown } | { ok: false; problem: string } {
  try {
    const json: unknown = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
    // A note or a label with a NUL or half a surrogate pair: PostgreSQL would refuse it with a 500.
    const broken = unstorableTextAt(json, MANIFEST_FILE_NAME);
    if (broken) return { ok: false, problem: `${broken} must not contain a NUL character or an unpaired surrogate (broken Unicode text)` };
    return { ok: true, json };
  } catch (error) {
    return { ok: false, problem: `${MANIFEST_FILE_NAME} is not valid JSON (${(error as Error).message})` };
  }
}

async function recordOf(deps: Deps, request: FastifyRequest, recordId: string): Promise<RecordRow> {
  const record = await findRecord(deps.db, request.principal!.tenantId, recordId);
  if (!record) throw new NotFoundError(`No record "${recordId}".`);
  return record;
}

/**
 * Every load of a record's annotations is written to the audit trail, not only the first one in a
 * while: a clinical access log is expected to be complete, and "once per few minutes" would need
 * either shared state between replicas or a lookup that costs as much as the insert. The review
 * screen loads annotations once per opening, so this is one row per opening.
 */
async function auditViewed(deps: Deps, request: FastifyRequest, record: RecordRow, version: number) {
  const principal = request.principal!;
  await appendAudit(deps.db, {
    tenantId: principal.tenantId,
    action: 'record-viewed',
    actorId: principal.userId,
    actorEmail: principal.email,
    targetType: 'record',
    targetId: record.id,
    details: { patientId: record.patientId, annotationVersion: version },
  });
}

/** Saving and loading a record's annotations, always within the caller's tenant. */
export async function annotationRoutes(app: FastifyInstance, deps: Deps): Promise<void> {
  // Scoped to these routes: nowhere else accepts multipart bodies.
  await app.register(multipart, {
    limits: { files: 1, fileSize: MAX_MANIFEST_BYTES, fields: 5, fieldSize: 1024, parts: 6, headerPairs: 20 },
  });

  app.post('/api/:tenant/records', async (request, reply) => {
    const { status } = parseOrThrow(SaveAnnotationsQuerySchema, request.query);
    const { fields, file } = await readSaveForm(request);
    const json = parseJson(file);
    if (!json.ok) return rejectManifest(reply, [json.problem]);
    const parsed = parseManifest(json.json);
    if (!parsed.ok) return rejectManifest(reply, parsed.problems);

    const record = await recordOf(deps, request, fields.recordId);
    if (record.patientId !== fields.patientId) {
      throw new NotFoundError(`Patient "${fields.patientId}" has no record "${fields.recordId}".`);
    }
    const problems = checkManifestAgainstImage(parsed.manifest, {
      sliceCount: record.bmodeFrameCount,
      width: record.frameWidth,
      height: record.frameHeight,
    });
    if (problems.length > 0) return rejectManifest(reply, problems);

    const principal = request.principal!;
    const baseVersion = fields.baseVersion ?? 0;
    const result = await saveAnnotationVersion(deps.db, {
      tenantId: principal.tenantId,
      recordId: record.id,
      patientId: record.patientId,
      baseVersion,
      baseStatus: status,
      manifest: parsed.manifest,
      userId: principal.userId,
      email: principal.email,
    });
    if (!result.ok) {
      const { latest } = result;
      const conflict: AnnotationConflict = {
        error: 'conflict',
        message:
          `Not saved: ${latest.savedBy ?? 'someone'} saved version ${latest.version} of these annotations ` +
          `after you opened ${baseVersion === 0 ? 'them' : `version ${baseVersion}`}. ` +
          'Load their version, or keep yours as the next version.',
        latestVersion: latest.version,
        savedBy: latest.savedBy,
        savedAt: latest.savedAt?.toISOString() ?? null,
      };
      return reply.code(409).send(conflict);
    }
    const saved: SavedAnnotations = {
      version: result.version,
      savedAt: result.savedAt.toISOString(),
      savedBy: result.savedBy,
      annotationStatus: 'saved',
    };
    return reply.code(201).send(saved);
  });

  app.get('/api/:tenant/records/:recordId/annotations', async (request): Promise<AnnotationVersion> => {
    const { recordId } = parseOrThrow(RecordParamsSchema, request.params);
    const record = await recordOf(deps, request, recordId);
    const latest = await findAnnotationVersion(deps.db, record.tenantId, record.id);
    await auditViewed(deps, request, record, latest?.version ?? 0);
    if (!latest) return { version: 0, manifest: emptyManifest(), savedBy: null, savedAt: null };
    return { ...latest, savedAt: latest.savedAt.toISOString() };
  });

  app.get('/api/:tenant/records/:recordId/annotations/versions', async (request): Promise<AnnotationVersionList> => {
    const { recordId } = parseOrThrow(RecordParamsSchema, request.params);
    const record = await recordOf(deps, request, recordId);
    return { versions: await listAnnotationVersions(deps.db, record.tenantId, record.id) };
  });

  app.get('/api/:tenant/records/:recordId/annotations/versions/:version', async (request): Promise<AnnotationVersion> => {
    const { recordId, version } = parseOrThrow(VersionParamsSchema, request.params);
    const record = await recordOf(deps, request, recordId);
    const found = await findAnnotationVersion(deps.db, record.tenantId, record.id, version);
    if (!found) throw new NotFoundError(`Record "${recordId}" has no annotation version ${version}.`);
    await auditViewed(deps, request, record, version);
    return { ...found, savedAt: found.savedAt.toISOString() };
  });
}
