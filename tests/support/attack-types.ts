/**
 * What an attack is and what it runs against: shared by the catalogue (attack-catalogue.ts), the
 * topic files of ./attacks/ and the target the suite and the bench build (attack-target.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { JWK } from 'jose';
import type { Database } from '../../src/server/db/client.ts';

export interface AttackTarget {
  app: FastifyInstance;
  database: Database;
  /** A listening port for attacks that need a real socket (a trickled body). */
  port: number;
  /** The DICOM receiver's port: IVUSREVIEW imports into demo, ACMEIVUS into acme (attacks/dicom-receiver.ts names the registered senders). */
  dicomPort: number;
  /** `demo.localhost:8080`-style host of a tenant, and its origin. */
  hostOf(tenantId: string): string;
  originOf(tenantId: string): string;
  /** A valid ID token of the account (signed by its tenant's provider key). */
  token(tenantId: string, email: string, options?: { expiresIn?: string | number; issuer?: string; audience?: string; key?: JWK }): Promise<string>;
  /** The tenant's current public signing key. */
  publicKey(tenantId: string): Promise<JWK>;
  /** Signs in through the provider with a password; the HTTP status of the sign-in page's answer. */
  signInStatus(tenantId: string, email: string, password: string): Promise<number>;
  /**
   * The same from a browser at `remoteAddress` holding `cookie`: on success (200) also the ID token and
   * the browser's cookies after it (the provider's session and the device cookie).
   */
  signIn(
    tenantId: string,
    email: string,
    password: string,
    browser?: { remoteAddress?: string; cookie?: string },
  ): Promise<{ status: number; idToken?: string; cookie?: string }>;
}

export interface Attack {
  readonly category: string;
  readonly name: string;
  /** The status codes that count as refused correctly. */
  readonly expected: readonly number[];
  run(target: AttackTarget): Promise<number>;
}
