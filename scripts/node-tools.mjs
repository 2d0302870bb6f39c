// The npm tools the scripts run, as JS entry points for this same Node
// (`process.execPath entry.js ...`).
//
// `npx` and `npm` are shell scripts (npx.cmd and npm.cmd on Windows): spawned without a shell they
// fail there with ENOENT, or EINVAL since Node 20.12 refuses .cmd files without one
// (CVE-2024-27980). A package's `bin` file and npm's own npm-cli.js run anywhere Node does.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The JS file behind package `pkg`'s command `command` (its package.json `bin`). */
export function binEntry(pkg, command = pkg) {
  const manifest = require.resolve(`${pkg}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8'));
  const file = typeof bin === 'string' ? bin : bin?.[command];
  if (!file) throw new Error(`${pkg} has no command ${command}`);
  return join(dirname(manifest), file);
}

/**
 * npm's CLI script: the one running us under `npm run` (npm_execpath), else the copy installed
 * beside this Node (<prefix>/node_modules/npm on Windows, <prefix>/lib/node_modules/npm elsewhere).
 */
export function npmCli() {
  const candidates = [
    process.env.npm_execpath,
    join(dirname(process.execPath), 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
  ];
  const found = candidates.find((c) => c && /npm-cli\.js$/.test(c) && existsSync(c));
  if (!found) throw new Error('npm-cli.js was not found beside this Node');
  return found;
}
