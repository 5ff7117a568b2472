import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/** Server test files the PostgreSQL run leaves to the PGlite run (380 s of file time in the last CI, more than half of that run). */
const NOT_ABOUT_THE_DATABASE = [
  'tests/server/dicom/**',
  'tests/server/imaging/**',
  'tests/server/storage/**',
  'tests/server/workers/**',
  'tests/server/contours/**',
  'tests/server/http/{security-headers,proxy-trust,report-*}.test.ts',
  'tests/server/pacs/{address-policy,pacs-transport,pacs-ssrf,multipart-to-files,orthanc-harness,dimse-receiver,dicom-receiver-import,pacs-send-stent}.test.ts',
  'tests/server/{frames,frames-from-store,frames-through-cdn,slow-requests,report-images,config}.test.ts',
  'tests/server/{import-frame-packs,import-ultrasound-pixels,import-ultrasound-kind}.test.ts',
  // The record's detection: its jobs on PostgreSQL are tests/server/jobs/job-queue.test.ts's.
  'tests/server/{contours,contour-precompute,contour-coarse-to-fine,contour-runs,contours-provisional,contours-stent-later,contours-unavailable}.test.ts',
];

export default defineConfig({
  test: {
    // Vitest's default in a run is one worker fewer than the cores: one on our 2-core machines, which
    // ran the whole suite file after file (42 min) with a core mostly idle, since most server files
    // wait on PostgreSQL, Orthanc, child servers and their own worker threads. Each server file has a
    // database of its own (tests/server/test-server.ts), so files may run side by side.
    maxWorkers: '100%',
    projects: [
      {
        test: {
          name: 'domain',
          include: ['tests/domain/**/*.test.ts'],
          environment: 'node',
          // Property tests of the detectors are CPU-bound: seconds alone (the stent border rounds, 3 s),
          // several times that while the suite shares two cores with the other projects; 5 s was too tight.
          testTimeout: 30_000,
        },
      },
      {
        // The import rules of .dependency-cruiser.cjs, checked on small trees written by each test.
        test: { name: 'architecture', include: ['tests/architecture/**/*.test.ts'], environment: 'node' },
      },
      {
        plugins: [react()],
        define: { __BUILD_VERSION__: JSON.stringify('test') },
        test: {
          name: 'web',
          include: ['tests/web/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/web/setup.ts'],
          // Typing into forms with user-event takes seconds when the suite shares two cores with other work.
          testTimeout: 15_000,
          // @pixi/react imports 'react-reconciler/constants' without an extension, which Node's
          // ESM resolver refuses; let Vite resolve it as the app build does.
          server: { deps: { inline: ['@pixi/react'] } },
        },
      },
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/server/pglite-template-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The server suite once more against a real PostgreSQL started from the machine's binaries,
        // but for the files whose subject is bytes, codecs, transport or the border search, where the
        // database only signs the request in (their queries are the ones every other file runs).
        test: {
          name: 'server-postgres',
          include: ['tests/server/**/*.test.ts'],
          exclude: NOT_ABOUT_THE_DATABASE,
          environment: 'node',
          globalSetup: ['tests/server/postgres-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
