#!/usr/bin/env node
// `npm run demo`: the app in demo mode on the embedded demo sites (started in process, data in the
// app's data folder). Electron when its binary is here; otherwise one line saying so, and the same
// core and renderer in the browser host, whose URL is printed and opened.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureBrowserHost } from './browser-host-build.mjs';
import { electronBinary } from './electron-binary.mjs';
import { electronBindingOr, electronEnv } from './electron-native.mjs';
import { binEntry } from './node-tools.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const extra = process.argv.slice(2);
// The binary is looked for on disk only: nothing is downloaded here, so a machine that cannot reach
// GitHub (where Electron's installer fetches it) starts the browser version at once instead of
// waiting on a download.
const binary = electronBinary();
const NOT_INSTALLED =
  'Electron is not installed on this machine (get it with `node node_modules/electron/install.js`, which downloads it from GitHub)';

function run(command, args, env = process.env) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
}

// Electron loads its own build of better-sqlite3 (node_modules keeps Node's for the tests): see
// electron-native.mjs.
const binding = binary ? await electronBindingOr('opening the browser version instead') : null;

if (binary && binding) {
  const built = spawnSync(process.execPath, [binEntry('electron-vite'), 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
  // --demo: the app starts the demo sites and lists them; "Sign in" opens the system browser.
  run(binary, ['.', '--demo', ...extra], electronEnv(binding));
} else {
  // Without a binding electronBindingOr has already said why, in one line.
  if (!binary) console.log(`${NOT_INSTALLED}; opening the browser version instead.`);
  // The browser host's bundle (browser-host-build.mjs; built when missing or older than its
  // sources), run by this Node: no transpiling at start. The CLI builds the pages on first run,
  // prints the launch URL and opens the default browser when there is one.
  run(process.execPath, [await ensureBrowserHost(), '--demo', ...extra]);
}
