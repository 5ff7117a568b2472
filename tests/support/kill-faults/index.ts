/**
 * The kill faults of the attack and fault suite (issue 16): the REAL server (`node
 * src/server/server.ts`, embedded PGlite database in a data directory of its own) is killed with
 * SIGKILL — never a graceful stop — while it saves annotations and while it imports a DICOM file,
 * then started again on the same data directory. Nothing may be lost or half-written: a save is
 * there whole or not at all (and there whenever the client was told 201), an import is reported
 * interrupted with nothing of it left (no patient, no record, no stored frames, no uploaded
 * files), and the same file imports fine when sent again. The same faults serve the suite of `npm
 * test` (tests/server/kill-faults.test.ts) and `npm run bench:attacks`, which prints them as two
 * more rows of its table.
 *
 * child-server.ts starts, kills and restarts the server (and cleans up after it), http.ts talks to
 * it, save-fault.ts and import-fault.ts are the two faults.
 */
import { killDuringImport } from './import-fault.ts';
import { killDuringSave } from './save-fault.ts';

export { killDuringImport, killDuringSave };

export { ServerProcess } from './child-server.ts';

/** What one kill fault found. */
export interface KillFaultOutcome {
  /** What the server answered after its restarts, in a few words (the bench table's "answer"). */
  answer: string;
  /** How the restarted server's answers fell short (did not start, import not reported interrupted...); empty when right. */
  answerProblems: string[];
  /** How the data fell short (a partial or lost save, rows or files left of an import...); empty when intact. */
  dataProblems: string[];
  /** What happened, kill by kill (for a failure's message). */
  steps: string[];
}

export interface KillFault {
  readonly category: 'faults';
  readonly name: string;
  readonly expected: 'intact after restart';
  run(): Promise<KillFaultOutcome>;
}

export const KILL_FAULTS: readonly KillFault[] = [
  { category: 'faults', name: 'a kill during a save', expected: 'intact after restart', run: killDuringSave },
  { category: 'faults', name: 'a kill during an import', expected: 'intact after restart', run: killDuringImport },
];