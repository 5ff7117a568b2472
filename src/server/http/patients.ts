import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PatientListQuerySchema } from '../../domain/patients.ts';
import { PATIENT_ID_PATTERN } from '../../domain/records.ts';
import type { Db } from '../db/client.ts';
import { findPatient, listPatientRecords, listPatients } from '../db/patients.ts';
import { NotFoundError, parseOrThrow } from './validation.ts';

const PatientParamsSchema = z.object({
  tenant: z.string(),
  patientId: z.string().regex(PATIENT_ID_PATTERN, 'patientId is not a valid patient id'),
});

/** Patients and their records, always within the caller's tenant (set by the authenticate hook). */
export async function patientRoutes(app: FastifyInstance, deps: { db: Db }): Promise<void> {
  app.get('/api/:tenant/patients', async (request) => {
    const query = parseOrThrow(PatientListQuerySchema, request.query);
    return listPatients(deps.db, request.principal!.tenantId, query);
  });

  app.get('/api/:tenant/patients/:patientId', async (request) => {
    const { patientId } = parseOrThrow(PatientParamsSchema, request.params);
    const patient = await findPatient(deps.db, request.principal!.tenantId, patientId);
    if (!patient) throw new NotFoundError(`No patient "${patientId}".`);
    return patient;
  });

  app.get('/api/:tenant/patients/:patientId/records', async (request) => {
    const { patientId } = parseOrThrow(PatientParamsSchema, request.params);
    const tenantId = request.principal!.tenantId;
    const patient = await findPatient(deps.db, tenantId, patientId);
    if (!patient) throw new NotFoundError(`No patient "${patientId}".`);
    return { patient, records: await listPatientRecords(deps.db, tenantId, patientId) };
  });
}
