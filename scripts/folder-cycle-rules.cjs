/**
 * The dependency-cruiser rules against folder-level import cycles (used by .dependency-cruiser.cjs,
 * tested by tests/architecture/dependency-rules.test.ts with lists of known cycles of its own).
 * `knownCycles`: cycles of folders, each importing the next and the last the first, whose imports
 * are let through while they are being removed.
 */
const exactly = (folder) => `^${folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;

/** For each folder in a known cycle, the folders it may import although they import it back. */
function knownCycleTargets(knownCycles) {
  const targets = new Map();
  for (const cycle of knownCycles) {
    cycle.forEach((from, index) => {
      const to = cycle[(index + 1) % cycle.length];
      targets.set(from, [...new Set([...(targets.get(from) ?? []), to])]);
    });
  }
  return targets;
}

/**
 * Folders import one way (docs/code-map.md): if a/ imports b/, nothing in b/ imports a/, even
 * through other folders. A folder here is every directory and everything below it, so a file and
 * its own subfolders never count as a cycle. The file-level `no-cycles` cannot see these: a/x.ts
 * -> b/y.ts -> a/z.ts is a cycle of folders without one of files.
 */
function folderCycleRules(knownCycles) {
  const targets = knownCycleTargets(knownCycles);
  const comment = 'Folders import one way: move what both need down into a folder both may import.';
  return [
    // An empty pathNot would read as the empty pattern, which matches every folder.
    { name: 'no-folder-cycles', scope: 'folder', severity: 'error', comment, from: targets.size > 0 ? { pathNot: [...targets.keys()].map(exactly) } : {}, to: { circular: true } },
    ...[...targets].map(([from, to]) => ({
      name: 'no-folder-cycles-besides-known',
      scope: 'folder',
      severity: 'error',
      comment: `${comment} (Only the known folder cycles of ${from} are let through.)`,
      from: { path: exactly(from) },
      to: { circular: true, pathNot: to.map(exactly) },
    })),
  ];
}

module.exports = { folderCycleRules };
