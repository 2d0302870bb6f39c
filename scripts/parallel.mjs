#!/usr/bin/env node
// Runs commands side by side and fails when any of them fails: the two tsc projects of
// `npm run typecheck`, the parts of `npm run lint`, and `npm test`'s typecheck beside its lint.
// Each is one single-threaded Node process, so on a 2-core machine two at a time take about half
// the time of one after the other. A command's output is printed whole when it ends, never
// interleaved with another's.
//
// Usage: node scripts/parallel.mjs "<command>" ... where a command is `npm run <script>`,
// `node <file> [args]` or `<package bin> [args]` (tsc, eslint, prettier), each started as a JS
// entry point of this Node (no npx or shell: see node-tools.mjs). Arguments are split on spaces;
// quote a glob with single quotes ('**/*.ts'), which no shell expands here.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { binEntry, npmCli } from './node-tools.mjs';

/** The package whose `bin` provides each command a script names. */
const BIN_PACKAGES = { tsc: 'typescript', eslint: 'eslint', prettier: 'prettier' };

/** Splits on spaces; single quotes keep a glob whole. */
function words(command) {
  return [...command.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]);
}

function argv(command) {
  const [first, ...rest] = words(command);
  if (first === 'npm') return [npmCli(), ...rest];
  if (first === 'node') return rest;
  const pkg = BIN_PACKAGES[first];
  if (!pkg) throw new Error(`parallel: no entry point known for ${first}`);
  return [binEntry(pkg, first), ...rest];
}

function run(command) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, argv(command), {
      stdio: ['ignore', 'pipe', 'pipe'],
      // The children are the ones to show colours, as they would on this terminal.
      env: process.stdout.isTTY ? { FORCE_COLOR: '1', ...process.env } : process.env,
    });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('error', (error) => chunks.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (status, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const verdict = status === 0 ? 'ok' : `failed (${signal ?? `exit ${status}`})`;
      process.stdout.write(Buffer.concat(chunks));
      console.log(`parallel: ${command}: ${verdict} in ${seconds} s`);
      resolve(status === 0);
    });
  });
}

const commands = process.argv.slice(2);
if (commands.length === 0) {
  console.error('parallel: no command given');
  process.exit(2);
}
// As many at a time as there are cores (at least two: a command waits on its disk too).
const slots = Math.max(2, availableParallelism());
const queue = [...commands];
let ok = true;
await Promise.all(
  Array.from({ length: Math.min(slots, queue.length) }, async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift())
      ok = (await run(next)) && ok;
  }),
);
process.exit(ok ? 0 : 1);
