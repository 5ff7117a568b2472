/**
 * The directions that must never exist (../shared/design/architecture.md), checked by
 * `npm run lint` on every import of src/ (type-only imports included).
 */
module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', comment: 'Import cycles make modules impossible to load or test on their own.', from: {}, to: { circular: true } },
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
