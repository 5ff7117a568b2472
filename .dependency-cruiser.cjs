/**
 * The directions that must never exist (../shared/design/architecture.md, docs/code-map.md), checked
 * by `npm run lint` on every import of src/ (type-only imports included).
 */
// dependency-cruiser loads its configuration as CommonJS, so this file can only require.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { folderCycleRules } = require('./scripts/folder-cycle-rules.cjs');

/**
 * KNOWN FOLDER CYCLES: exceptions to `no-folder-cycles`, empty since issue 25 removed the review's
 * (its screen geometry moved to review/view, the edited manifest to review/manifest). An entry is a
 * cycle of folders, each importing the next and the last the first; only those imports would be let
 * through. Keep it empty: fix a new folder cycle at its cause rather than listing it here.
 */
const KNOWN_FOLDER_CYCLES = [
];

module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', comment: 'Import cycles make modules impossible to load or test on their own.', from: {}, to: { circular: true } },
    ...folderCycleRules(KNOWN_FOLDER_CYCLES),
    {
      name: 'review-has-one-door',
      severity: 'error',
      comment: 'Outside src/web/review, the review is imported through src/web/review/index.ts only, so its rooms can change without touching the app.',
      from: { path: '^src/', pathNot: '^src/web/review/' },
      to: { path: '^src/web/review/', pathNot: '^src/web/review/index\\.ts$' },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment:
        'src/domain imports nothing outside itself but small pure libraries: zod, and pdf-lib with its font engine @pdf-lib/fontkit (pure JavaScript, no DOM or Node), ' +
        "because the browser's report download and the server's Encapsulated PDF for the PACS must be the same report.",
      from: { path: '^src/domain/' },
      to: { pathNot: ['^src/domain/', 'node_modules/zod/', 'node_modules/pdf-lib/', 'node_modules/@pdf-lib/fontkit/'] },
    },
    { name: 'web-never-imports-server', severity: 'error', from: { path: '^src/web/' }, to: { path: '^src/server/' } },
    { name: 'server-never-imports-web', severity: 'error', from: { path: '^src/server/' }, to: { path: '^src/web/' } },
    {
      name: 'http-never-imports-idp',
      severity: 'error',
      comment: 'Only app.ts wires the identity provider in.',
      from: { path: '^src/server/http/' },
      to: { path: '^src/server/idp/' },
    },
    {
      name: 'dicom-never-imports-import',
      severity: 'error',
      comment: 'server/dicom owns DICOM reading and writing for every caller (imports, PACS, reports); it never imports its callers.',
      from: { path: '^src/server/dicom/' },
      to: { path: '^src/server/(import|pacs|http)/' },
    },
    {
      name: 'ui-is-shared',
      severity: 'error',
      comment: 'web/ui imports no feature, review, auth or API code.',
      from: { path: '^src/web/ui/' },
      to: { path: '^src/web/(features|review|auth|api)/' },
    },
    {
      name: 'features-never-import-each-other',
      severity: 'error',
      comment: 'Move what two features share to web/ui, web/api, web/session or src/domain.',
      from: { path: '^src/web/features/([^/]+)/' },
      to: { path: '^src/web/features/', pathNot: '^src/web/features/$1/' },
    },
    {
      name: 'pixi-only-in-panels-and-imaging',
      severity: 'error',
      from: { pathNot: '^src/web/review/(panels|imaging)/' },
      to: { path: 'node_modules/(pixi\\.js|@pixi)/' },
    },
    {
      name: 'machines-have-no-effects',
      severity: 'error',
      comment: 'Statecharts import no React, Pixi, Chakra, client libraries or API code: effects are provided from outside.',
      from: { path: '\\.machine\\.ts$' },
      to: { path: ['node_modules/(react|react-dom|@chakra-ui|pixi\\.js|@pixi|oidc-client-ts)/', '^src/web/api/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^src/server/db/migrations'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
