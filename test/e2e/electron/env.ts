import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Whether the Electron host tests can run here, and if not, the one line that says why. Electron's binary comes
 * from GitHub (unreachable on some machines); better-sqlite3 is compiled by `npm ci` for Node's ABI, which
 * Electron's differs from, and rebuilding it for Electron would break the Node tests of the same checkout.
 */
export function electronBinary(): string | null {
  try {
    const path = createRequire(import.meta.url)('electron') as unknown;
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

/** Loads better-sqlite3 inside Electron (as Node) and opens a database: true when the native module fits. */
export function nativeModulesFitElectron(binary: string): boolean {
  const probe = spawnSync(binary, ['-e', "require('better-sqlite3')(':memory:').close()"], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    stdio: 'ignore',
    timeout: 30_000,
  });
  return probe.status === 0;
}

let cached: string | null | undefined;
/** null when the Electron tests can run; else why they are skipped. */
export function electronSkipReason(): string | null {
  if (cached !== undefined) return cached;
  const binary = electronBinary();
  if (binary === null) cached = 'SKIPPED: no Electron binary on this machine (its download comes from GitHub, which is unreachable here).';
  else if (!(existsSync('out/main/index.js') && existsSync('out/preload/index.cjs') && existsSync('out/main/migrations'))) cached = 'SKIPPED: run `npx electron-vite build` first (out/main, out/preload).';
  else if (!nativeModulesFitElectron(binary))
    cached = 'SKIPPED: better-sqlite3 is built for Node, not for this Electron; run `npx electron-builder install-app-deps` to test the Electron host (and `npm rebuild better-sqlite3` before the Node tests again).';
  else cached = null;
  if (cached !== null) console.log(`Electron host tests ${cached}`);
  return cached;
}
