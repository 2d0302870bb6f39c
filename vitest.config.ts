import { defineConfig } from 'vitest/config';

// Unit and integration tests run in plain Node: the app core, the embedded server (over real loopback HTTP),
// the lint boundary rules. Browser journeys live in test/e2e and run under Playwright instead.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // CI also writes a JSON report that .ci/run sums into one closing line.
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'test-reports/vitest.json' }]] : ['default'],
  },
});
