/**
 * The import rules of .dependency-cruiser.cjs, run by dependency-cruiser itself on small source
 * trees written for each case: what `npm run lint` refuses, and what it lets through.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { cruise, type IForbiddenRuleType } from 'dependency-cruiser';
import { afterEach, describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const config = require('../../.dependency-cruiser.cjs') as { forbidden: IForbiddenRuleType[] };
const { folderCycleRules } = require('../../scripts/folder-cycle-rules.cjs') as { folderCycleRules: (knownCycles: string[][]) => IForbiddenRuleType[] };

const trees: string[] = [];
afterEach(() => {
  for (const tree of trees.splice(0)) fs.rmSync(tree, { recursive: true, force: true });
});

/**
 * Writes `imports` (file -> the files it imports, paths from the tree's root) and cruises its src/
 * with the rules of .dependency-cruiser.cjs, or with `forbidden`.
 */
async function violations(imports: Record<string, string[]>, forbidden = config.forbidden): Promise<string[]> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dependency-rules-'));
  trees.push(root);
  for (const [file, targets] of Object.entries(imports)) {
    const lines = targets.map((target, index) => {
      let specifier = path.posix.relative(path.posix.dirname(file), target);
      if (!specifier.startsWith('.')) specifier = `./${specifier}`;
      return `export { value as value${index} } from '${specifier}';`;
    });
    fs.mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), [...lines, 'export const value = 1;', ''].join('\n'));
  }
  const result = await cruise(['src'], { baseDir: root, validate: true, ruleSet: { forbidden }, tsPreCompilationDeps: true });
  if (typeof result.output === 'string') throw new Error('expected a cruise result, got a report');
  return result.output.summary.violations.map((violation) => `${violation.rule.name}: ${violation.from} -> ${violation.to}`);
}

describe('no-folder-cycles', () => {
  it('refuses two folders that import each other, though no file is in a cycle', async () => {
    const found = await violations({
      'src/server/a/one.ts': ['src/server/b/two.ts'],
      'src/server/b/two.ts': ['src/server/a/three.ts'],
      'src/server/a/three.ts': [],
    });
    expect(found).toContain('no-folder-cycles: src/server/a -> src/server/b');
    expect(found).toContain('no-folder-cycles: src/server/b -> src/server/a');
    expect(found.some((violation) => violation.startsWith('no-cycles'))).toBe(false);
  });

  it('refuses a cycle through three folders', async () => {
    const found = await violations({
      'src/domain/a/one.ts': ['src/domain/b/two.ts'],
      'src/domain/b/two.ts': ['src/domain/c/three.ts'],
      'src/domain/c/three.ts': ['src/domain/a/four.ts'],
      'src/domain/a/four.ts': [],
    });
    expect(found).toEqual(expect.arrayContaining(['no-folder-cycles: src/domain/a -> src/domain/b', 'no-folder-cycles: src/domain/c -> src/domain/a']));
  });

  it('lets a folder and its own subfolder import each other', async () => {
    expect(
      await violations({
        'src/server/app.ts': ['src/server/http/routes.ts'],
        'src/server/http/routes.ts': ['src/server/config.ts'],
        'src/server/config.ts': [],
      }),
    ).toEqual([]);
  });

  // Its own list of known cycles, so that the test outlives the entries of .dependency-cruiser.cjs.
  const knownCycles = [['src/web/review/panels', 'src/web/review/lmode']];
  const known = {
    'src/web/review/panels/panel.ts': ['src/web/review/lmode/strip.ts'],
    'src/web/review/lmode/strip.ts': ['src/web/review/panels/frame.ts'],
    'src/web/review/panels/frame.ts': [],
  };

  it('lets a known cycle through, and nothing else from its folders', async () => {
    expect(await violations(known, folderCycleRules(knownCycles))).toEqual([]);

    const found = await violations(
      {
        ...known,
        'src/web/review/panels/frame.ts': ['src/web/review/playback/clock.ts'],
        'src/web/review/playback/clock.ts': ['src/web/review/panels/panel-size.ts'],
        'src/web/review/panels/panel-size.ts': [],
      },
      folderCycleRules(knownCycles),
    );
    expect(found).toEqual(
      expect.arrayContaining(['no-folder-cycles-besides-known: src/web/review/panels -> src/web/review/playback', 'no-folder-cycles: src/web/review/playback -> src/web/review/panels']),
    );
  });

  it('refuses every folder cycle once the list of known cycles is empty', async () => {
    expect(await violations(known, folderCycleRules([]))).toEqual(['no-folder-cycles: src/web/review/lmode -> src/web/review/panels', 'no-folder-cycles: src/web/review/panels -> src/web/review/lmode']);
  });
});

describe('review-has-one-door', () => {
  it('refuses an import into a room of the review from outside it', async () => {
    const found = await violations({
      'src/web/app/app-router.ts': ['src/web/review/panels/panel.ts'],
      'src/web/review/panels/panel.ts': [],
    });
    expect(found).toEqual(['review-has-one-door: src/web/app/app-router.ts -> src/web/review/panels/panel.ts']);
  });

  it('lets the app import the review through its index, and the review import its own rooms', async () => {
    expect(
      await violations({
        'src/web/app/app-router.ts': ['src/web/review/index.ts'],
        'src/web/review/index.ts': ['src/web/review/review-page.ts'],
        'src/web/review/review-page.ts': ['src/web/review/panels/panel.ts'],
        'src/web/review/panels/panel.ts': [],
      }),
    ).toEqual([]);
  });
});

describe('dicom-never-imports-import', () => {
  it('refuses an import of server/import from server/dicom, even without a cycle', async () => {
    const found = await violations({
      'src/server/dicom/dicom-file.ts': ['src/server/import/errors.ts'],
      'src/server/import/errors.ts': [],
    });
    expect(found).toEqual(['dicom-never-imports-import: src/server/dicom/dicom-file.ts -> src/server/import/errors.ts']);
  });
});
