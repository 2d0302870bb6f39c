#!/usr/bin/env node
// Prints one closing line over every runner of `npm test` (vitest and Playwright JSON reports in
// test-reports/), after each runner has printed its own summary.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);

const vitest = read('test-reports/vitest.json');
if (vitest) {
  passed += vitest.numPassedTests ?? 0;
  failed += vitest.numFailedTests ?? 0;
  skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
}
const pw = read('test-reports/playwright.json');
if (pw?.stats) {
  passed += (pw.stats.expected ?? 0) + (pw.stats.flaky ?? 0);
  failed += pw.stats.unexpected ?? 0;
  skipped += pw.stats.skipped ?? 0;
}
if (!vitest && !pw) {
  console.log('summary: no test reports found (the run stopped before the test runners)');
  process.exit(1);
}
console.log(`summary: ${passed} passed, ${failed} failed, ${skipped} skipped`);
