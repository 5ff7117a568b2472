/**
 * The kill faults of issue 16 (tests/support/kill-faults/): the real server, killed with SIGKILL
 * during a save and during an import, starts again on its data directory with nothing lost or
 * half-written. The same faults are two rows of `npm run bench:attacks`.
 */
import { describe, expect, inject, it } from 'vitest';
import { KILL_FAULTS } from '../support/kill-faults/index.ts';

/**
 * The child server keeps its database in PGlite (in its own data directory): the faults run in the
 * PGlite project only, not once more in the real-PostgreSQL one (which provides postgresAdminUrl,
 * null when the machine has no PostgreSQL).
 */
const inPostgresProject = (() => {
  try {
    return inject('postgresAdminUrl') !== undefined;
  } catch {
    return false;
  }
})();

describe.skipIf(inPostgresProject)('kill faults: a server killed with SIGKILL starts again with nothing lost or half-written', () => {
  it.each(KILL_FAULTS.map((fault) => [fault.name, fault] as const))('%s', async (_, fault) => {
    const outcome = await fault.run();
    // The steps (kill by kill: when, what the client saw, what the restart found) explain a failure.
    expect({ answerProblems: outcome.answerProblems, dataProblems: outcome.dataProblems }, outcome.steps.join('\n')).toEqual({ answerProblems: [], dataProblems: [] });
  }, 120_000);
});
