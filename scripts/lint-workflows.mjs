#!/usr/bin/env node
// Part of `npm run lint`: every GitHub Actions workflow is checked against the workflow schema by
// action-validator (@action-validator/cli). The CLI takes one file per run, and Windows' shell does
// not expand globs, hence this loop. Usage: node scripts/lint-workflows.mjs [directory] (default
// .github/workflows).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const dir = process.argv[2] ?? '.github/workflows';
const cli = join(
  dirname(createRequire(import.meta.url).resolve('@action-validator/cli/package.json')),
  'cli.mjs',
);
const files = readdirSync(dir)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort();
if (files.length === 0) {
  console.error(`lint-workflows: no workflow in ${dir}`);
  process.exit(1);
}
let failed = 0;
for (const file of files) {
  const path = join(dir, file);
  const run = spawnSync(process.execPath, [cli, path], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (run.status !== 0) {
    console.error(`lint-workflows: ${path} is not a valid workflow (see above).`);
    failed += 1;
  }
}
process.exit(failed === 0 ? 0 : 1);
