import { afterEach } from 'vitest';
import { newRuler } from '../../../../src/domain/annotations/drag.ts';
import { addAnnotation } from '../../../../src/domain/annotations/edits.ts';
import { emptyManifest, type AnnotationManifest } from '../../../../src/domain/annotations/manifest.ts';

/** What the draft tests share: Dana's review of record r1 at a fixed moment, and reviews stopped after each test. */

export const owner = { issuer: 'http://demo.localhost/idp', subject: 'dana' };
export const RECORD = 'r1';
export const NOW = new Date(2026, 10, 15, 9, 30).getTime();

let databases = 0;
/** A database name of its own per store, in the fake IndexedDB. */
export const freshDatabaseName = (prefix: string) => `${prefix}-${++databases}`;

/** The stop functions of the reviews a test started; each is called after the test. */
export function stoppedAfterEach(): (() => void)[] {
  const stops: (() => void)[] = [];
  afterEach(() => {
    stops.splice(0).forEach((stop) => stop());
  });
  return stops;
}

export function ruler(manifest: AnnotationManifest, x: number, slice = 4) {
  return newRuler(manifest, slice, { x: 0, y: 0 }, { x, y: 0 });
}

/** A manifest with one ruler ending at `x`. */
export function withRuler(x: number): AnnotationManifest {
  const empty = emptyManifest();
  return addAnnotation(empty, ruler(empty, x));
}
