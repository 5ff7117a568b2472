import { eq, sql } from 'drizzle-orm';
import { pick, seededRandom } from '../../domain/random.ts';
import { hashPassword } from '../crypto/passwords.ts';
import type { Db } from '../db/client.ts';
import { patients, records, tenants, users } from '../db/schema.ts';
import { demoAccounts } from './demo-accounts.ts';
import { demoRun } from './demo-run.ts';

const GIVEN = ['Maria', 'James', 'Aiko', 'Noah', 'Fatima', 'Lukas', 'Sofia', 'Omar', 'Elena', 'Daniel', 'Grace', 'Mateo', 'Priya', 'Henrik', 'Chloe', 'Samuel', 'Ines', 'Kwame', 'Lea', 'Tomasz'];
const FAMILY = ['Garcia', 'Smith', 'Tanaka', 'Muller', 'Haddad', 'Rossi', 'Novak', 'Okafor', 'Jensen', 'Silva', 'Dubois', 'Kowalski', 'Patel', 'Nguyen', 'Larsen', 'Moreau', 'Costa', 'Fischer', 'Ahmed', 'Brown'];
const SEXES = ['F', 'M', 'F', 'M', 'O', 'U'] as const;

/** Frame counts of a demo record: the first demo patient gets the long and the short pullback. */
function frameCounts(patientIndex: number, recordIndex: number, random: () => number) {
  if (patientIndex === 0 && recordIndex === 0) return { bmode: 3600, angio: 120 };
  if (patientIndex === 0 && recordIndex === 1) return { bmode: 300, angio: 40 };
  return { bmode: 600 + Math.floor(random() * 12) * 100, angio: 40 + Math.floor(random() * 80) };
}

/**
 * Seeds one tenant with its two accounts and deterministic patients and records. Does nothing
 * for a tenant that already exists, so a restart never overwrites anyone's data.
 */
export async function seedTenant(db: Db, tenant: { id: string; name: string; patientCount: number; seed: number }): Promise<boolean> {
  const [existing] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenant.id));
  if (existing) return false;
  const userRows: (typeof users.$inferInsert)[] = [];
  for (const account of demoAccounts(tenant.id)) {
    userRows.push({
      tenantId: tenant.id,
      email: account.email,
      name: account.name,
      passwordHash: await hashPassword(account.password),
      groups: account.groups,
    });
  }

  const random = seededRandom(tenant.seed);
  const now = Date.UTC(2026, 10, 1);
  const width = String(tenant.patientCount).length + 1;
  const patientRows: (typeof patients.$inferInsert)[] = [];
  const recordRows: (typeof records.$inferInsert)[] = [];
  for (let i = 0; i < tenant.patientCount; i++) {
    const patientId = `${tenant.id.slice(0, 3).toUpperCase()}-${String(i + 1).padStart(width, '0')}`;
    const birth = new Date(Date.UTC(1935 + Math.floor(random() * 60), Math.floor(random() * 12), 1 + Math.floor(random() * 28)));
    patientRows.push({
      tenantId: tenant.id,
      patientId,
      name: `${pick(random, FAMILY)}, ${pick(random, GIVEN)}`,
      birthDate: birth.toISOString().slice(0, 10),
      sex: pick(random, SEXES),
    });
    // A few patients have no record yet, as in a real list.
    const recordCount = i === 0 ? 3 : random() < 0.1 ? 0 : 1 + Math.floor(random() * 3);
    for (let r = 0; r < recordCount; r++) {
      const frames = frameCounts(i, r, random);
      recordRows.push({
        tenantId: tenant.id,
        patientId,
        acquiredAt: new Date(now - Math.floor(random() * 2 * 365 * 86_400_000)),
        modality: 'IVUS',
        bmodeFrameCount: frames.bmode,
        angioFrameCount: frames.angio,
        ...demoRun(Math.floor(random() * 2 ** 31)),
      });
    }
  }
  // All or nothing: a start interrupted half-way must not leave a half-seeded tenant behind.
  const seeded = await db.transaction(async (tx) => {
    const inserted = await tx.insert(tenants).values({ id: tenant.id, name: tenant.name }).onConflictDoNothing().returning();
    if (inserted.length === 0) return false;
    await tx.insert(users).values(userRows);
    for (let start = 0; start < patientRows.length; start += 1000) {
      await tx.insert(patients).values(patientRows.slice(start, start + 1000));
    }
    for (let start = 0; start < recordRows.length; start += 1000) {
      await tx.insert(records).values(recordRows.slice(start, start + 1000));
    }
    return true;
  });
  // Fresh statistics after a bulk insert; without them the planner expects one row per search
  // and picks a nested loop that makes a 10,000-patient search twenty times slower.
  // Vacuumed too: the record triggers rewrote every patient row, and until the table's visibility
  // map is set again a deep page of the patient list reads the table rather than only an index.
  if (seeded) {
    await db.execute(sql`vacuum analyze patients`);
    await db.execute(sql`analyze records`);
  }
  return seeded;
}
