/**
 * Issue 28, calcium arcs set by hand in a saved manifest (`calcium`: slice, startDeg, arcDeg,
 * nodule). A client that sends degrees that are no angle (negative, over 360°, overflowing to
 * Infinity, a string, an object), two arcs on one slice, a slice beyond the record, a field the
 * schema does not know, or a prototype key, is refused with 400 and nothing is saved.
 */
import type { Attack } from '../attack-types.ts';
import { saveManifest } from './key-frames.ts';

/** The manifest JSON whose `calcium` list is `arcs` (raw JSON, so values JSON.stringify cannot write get through). */
const manifestWith = (arcs: string) => `{"ruler":[],"area":[],"text":[],"angle":[],"lastAnnotationSlice":0,"calcium":[${arcs}]}`;

const arcAttack = (name: string, arcs: string): Attack => ({ category: 'calcium arcs', name, expected: [400], run: (t) => saveManifest(t, manifestWith(arcs)) });

export const CALCIUM_ARC_ATTACKS: readonly Attack[] = [
  arcAttack('a negative arc', '{"slice":2,"startDeg":0,"arcDeg":-10}'),
  arcAttack('an arc over 360°', '{"slice":2,"startDeg":0,"arcDeg":720}'),
  arcAttack('a start that overflows to Infinity', '{"slice":2,"startDeg":1e999,"arcDeg":10}'),
  arcAttack('degrees as a string', '{"slice":2,"startDeg":"0","arcDeg":10}'),
  arcAttack('degrees as an operator object', '{"slice":2,"startDeg":0,"arcDeg":{"$gt":0}}'),
  arcAttack('a fractional slice', '{"slice":2.5,"startDeg":0,"arcDeg":10}'),
  arcAttack('a slice beyond the record', '{"slice":1000000,"startDeg":0,"arcDeg":10}'),
  arcAttack('two arcs on one slice', '{"slice":2,"startDeg":0,"arcDeg":10},{"slice":2,"startDeg":90,"arcDeg":40}'),
  arcAttack('a field the schema does not know', '{"slice":2,"startDeg":0,"arcDeg":10,"weight":1e9}'),
  arcAttack('a prototype key', '{"slice":2,"startDeg":0,"arcDeg":10,"__proto__":{"arcDeg":-1}}'),
  arcAttack('a nodule that is not true or false', '{"slice":2,"startDeg":0,"arcDeg":10,"nodule":"yes"}'),
];
