/**
 * `npm run bench:attacks`: tries every attack of the catalogue (tests/support/attack-catalogue.ts)
 * against a whole server on a fresh embedded database, then the kill faults
 * (tests/support/kill-faults/: the real server SIGKILLed during a save and during an import, and
 * started again), and prints the table: tried, refused with the right status (for a fault: the
 * restarted server answered right), data intact. The same catalogue and faults run in `npm test`
 * (tests/server/attacks.test.ts, tests/server/kill-faults.test.ts).
 */
import { ATTACKS, dataFingerprint } from '../tests/support/attack-catalogue.ts';
import { createAttackTarget } from '../tests/support/attack-target.ts';
import { KILL_FAULTS } from '../tests/support/kill-faults/index.ts';

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

// The kill faults, each on a server process and data directory of its own.
const faultProblems: string[] = [];
const faultSteps: string[] = [];
for (const fault of KILL_FAULTS) {
  const started = performance.now();
  const outcome = await fault.run();
  const answeredRight = outcome.answerProblems.length === 0;
  const dataIntact = outcome.dataProblems.length === 0;
  if (answeredRight) refused++;
  if (dataIntact) intact++;
  faultSteps.push(`${fault.name}:`, ...outcome.steps.map((step) => `  ${step}`));
  faultProblems.push(...[...outcome.answerProblems, ...outcome.dataProblems].map((problem) => `${fault.name}: ${problem}`));
  rows.push([
    fault.category,
    fault.name,
    fault.expected,
    outcome.answer,
    answeredRight ? 'yes' : 'NO',
    dataIntact ? 'yes' : 'NO',
    `${Math.round(performance.now() - started)} ms`,
  ]);
}
const tried = ATTACKS.length + KILL_FAULTS.length;

const header = ['category', 'attack', 'expected', 'answer', 'refused right', 'data intact', 'time'];
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
console.info(line(header));
console.info(widths.map((width) => '-'.repeat(width)).join('  '));
for (const row of rows) console.info(line(row));
console.info(
  `\n${tried} attacks and faults tried (${ATTACKS.length} attacks, ${KILL_FAULTS.length} kill faults): ` +
    `${refused} refused with the right status (faults: restarted and answered right), ${intact} left the data intact.`,
);
for (const problem of faultProblems) console.info(`  ${problem}`);
console.info(`\nWhat the kill faults did:\n${faultSteps.map((step) => `  ${step}`).join('\n')}`);
if (refused !== tried || intact !== tried) process.exitCode = 1;
