/**
 * `npm run bench:patients`: latency of the patients list on a 10,000-patient tenant
 * (embedded PGlite, in memory), for the queries the patients screen makes.
 */
import { PatientListQuerySchema } from '../src/domain/patients.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { listPatients } from '../src/server/db/patients.ts';
import { LARGE_TENANT } from '../src/server/seed/demo-accounts.ts';
import { seedTenant } from '../src/server/seed/seed.ts';

const database = await openDatabase({ kind: 'pglite', dataDir: null });
const seedStart = performance.now();
await seedTenant(database.db, LARGE_TENANT);
console.log(`seeded ${LARGE_TENANT.patientCount} patients in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

const cases: Record<string, string>[] = [
  {},
  { page: '200', pageSize: '50' },
  { sort: 'recordCount', order: 'desc' },
  { sort: 'latestRecordDate', order: 'desc', page: '150' },
  { search: 'garcia' },
  { search: 'LAR-0042' },
];
for (const raw of cases) {
  const query = PatientListQuerySchema.parse(raw);
  const times: number[] = [];
  for (let i = 0; i < 15; i++) {
    const start = performance.now();
    await listPatients(database.db, LARGE_TENANT.id, query);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  const p95 = times[Math.floor(times.length * 0.95)]!;
  console.log(`${JSON.stringify(raw).padEnd(58)} median ${median.toFixed(1)} ms  p95 ${p95.toFixed(1)} ms`);
}
await database.close();
