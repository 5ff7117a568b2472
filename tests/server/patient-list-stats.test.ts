/**
 * The patient list's record count and newest record are kept on the patient row by triggers on
 * `records` (migration 0007). Whatever writes records (seeding, imports, an insert, a move, a
 * re-dating, a delete), the list must answer what grouping the records would, in the same order
 * and pages as the query it replaced.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATIENT_SORT_FIELDS, type PatientSummary } from '../../src/domain/patients.ts';
import { patients, records } from '../../src/server/db/schema.ts';
import { makeDicom } from '../support/dicom-fixtures.ts';
import { batchDone, closeSession, get, openSession, uploadAccepted, type Session } from './import-session.ts';
import { postgresUnavailable } from './test-server.ts';

type Reference = { patientId: string; recordCount: number; latestRecordDate: string | null };

describe.skipIf(postgresUnavailable)('patient list: record counts kept by triggers', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openSession();
  });
  afterAll(() => closeSession(session));

  const db = () => session.server.database.db;
  const rowsOf = async <T,>(query: ReturnType<typeof sql>) => (await db().execute(query)) as unknown as { rows: T[] };

  /** The list as the query before migration 0007 computed it: grouping every record of the tenant, in its order. */
  async function reference(sort: string, order: 'asc' | 'desc', search = ''): Promise<Reference[]> {
    const column = {
      patientId: sql`p.patient_id`,
      name: sql`p.name`,
      birthDate: sql`p.birth_date`,
      sex: sql`p.sex`,
      recordCount: sql`coalesce(s.n, 0)`,
      latestRecordDate: sql`s.latest`,
    }[sort]!;
    const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const { rows } = await rowsOf<{ patient_id: string; n: number; latest: Date | string | null }>(sql`
      select p.patient_id, coalesce(s.n, 0)::int as n, s.latest
      from patients p
      left join (select patient_id, count(*) as n, max(acquired_at) as latest from records where tenant_id = 'demo' group by patient_id) s
        on s.patient_id = p.patient_id
      where p.tenant_id = 'demo' and (${search} = '' or p.patient_id ilike ${pattern} or p.name ilike ${pattern})
      order by ${column} ${order === 'asc' ? sql`asc` : sql`desc`} nulls last, p.patient_id asc`);
    return rows.map((r) => ({ patientId: r.patient_id, recordCount: Number(r.n), latestRecordDate: r.latest ? new Date(r.latest).toISOString() : null }));
  }

  async function page(query: Record<string, string>): Promise<{ items: PatientSummary[]; total: number }> {
    const response = await get(session, `/api/demo/patients?${new URLSearchParams(query)}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  /** Every page of the list, walked with a small page size so paging is exercised. */
  async function wholeList(query: Record<string, string>, pageSize = 7): Promise<{ items: PatientSummary[]; totals: number[] }> {
    const items: PatientSummary[] = [];
    const totals: number[] = [];
    for (let n = 1; ; n++) {
      const answer = await page({ ...query, page: String(n), pageSize: String(pageSize) });
      totals.push(answer.total);
      items.push(...answer.items);
      if (answer.items.length < pageSize) return { items, totals };
    }
  }

  const brief = (p: Pick<PatientSummary, 'patientId' | 'recordCount' | 'latestRecordDate'>): Reference => ({ patientId: p.patientId, recordCount: p.recordCount, latestRecordDate: p.latestRecordDate });

  async function expectListMatchesRecords() {
    const expected = await reference('latestRecordDate', 'desc');
    const listed = (await page({ pageSize: '200' })).items.map(brief);
    expect(listed).toEqual(expected);
  }

  async function summaryOf(patientId: string): Promise<PatientSummary> {
    const response = await get(session, `/api/demo/patients/${patientId}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  it('counts the seeded records, and orders and pages every sort as before', async () => {
    await expectListMatchesRecords();
    for (const sort of PATIENT_SORT_FIELDS) {
      for (const order of ['asc', 'desc'] as const) {
        const expected = await reference(sort, order);
        const { items, totals } = await wholeList({ sort, order });
        expect(items.map(brief), `${sort} ${order}`).toEqual(expected);
        expect(new Set(totals), `${sort} ${order}`).toEqual(new Set([expected.length]));
      }
    }
    // Past the end: no rows, and still the total.
    expect(await page({ page: '99', pageSize: '10' })).toMatchObject({ items: [], total: (await reference('name', 'asc')).length });
  });

  it('searches as ILIKE on patient id or name did, with % and _ taken literally', async () => {
    const someone = (await page({ pageSize: '1' })).items[0]!;
    const family = someone.name.split(',')[0]!;
    for (const search of [family.toUpperCase(), family.toLowerCase().slice(1, 4), someone.patientId.toLowerCase(), 'dem-0', '%', '_', 'zz-nobody']) {
      for (const sort of ['name', 'recordCount'] as const) {
        const expected = await reference(sort, 'desc', search);
        const { items, totals } = await wholeList({ search, sort, order: 'desc' }, 4);
        expect(items.map(brief), search).toEqual(expected);
        expect(new Set(totals), search).toEqual(new Set([expected.length]));
      }
    }
  });

  it('follows a record added, re-dated, moved to another patient and deleted', async () => {
    const [a, b] = (await page({ sort: 'recordCount', order: 'desc', pageSize: '2' })).items;
    const before = { a: await summaryOf(a!.patientId), b: await summaryOf(b!.patientId) };

    // Newer than anything: the new latest.
    const [added] = await db()
      .insert(records)
      .values({ tenantId: 'demo', patientId: a!.patientId, acquiredAt: new Date('2031-01-02T03:04:05Z') })
      .returning({ id: records.id });
    expect(await summaryOf(a!.patientId)).toMatchObject({ recordCount: before.a.recordCount + 1, latestRecordDate: '2031-01-02T03:04:05.000Z' });

    // Re-dated into the past: the latest falls back to the patient's previous newest.
    await db().update(records).set({ acquiredAt: new Date('1999-01-01T00:00:00Z') }).where(eq(records.id, added!.id));
    expect(await summaryOf(a!.patientId)).toMatchObject({ recordCount: before.a.recordCount + 1, latestRecordDate: before.a.latestRecordDate });

    // Moved to b: counted there, no longer on a.
    await db().update(records).set({ patientId: b!.patientId }).where(eq(records.id, added!.id));
    expect(await summaryOf(a!.patientId)).toMatchObject({ recordCount: before.a.recordCount, latestRecordDate: before.a.latestRecordDate });
    expect(await summaryOf(b!.patientId)).toMatchObject({ recordCount: before.b.recordCount + 1 });
    await expectListMatchesRecords();

    // Saving an annotation updates the record's other columns: nothing changes.
    await db().update(records).set({ annotationStatus: 'saved' }).where(eq(records.id, added!.id));
    expect(await summaryOf(b!.patientId)).toMatchObject({ recordCount: before.b.recordCount + 1 });

    await db().delete(records).where(eq(records.id, added!.id));
    expect(await summaryOf(b!.patientId)).toEqual(before.b);

    // Every record of a gone: zero and no date, sorted last by latest record.
    await db().delete(records).where(and(eq(records.tenantId, 'demo'), eq(records.patientId, a!.patientId)));
    expect(await summaryOf(a!.patientId)).toMatchObject({ recordCount: 0, latestRecordDate: null });
    await expectListMatchesRecords();
    const byLatest = await wholeList({ sort: 'latestRecordDate', order: 'desc' });
    expect(byLatest.items.map(brief)).toEqual(await reference('latestRecordDate', 'desc'));
    expect(byLatest.items.at(-1)!.latestRecordDate).toBeNull();
  });

  it('counts records inserted in bulk and at the same time for one patient', async () => {
    const [someone] = (await page({ sort: 'patientId', order: 'desc', pageSize: '1' })).items;
    const at = (day: number) => new Date(Date.UTC(2032, 0, day));
    await db()
      .insert(records)
      .values([1, 2, 3].map((day) => ({ tenantId: 'demo', patientId: someone!.patientId, acquiredAt: at(day) })));
    // Separate statements, on separate connections with PostgreSQL: none may lose another's count.
    await Promise.all([4, 5, 6, 7, 8, 9].map((day) => db().insert(records).values({ tenantId: 'demo', patientId: someone!.patientId, acquiredAt: at(day) })));
    expect(await summaryOf(someone!.patientId)).toMatchObject({ recordCount: someone!.recordCount + 9, latestRecordDate: at(9).toISOString() });
    await expectListMatchesRecords();
  });

  it('counts a patient inserted after its records (no foreign key forbids it)', async () => {
    await db().insert(records).values({ tenantId: 'demo', patientId: 'LATE-001', acquiredAt: new Date('2030-05-06T00:00:00Z') });
    await db().insert(patients).values({ tenantId: 'demo', patientId: 'LATE-001', name: 'Late, Lara', sex: 'F' });
    expect(await summaryOf('LATE-001')).toMatchObject({ recordCount: 1, latestRecordDate: '2030-05-06T00:00:00.000Z' });
    await expectListMatchesRecords();
  });

  it('counts imported records, for a new patient and for one it already has', async () => {
    const patientId = `STATS-${process.pid}`;
    const file = (name: string) => ({ name, bytes: makeDicom({ patientId, patientName: 'Stats^Sam', birthDate: '19600101', frames: 4 }).bytes });
    await batchDone(session, await uploadAccepted(session, [file('one.dcm')]));
    expect(await summaryOf(patientId)).toMatchObject({ recordCount: 1 });
    await batchDone(session, await uploadAccepted(session, [file('two.dcm')]));
    const { records: imported } = (await get(session, `/api/demo/patients/${patientId}/records`)).json();
    expect(imported).toHaveLength(2);
    expect(await summaryOf(patientId)).toMatchObject({ recordCount: 2, latestRecordDate: imported[0].acquiredAt });
    const listed = (await page({ search: patientId })).items;
    expect(listed.map(brief)).toEqual([{ patientId, recordCount: 2, latestRecordDate: imported[0].acquiredAt }]);
    await expectListMatchesRecords();
  });
});
