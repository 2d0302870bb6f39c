import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Whether the Electron host tests can run here, and if not, the one line that says why. Electron's
 * binary comes from GitHub (unreachable on some machines); better-sqlite3 is compiled by `npm ci`
 * for Node's ABI, which Electron's differs from, so the app run by Electron loads a second build
 * made for it by scripts/electron-native.mjs (global-setup runs it and names the file in
 * SQLITE_BINDING_ENV).
 */

/**
 * The app's setting for better-sqlite3's addon when run from a checkout (read by electron/main).
 */
export const SQLITE_BINDING_ENV = 'LEARNING_DESKTOP_SQLITE_BINDING';

/**
 * A packaged app's executable (e.g. `release/linux-unpacked/learning-desktop`, from
 * `npm run package -- --dir`):
 * when set, the Electron specs run against that build instead of the checkout's `electron` +
 * out/main. CI sets it to the unpacked test build (.github/workflows/desktop.yml).
 */
export const PACKAGED_EXECUTABLE_ENV = 'LEARNING_DESKTOP_ELECTRON_EXECUTABLE';

/**
 * The packaged executable named by PACKAGED_EXECUTABLE_ENV, or null when the specs run from the
 * checkout.
 */
export function packagedExecutable(): string | null {
  return process.env[PACKAGED_EXECUTABLE_ENV] || null;
}

/**
 * What `_electron.launch` gets: the packaged app as is, or the checkout's Electron with
 * out/main/index.js. Each launch has its own profile (`--user-data-dir`), so specs never share
 * data.
 */
export function launchOptions(
  userDataDir: string,
  extraArgs: readonly string[] = [],
): { executablePath: string; args: string[] } {
  const packaged = packagedExecutable();
  if (packaged !== null)
    return { executablePath: packaged, args: [...extraArgs, `--user-data-dir=${userDataDir}`] };
  const binary = electronBinary();
  if (binary === null) throw new Error('no Electron binary: call electronSkipReason() first');
  return {
    executablePath: binary,
    args: ['out/main/index.js', ...extraArgs, `--user-data-dir=${userDataDir}`],
  };
}

export function electronBinary(): string | null {
  const packaged = packagedExecutable();
  if (packaged !== null) return existsSync(packaged) ? packaged : null;
  try {
    const path = createRequire(import.meta.url)('electron') as unknown;
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

/**
 * Loads better-sqlite3 inside Electron (as Node) with the addon built for it and opens a database:
 * true when it fits.
 */
export function nativeModulesFitElectron(binary: string, nativeBinding: string): boolean {
  const probe = spawnSync(
    binary,
    [
      '-e',
      `require('better-sqlite3')(':memory:', { nativeBinding: ${JSON.stringify(nativeBinding)} }).close()`,
    ],
    {
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: 'ignore',
      timeout: 30_000,
    },
  );
  return probe.status === 0;
}

let cached: string | null | undefined;
/** null when the Electron tests can run; else why they are skipped. */
export function electronSkipReason(): string | null {
  if (cached !== undefined) return cached;
  const packaged = packagedExecutable();
  if (packaged !== null) {
    // A packaged build carries its own better-sqlite3 and app.asar; its fuses refuse
    // ELECTRON_RUN_AS_NODE, so there is nothing to probe beyond the file itself.
    cached = existsSync(packaged)
      ? null
      : `SKIPPED: ${PACKAGED_EXECUTABLE_ENV} names ${packaged}, which does not exist.`;
    if (cached !== null) console.log(`Electron host tests ${cached}`);
    return cached;
  }
  const binary = electronBinary();
  const binding = process.env[SQLITE_BINDING_ENV];
  if (binary === null)
    cached =
      'SKIPPED: no Electron binary on this machine (its download comes from GitHub, which is unreachable here).';
  else if (!(
    existsSync('out/main/index.js') &&
    existsSync('out/preload/index.cjs') &&
    (existsSync('out/main/migrations') || existsSync('out/main/chunks/migrations'))
  ))
    cached = 'SKIPPED: run `npx electron-vite build` first (out/main, out/preload).';
  else if (!binding)
    cached =
      "SKIPPED: better-sqlite3 could not be built for this Electron (it needs Electron's headers from electronjs.org); run `node scripts/electron-native.mjs` to see why.";
  else if (!nativeModulesFitElectron(binary, binding))
    cached = `SKIPPED: this Electron cannot load ${binding}; delete it and run \`node scripts/electron-native.mjs\` to build it again.`;
  else cached = null;
  if (cached !== null) console.log(`Electron host tests ${cached}`);
  return cached;
}
