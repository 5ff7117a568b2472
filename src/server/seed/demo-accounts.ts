import { ADMIN_GROUP } from '../../domain/constants.ts';

/**
 * The demo organisations and their sign-ins. These passwords exist only in demo data seeded
 * into a local database; they are printed at start so a newcomer can sign in.
 */
export const DEMO_TENANTS = [
  { id: 'demo', name: 'Demo Heart Centre', patientCount: 36, seed: 1 },
  { id: 'acme', name: 'Acme Cardiology', patientCount: 12, seed: 2 },
] as const;

export const LARGE_TENANT = { id: 'large', name: 'Large Regional Hospital', patientCount: 10_000, seed: 3 } as const;

export type DemoAccount = { tenantId: string; email: string; name: string; password: string; groups: string[] };

export function demoAccounts(tenantId: string): DemoAccount[] {
  return [
    { tenantId, email: `admin@${tenantId}.test`, name: 'Dr. Alex Admin', password: `${tenantId}-admin-password`, groups: [ADMIN_GROUP] },
    { tenantId, email: `clinician@${tenantId}.test`, name: 'Dr. Casey Clinician', password: `${tenantId}-clinician-password`, groups: [] },
  ];
}
