import { z } from 'zod';

export const SEX_VALUES = ['F', 'M', 'O', 'U'] as const;

export const PatientSummarySchema = z.object({
  patientId: z.string(),
  name: z.string(),
  /** ISO date, YYYY-MM-DD. */
  birthDate: z.string().nullable(),
  sex: z.enum(SEX_VALUES),
  recordCount: z.number().int().nonnegative(),
  /** ISO timestamp of the newest record, or null when the patient has none. */
  latestRecordDate: z.string().nullable(),
});
export type PatientSummary = z.infer<typeof PatientSummarySchema>;

export const PATIENT_SORT_FIELDS = ['patientId', 'name', 'birthDate', 'sex', 'recordCount', 'latestRecordDate'] as const;
export type PatientSortField = (typeof PATIENT_SORT_FIELDS)[number];
export const MAX_PAGE_SIZE = 200;

/**
 * The direction a column sorts in when first chosen: the newest record and the most records first
 * (what a clinician looks for), words and dates of birth from A and the earliest.
 */
export function firstOrderOf(field: PatientSortField): 'asc' | 'desc' {
  return field === 'latestRecordDate' || field === 'recordCount' ? 'desc' : 'asc';
}
export const DEFAULT_PAGE_SIZE = 25;

/** Query of `GET /api/{tenant}/patients`; query strings arrive as text, hence the coercion. */
/** The query's fields as they arrive; `order` may be left out (PatientListQuerySchema fills it in). */
export const PatientListQueryFields = z
  .object({
    page: z.coerce.number().int('page must be a whole number').min(1, 'page must be 1 or more').default(1),
    pageSize: z.coerce
      .number()
      .int('pageSize must be a whole number')
      .min(1, 'pageSize must be 1 or more')
      .max(MAX_PAGE_SIZE, `pageSize must be ${MAX_PAGE_SIZE} or less`)
      .default(DEFAULT_PAGE_SIZE),
    search: z.string().trim().max(100, 'search must be 100 characters or less').default(''),
    // Most recently seen patients first: the one a clinician opens is usually today's or yesterday's.
    sort: z.enum(PATIENT_SORT_FIELDS, { error: `sort must be one of ${PATIENT_SORT_FIELDS.join(', ')}` }).default('latestRecordDate'),
    order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).optional(),
  })
  .strict();
/** Query of `GET /api/{tenant}/patients`; without an order, the sort's own first direction (firstOrderOf). */
export const PatientListQuerySchema = PatientListQueryFields.transform((query) => ({ ...query, order: query.order ?? firstOrderOf(query.sort) }));
export type PatientListQuery = z.infer<typeof PatientListQuerySchema>;

export const PatientPageSchema = z.object({
  items: z.array(PatientSummarySchema),
  total: z.number().int().nonnegative(),
  page: z.number().int().positive(),
  pageSize: z.number().int().positive(),
});
export type PatientPage = z.infer<typeof PatientPageSchema>;

/** Body of every 4xx/5xx answer: a stable code and a sentence a person can read. */
export const ApiErrorSchema = z.object({
  error: z.string(),
  message: z.string(),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;
