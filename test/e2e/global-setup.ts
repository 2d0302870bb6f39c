import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'vite';
import { electronBinary, packagedExecutable, SQLITE_BINDING_ENV } from './electron/env';
import { rendererConfig } from '../../renderer/vite.config';

// The browser host serves the built renderer, exactly what ships; build it once per run. Where an Electron
// binary exists, build the whole app (main, preload, renderer) and better-sqlite3 for that Electron, so the
// Electron host tests run instead of skipping. Against a packaged build (LEARNING_DESKTOP_ELECTRON_EXECUTABLE) the
// app is already built; only the browser host's renderer is.
export default async function globalSetup(): Promise<void> {
  if (packagedExecutable() === null && electronBinary() !== null) {
    const result = spawnSync(
      process.execPath,
      [
        join(
          dirname(createRequire(import.meta.url).resolve('electron-vite/package.json')),
          'bin',
          'electron-vite.js',
        ),
        'build',
      ],
      { stdio: 'inherit' },
    );
    if (result.status !== 0)
      throw new Error(
        'electron-vite build failed; the Electron host tests need out/main and out/preload.',
      );
    // Node's build stays in node_modules for the browser-host tests; Electron gets its own copy (see the script).
    const native = spawnSync(process.execPath, ['scripts/electron-native.mjs'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const path = native.stdout.trim().split('\n').pop();
    // Workers (and the Electron processes they launch) inherit this environment.
    if (native.status === 0 && path) process.env[SQLITE_BINDING_ENV] = path;
    return;
  }
  await build({ ...rendererConfig, logLevel: 'warn' });
}
