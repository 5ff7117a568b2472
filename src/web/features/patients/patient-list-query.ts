import { firstOrderOf, PatientListQueryFields, PatientListQuerySchema, type PatientListQuery } from '../../../domain/patients.ts';

export const DEFAULT_QUERY: PatientListQuery = PatientListQuerySchema.parse({});

/** Page sizes offered to the user (all within the API's maximum). */
export const PAGE_SIZE_OPTIONS = [10, 25, 50, 100] as const;

/**
 * The list's state lives in the address (`?search=&page=&pageSize=&sort=&order=`), so Back from a
 * patient's records returns to the same page. A value the API would refuse falls back to its default.
 */
export function queryFromSearch(search: string): PatientListQuery {
  const params = new URLSearchParams(search);
  const get = (key: keyof PatientListQuery) => params.get(key) ?? undefined;
  const shape = PatientListQueryFields.shape;
  const fields = {
    page: orDefault(shape.page.safeParse(get('page')), DEFAULT_QUERY.page),
    pageSize: orDefault(shape.pageSize.safeParse(get('pageSize')), DEFAULT_QUERY.pageSize),
    search: orDefault(shape.search.safeParse(get('search')), DEFAULT_QUERY.search),
    sort: orDefault(shape.sort.safeParse(get('sort')), DEFAULT_QUERY.sort),
  };
  return { ...fields, order: orDefault(shape.order.unwrap().safeParse(get('order')), firstOrderOf(fields.sort)) };
}

function orDefault<T>(result: { success: true; data: T } | { success: false }, fallback: T): T {
  return result.success ? result.data : fallback;
}

/** The address query for `query`, leaving out defaults (and an order that is the sort's own) to keep addresses short. */
export function searchFromQuery(query: PatientListQuery): string {
  const params = new URLSearchParams();
  for (const key of ['search', 'page', 'pageSize', 'sort'] as const) {
    if (query[key] !== DEFAULT_QUERY[key]) params.set(key, String(query[key]));
  }
  if (query.order !== firstOrderOf(query.sort)) params.set('order', query.order);
  return params.toString();
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
