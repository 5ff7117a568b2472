// @ts-check
import fs from 'node:fs';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Feature folders never import each other (architecture.md, "Directions that must never exist"). */
const features = fs.existsSync('src/web/features')
  ? fs.readdirSync('src/web/features', { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)
  : [];
const featureZones = features.map((name) => ({
  target: `./src/web/features/${name}`,
  from: './src/web/features',
  except: [`./${name}`],
  message: 'Features never import each other: move shared code to web/ui, web/api or src/domain.',
}));

const PIXI = ['pixi.js', 'pixi.js/*', '@pixi/*'];

export default tseslint.config(
  { ignores: ['.tmp/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'data/**', 'src/server/db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })] },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['info', 'warn', 'error'] }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './src/domain', from: './src', except: ['./domain'], message: 'src/domain imports nothing outside itself.' },
            { target: './src/web', from: './src/server', message: 'The browser never imports server code.' },
            { target: './src/server', from: './src/web', message: 'The server never imports browser code.' },
            { target: './src/server/http', from: './src/server/idp', message: 'HTTP routes never import the identity provider; only app.ts wires it in.' },
            {
              target: './src/web/ui',
              from: ['./src/web/features', './src/web/review', './src/web/auth', './src/web/api'],
              message: 'web/ui is shared: it imports no feature, review, auth or API code.',
            },
            ...featureZones,
          ],
        },
      ],
      'no-restricted-imports': ['error', { patterns: [{ group: PIXI, message: 'Only review/panels and review/imaging use Pixi.' }] }],
    },
  },
  {
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!zod$|\\.{1,2}/)', message: 'src/domain is pure: it may import only zod and its own files.' }] },
      ],
    },
  },
  {
    files: ['**/*.machine.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(react|react-dom|@chakra-ui/.*|pixi\\.js.*|@pixi/.*|oidc-client-ts)$', message: 'Statecharts import no React, Pixi, Chakra or client libraries: provide effects from outside.' },
            { regex: '/api/', message: 'Statecharts import no API code: provide effects from outside.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/web/review/panels/**', 'src/web/review/imaging/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['src/web/**/*.{ts,tsx}', 'tests/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['tests/**', 'e2e/**', 'scripts/**', 'bench/**'],
    rules: { 'no-console': 'off' },
  },
);
