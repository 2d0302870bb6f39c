#!/usr/bin/env node
// `npm run package`: build, then electron-builder with build/electron-builder.yml. electron-builder downloads
// Electron's release archives from GitHub, so packaging needs a machine that can reach it.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const config = 'build/electron-builder.yml';
if (!existsSync(config)) {
  console.error(`Packaging is not set up yet: ${config} is missing.`);
  process.exit(1);
}
const step = (args) => {
  const r = spawnSync('npx', args, { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`\`npx ${args.join(' ')}\` failed. Packaging downloads Electron from GitHub; it cannot work where GitHub is unreachable.`);
    process.exit(r.status ?? 1);
  }
};
step(['electron-vite', 'build']);
// electron-builder rebuilds better-sqlite3 in node_modules for the Electron it ships; Node's build is put back
// afterwards (whatever the outcome) so the tests and the browser host still load it.
const packaged = spawnSync('npx', ['electron-builder', '--config', config, ...process.argv.slice(2)], { stdio: 'inherit' });
const restored = spawnSync('npm', ['rebuild', 'better-sqlite3'], { stdio: 'inherit' });
if (restored.status !== 0) console.error('`npm rebuild better-sqlite3` failed: run it before the tests, which need the build for Node.');
if (packaged.status !== 0) {
  console.error('`npx electron-builder` failed. Packaging downloads Electron from GitHub; it cannot work where GitHub is unreachable.');
  process.exit(packaged.status ?? 1);
}
