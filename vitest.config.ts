import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

// Unit and integration tests run in plain Node: the app core, the embedded server (over real loopback HTTP),
// the lint boundary rules. Browser journeys live in test/e2e and run under Playwright instead.
export default defineConfig({
  // One copy of graphql for every importer: vite would resolve `graphql` to its index.mjs for our code, while
  // packages Node loads themselves get index.js (graphql-jit's ESM build requires its CJS files, which require
  // graphql), and graphql refuses a schema built by the other copy. Node's own choice is taken for all.
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
    // CI also writes a JSON report that .ci/run sums into one closing line.
    reporters: process.env.CI
      ? ['default', ['json', { outputFile: 'test-reports/vitest.json' }]]
      : ['default'],
  },
});
