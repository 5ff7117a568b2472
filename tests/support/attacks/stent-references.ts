/**
 * Issue 28, stent references moved by hand in a saved manifest (`stentReferences`): a client that
 * sends a reference the review could never place (slice 0, a fraction, a string, a slice beyond the
 * record, an unknown side, a prototype key, a list instead of an object) is refused with 400 and
 * nothing is saved.
 */
import type { Attack } from '../attack-types.ts';
import { saveManifest } from './key-frames.ts';

/** The manifest JSON with `stentReferences` as given (raw JSON, so values JSON.stringify cannot write get through). */
const manifestWith = (stentReferences: string) => `{"ruler":[],"area":[],"text":[],"angle":[],"lastAnnotationSlice":0,"stentReferences":${stentReferences}}`;

const referenceAttack = (name: string, stentReferences: string): Attack => ({ category: 'stent references', name, expected: [400], run: (t) => saveManifest(t, manifestWith(stentReferences)) });

export const STENT_REFERENCE_ATTACKS: readonly Attack[] = [
  referenceAttack('a distal reference on slice 0', `{"distal":0}`),
  referenceAttack('a proximal reference on a negative slice', `{"proximal":-3}`),
  referenceAttack('a reference on a fractional slice', `{"distal":2.5}`),
  referenceAttack('a reference slice as a string', `{"distal":"2"}`),
  referenceAttack('a reference slice that overflows to Infinity', `{"proximal":1e999}`),
  referenceAttack('a reference beyond the record', `{"proximal":1000000}`),
  referenceAttack('a side the schema does not know', `{"distal":2,"middle":5}`),
  referenceAttack('a prototype key', `{"distal":2,"__proto__":{"proximal":-1}}`),
  referenceAttack('stent references as a list', `[2,40]`),
  referenceAttack('a reference as null', `{"distal":null}`),
];
