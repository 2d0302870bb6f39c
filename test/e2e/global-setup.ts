import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'vite';
import { rendererConfig } from '../../renderer/vite.config';

/** The Electron binary's path, or null where it was never downloaded (its install script is denied). */
function electronBinary(): string | null {
  try {
    const path = createRequire(import.meta.url)('electron') as unknown;
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

// The browser host serves the built renderer, exactly what ships; build it once per run. Where an Electron
// binary exists, build the whole app (main, preload, renderer) so the Electron host tests run instead of skipping.
export default async function globalSetup(): Promise<void> {
  if (electronBinary() !== null) {
    const result = spawnSync(process.execPath, [join(dirname(createRequire(import.meta.url).resolve('electron-vite/package.json')), 'bin', 'electron-vite.js'), 'build'], { stdio: 'inherit' });
    if (result.status !== 0) throw new Error('electron-vite build failed; the Electron host tests need out/main and out/preload.');
    return;
  }
  await build({ ...rendererConfig, logLevel: 'warn' });
}
