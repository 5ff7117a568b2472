/**
 * Issue 28, stent borders corrected by hand in a saved manifest (`stentBorders`): a client that
 * sends one the review could never draw (too few or too many control points, a slice that is no
 * slice, a source other than a correction, two on one slice, a field the schema does not know, a
 * prototype key, points that are no numbers, far off the image, or beyond the record) is refused
 * with 400 and nothing is saved.
 */
import type { Attack } from '../attack-types.ts';
import { saveManifest } from './key-frames.ts';

const ring = (count: number) => JSON.stringify(Array.from({ length: count }, (_, i) => ({ x: 256 + 80 * Math.cos((2 * Math.PI * i) / count), y: 256 + 80 * Math.sin((2 * Math.PI * i) / count) })));

/** The manifest JSON with `stentBorders` as given (raw JSON, so values JSON.stringify cannot write get through). */
const manifestWith = (stentBorders: string) => `{"ruler":[],"area":[],"text":[],"angle":[],"lastAnnotationSlice":0,"stentBorders":${stentBorders}}`;
const one = (fields: string) => `[{${fields}}]`;

const stentAttack = (name: string, stentBorders: string): Attack => ({ category: 'stent borders', name, expected: [400], run: (t) => saveManifest(t, manifestWith(stentBorders)) });

export const STENT_BORDER_ATTACKS: readonly Attack[] = [
  stentAttack('a stent border of 2 control points', one(`"slice":2,"controlPoints":${ring(2)},"source":"manual"`)),
  stentAttack('a stent border of 65 control points', one(`"slice":2,"controlPoints":${ring(65)},"source":"manual"`)),
  stentAttack('slice 0', one(`"slice":0,"controlPoints":${ring(8)},"source":"manual"`)),
  stentAttack('a slice as a string', one(`"slice":"2","controlPoints":${ring(8)},"source":"manual"`)),
  stentAttack('a slice beyond the record', one(`"slice":1000000,"controlPoints":${ring(8)},"source":"manual"`)),
  stentAttack('a source other than a correction', one(`"slice":2,"controlPoints":${ring(8)},"source":"auto"`)),
  stentAttack('two stent borders on one slice', `[{"slice":2,"controlPoints":${ring(8)},"source":"manual"},{"slice":2,"controlPoints":${ring(9)},"source":"manual"}]`),
  stentAttack('a field the schema does not know', one(`"slice":2,"controlPoints":${ring(8)},"source":"manual","reachMm":2`)),
  stentAttack('a prototype key', one(`"slice":2,"controlPoints":${ring(8)},"source":"manual","__proto__":{"slice":-1}`)),
  stentAttack('a point that overflows to Infinity', one(`"slice":2,"controlPoints":[{"x":1e999,"y":0},{"x":1,"y":0},{"x":0,"y":1}],"source":"manual"`)),
  stentAttack('a point far off the image', one(`"slice":2,"controlPoints":[{"x":1e7,"y":0},{"x":1,"y":0},{"x":0,"y":1}],"source":"manual"`)),
  stentAttack('stent borders as an object', `{"slice":2}`),
];
