/**
 * `npm run bench:attacks`: tries every attack of the catalogue (tests/support/attack-catalogue.ts)
 * against a whole server on a fresh embedded database and prints the table: tried, refused with the
 * right status, data intact. The same catalogue runs in `npm test` (tests/server/attacks.test.ts).
 */
import { ATTACKS, dataFingerprint } from '../tests/support/attack-catalogue.ts';
import { createAttackTarget } from '../tests/support/attack-target.ts';

const target = await createAttackTarget();
const before = await dataFingerprint(target.database);
const rows: string[][] = [];
let refused = 0;
let intact = 0;
for (const attack of ATTACKS) {
  const started = performance.now();
  let status: number | string;
  try {
    status = await attack.run(target);
  } catch (error) {
    status = `error: ${error instanceof Error ? error.message : String(error)}`;
  }
  const rightStatus = typeof status === 'number' && attack.expected.includes(status);
  const after = await dataFingerprint(target.database);
  const unchanged = Object.entries(before).filter(([table, digest]) => after[table] !== digest).map(([table]) => table);
  if (rightStatus) refused++;
  if (unchanged.length === 0) intact++;
  rows.push([
    attack.category,
    attack.name,
    attack.expected.join('/'),
    String(status),
    rightStatus ? 'yes' : 'NO',
    unchanged.length === 0 ? 'yes' : `NO (${unchanged.join(', ')})`,
    `${Math.round(performance.now() - started)} ms`,
  ]);
}
await target.close();

const header = ['category', 'attack', 'expected', 'answer', 'refused right', 'data intact', 'time'];
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
console.info(line(header));
console.info(widths.map((width) => '-'.repeat(width)).join('  '));
for (const row of rows) console.info(line(row));
console.info(`\n${ATTACKS.length} attacks tried: ${refused} refused with the right status, ${intact} left the data intact.`);
if (refused !== ATTACKS.length || intact !== ATTACKS.length) process.exitCode = 1;
