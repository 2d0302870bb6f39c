import { spawnSync } from 'node:child_process';
import { build } from 'vite';
import { electronBinary, packagedExecutable, SQLITE_BINDING_ENV } from './electron/env';
import { rendererConfig } from '../../renderer/vite.config';
import { builtAppIsFresh, ensureBuiltApp } from '../helpers/built-app';

// The browser host serves the built renderer, exactly what ships; build it once per run. Where an
// Electron binary exists, build the whole app (main, preload, renderer) and better-sqlite3 for that
// Electron, so the Electron host tests run instead of skipping. Against a packaged build
// (LEARNING_DESKTOP_ELECTRON_EXECUTABLE) the app is already built; only the browser host's renderer
// is. A build of the whole app that is newer than its sources (made by the unit tests of the built
// app, which `npm test` runs first) is used as it is.
export default async function globalSetup(): Promise<void> {
  if (packagedExecutable() === null && electronBinary() !== null) {
    const failure = ensureBuiltApp();
    if (failure !== null)
      throw new Error(`the Electron host tests need out/main and out/preload: ${failure}`);
    // Node's build stays in node_modules for the browser-host tests; Electron gets its own copy
    // (see the script).
    const native = spawnSync(process.execPath, ['scripts/electron-native.mjs'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const path = native.stdout.trim().split('\n').pop();
    // Workers (and the Electron processes they launch) inherit this environment.
    if (native.status === 0 && path) process.env[SQLITE_BINDING_ENV] = path;
    return;
  }
  if (builtAppIsFresh()) return;
  await build({ ...rendererConfig, logLevel: 'warn' });
}
