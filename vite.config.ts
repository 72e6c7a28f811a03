import { defineConfig } from 'vitest/config';
import { oracleChecksPlugin } from './scripts/vite-oracle-checks.mjs';

// One config for the app build and for both Vitest projects: `unit` (fast, every *.test.ts next
// to the code) and `conformance` (differential runs against a real redis-server on loopback).
export default defineConfig({
  base: './',
  plugins: [oracleChecksPlugin()],
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 1200,
  },
  worker: { format: 'es' },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
          exclude: ['src/**/*.conformance.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'conformance',
          include: ['src/**/*.conformance.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
