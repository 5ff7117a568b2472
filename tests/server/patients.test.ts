import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinicianAuthorization, createTestServer, hostOf, postgresUnavailable, type TestServer } from './test-server.ts';

describe.skipIf(postgresUnavailable)('patients and records API', () => {
  let server: TestServer;
  let authorization: string;
  beforeAll(async () => {
    server = await createTestServer();
    authorization = await clinicianAuthorization(server, 'demo');
  });
  afterAll(() => server.close());

  const get = (url: string) => server.app.inject({ method: 'GET', url, headers: { host: hostOf('demo'), authorization } });

  it('pages through the list without overlap', async () => {
    const first = (await get('/api/demo/patients?page=1&pageSize=10&sort=patientId')).json();
    const second = (await get('/api/demo/patients?page=2&pageSize=10&sort=patientId')).json();
    expect(first).toMatchObject({ total: 36, page: 1, pageSize: 10 });
    expect(first.items).toHaveLength(10);
    expect(first.items[0].patientId).toBe('DEM-001');
    expect(second.items[0].patientId).toBe('DEM-011');
    const last = (await get('/api/demo/patients?page=4&pageSize=10&sort=patientId')).json();
    expect(last.items).toHaveLength(6);
  });

  it('searches by patient id or by name, case-insensitively', async () => {
    const byId = (await get('/api/demo/patients?search=dem-007')).json();
    expect(byId.items.map((p: { patientId: string }) => p.patientId)).toEqual(['DEM-007']);
    const someone = byId.items[0].name as string;
    const family = someone.split(',')[0]!.toUpperCase();
    const byName = (await get(`/api/demo/patients?search=${encodeURIComponent(family)}&pageSize=200`)).json();
    expect(byName.items.length).toBeGreaterThan(0);
    expect(byName.items.every((p: { name: string }) => p.name.toUpperCase().includes(family))).toBe(true);
    const none = (await get('/api/demo/patients?search=%25%25zz')).json();
    expect(none).toMatchObject({ total: 0, items: [] });
  });

  it('lists the patients with the newest record first unless asked otherwise', async () => {
    const dates = (await get('/api/demo/patients?pageSize=200')).json().items.map((p: { latestRecordDate: string | null }) => p.latestRecordDate);
    const known = dates.filter((d: string | null) => d !== null);
    expect(known.length).toBeGreaterThan(1);
    expect(known).toEqual([...known].sort().reverse());
    // Nulls (no record yet) last.
    expect(dates.slice(0, known.length)).toEqual(known);
    const byName = (await get('/api/demo/patients?sort=name&pageSize=200')).json().items.map((p: { name: string }) => p.name);
    expect(byName).toEqual([...byName].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('sorts by every column in both directions', async () => {
    for (const sort of ['name', 'birthDate', 'recordCount', 'latestRecordDate'] as const) {
      const asc = (await get(`/api/demo/patients?sort=${sort}&order=asc&pageSize=200`)).json().items;
      const desc = (await get(`/api/demo/patients?sort=${sort}&order=desc&pageSize=200`)).json().items;
      const field = sort === 'latestRecordDate' ? 'latestRecordDate' : sort;
      const values = asc.map((p: Record<string, unknown>) => p[field]).filter((v: unknown) => v !== null);
      const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      expect(values).toEqual(sorted);
      expect(desc[0][field]).toEqual(values[values.length - 1]);
    }
  });

  it('answers 400 naming the parameter for bad paging or sort values', async () => {
    const cases: [string, RegExp][] = [
      ['page=0', /page/],
      ['page=abc', /page/],
      ['pageSize=1000', /pageSize/],
      ['sort=password', /sort must be one of/],
      ['order=sideways', /order/],
      ['limit=5', /unknown parameter "limit"/],
    ];
    for (const [query, message] of cases) {
      const response = await get(`/api/demo/patients?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message, query).toMatch(message);
    }
  });

  it("lists a patient's records newest first, and 404s for unknown or other tenants' patients", async () => {
    const response = await get('/api/demo/patients/DEM-001/records');
    expect(response.statusCode).toBe(200);
    const { patient, records } = response.json();
    expect(patient.patientId).toBe('DEM-001');
    expect(records).toHaveLength(3);
    expect(records.map((r: { bmodeFrameCount: number }) => r.bmodeFrameCount)).toContain(3600);
    const dates = records.map((r: { acquiredAt: string }) => r.acquiredAt);
    expect(dates).toEqual([...dates].sort().reverse());
    expect((await get('/api/demo/patients/DEM-999/records')).statusCode).toBe(404);
    expect((await get('/api/demo/patients/ACM-001/records')).statusCode).toBe(404);
    expect((await get('/api/demo/patients/..%2F..%2Fetc/records')).statusCode).toBe(400);
  });
});
