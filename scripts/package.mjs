#!/usr/bin/env node
// `npm run package`: build, then electron-builder with build/electron-builder.yml. electron-builder
// downloads Electron's release archives from GitHub unless `-c.electronDist=<folder>` names an
// Electron already unpacked, so packaging needs a machine that can reach it. The tools run as JS
// entry points of this Node (node-tools.mjs):
// no npx or npm spawn, which fails on Windows without a shell.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { binEntry, npmCli } from './node-tools.mjs';

const config = 'build/electron-builder.yml';
if (!existsSync(config)) {
  console.error(`Packaging is not set up yet: ${config} is missing.`);
  process.exit(1);
}
const args = process.argv.slice(2);
const node = (entry, toolArgs) =>
  spawnSync(process.execPath, [entry, ...toolArgs], { stdio: 'inherit' });
const GITHUB =
  'Packaging downloads Electron from GitHub; it cannot work where GitHub is unreachable (unless -c.electronDist names an unpacked Electron).';

const built = node(binEntry('electron-vite'), ['build']);
if (built.status !== 0) {
  console.error('`electron-vite build` failed.');
  process.exit(built.status ?? 1);
}
// electron-builder rebuilds better-sqlite3 in node_modules for the Electron it ships; Node's build
// is put back afterwards (whatever the outcome) so the tests and the browser host still load it.
// Not needed when the rebuild is turned off (-c.npmRebuild=false, as the asar test does).
const packaged = node(binEntry('electron-builder'), ['--config', config, ...args]);
if (!args.includes('-c.npmRebuild=false')) {
  const restored = node(npmCli(), ['rebuild', 'better-sqlite3']);
  if (restored.status !== 0)
    console.error(
      '`npm rebuild better-sqlite3` failed: run it before the tests, which need the build for Node.',
    );
}
if (packaged.status !== 0) {
  console.error(`electron-builder failed. ${GITHUB}`);
  process.exit(packaged.status ?? 1);
}
