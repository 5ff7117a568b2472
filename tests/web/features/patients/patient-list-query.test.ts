import { describe, expect, it } from 'vitest';
import { DEFAULT_QUERY, pageCount, queryFromSearch, searchFromQuery } from '../../../../src/web/features/patients/patient-list-query.ts';

describe('patients list state in the address', () => {
  it('reads every field and falls back to defaults for values the API would refuse', () => {
    expect(queryFromSearch('search=Ann&page=3&pageSize=50&sort=birthDate&order=desc')).toEqual({
      search: 'Ann',
      page: 3,
      pageSize: 50,
      sort: 'birthDate',
      order: 'desc',
    });
    expect(queryFromSearch('page=-2&pageSize=100000&sort=password&order=up')).toEqual(DEFAULT_QUERY);
  });

  it('writes only what differs from the defaults', () => {
    expect(searchFromQuery(DEFAULT_QUERY)).toBe('');
    expect(searchFromQuery({ ...DEFAULT_QUERY, page: 2, search: 'Ann Lee' })).toBe('search=Ann+Lee&page=2');
  });

  it('lists the most recently seen patients first, and starts each column in its own direction', () => {
    expect(DEFAULT_QUERY).toMatchObject({ sort: 'latestRecordDate', order: 'desc' });
    expect(queryFromSearch('sort=name')).toMatchObject({ sort: 'name', order: 'asc' });
    expect(queryFromSearch('sort=recordCount')).toMatchObject({ sort: 'recordCount', order: 'desc' });
    expect(searchFromQuery({ ...DEFAULT_QUERY, sort: 'name', order: 'asc' })).toBe('sort=name');
    expect(searchFromQuery({ ...DEFAULT_QUERY, sort: 'name', order: 'desc' })).toBe('sort=name&order=desc');
    expect(searchFromQuery({ ...DEFAULT_QUERY, order: 'asc' })).toBe('order=asc');
  });

  it('counts at least one page', () => {
    expect(pageCount(0, 25)).toBe(1);
    expect(pageCount(10_000, 25)).toBe(400);
    expect(pageCount(26, 25)).toBe(2);
  });
});
