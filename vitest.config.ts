import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Unit and integration tests run in plain Node: the app core, the embedded server (over real
// loopback HTTP), the lint boundary rules. Browser journeys live in test/e2e and run under
// Playwright instead.
export default defineConfig({
  // One copy of graphql for every importer: vite would resolve `graphql` to its index.mjs for our
  // code, while packages Node loads themselves get index.js (graphql-jit's ESM build requires its
  // CJS files, which require graphql), and graphql refuses a schema built by the other copy. Node's
  // own choice is taken for all.
  resolve: {
    alias: [{ find: /^graphql$/, replacement: createRequire(import.meta.url).resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, idle while its
    // file waits on loopback HTTP, the writer's thread or a child process (a build, a packaging
    // run). Files share nothing but out/ (test/helpers/built-app.ts builds it under a lock), so
    // every core gets a worker.
    maxWorkers: Math.max(2, availableParallelism()),
    // CI also writes a JSON report that .ci/run sums into one closing line.
    reporters: process.env.CI
      ? ['default', ['json', { outputFile: 'test-reports/vitest.json' }]]
      : ['default'],
  },
});
