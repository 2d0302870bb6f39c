#!/usr/bin/env node
// better-sqlite3 for Electron, beside Node's own build.
//
// `npm ci` compiles better-sqlite3 for Node: the tests, the browser host and `npm run server` load
// it. Electron embeds another Node with another ABI (NODE_MODULE_VERSION), so the same .node file
// cannot load in both, and rebuilding it in place for Electron would break every Node test of the
// checkout. This builds a second copy of the addon, for the installed Electron, into
// node_modules/.cache/learning-desktop/. The launchers (`npm run dev`, `npm run demo`, the Electron
// tests) hand its path to the app in LEARNING_DESKTOP_SQLITE_BINDING, and the app opens its
// databases with better-sqlite3's `nativeBinding` option. A packaged app needs none of this:
// electron-builder compiles its own copy for the Electron it ships.
//
// Building needs Electron's headers (downloaded from electronjs.org by @electron/rebuild) or a
// prebuilt better-sqlite3 for this Electron (from GitHub): a machine that can fetch Electron itself
// can fetch these.
//
// CLI: `node scripts/electron-native.mjs` prints the path of the built addon (building it the first
// time).
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const ENV = 'LEARNING_DESKTOP_SQLITE_BINDING';

/**
 * The installed electron package's version (its binary is that release), or null without the
 * package.
 */
export function electronVersion() {
  try {
    return JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

/** Where the addon for this Electron release, platform and architecture is kept. */
export function electronSqliteBindingPath(version) {
  return join(
    root,
    'node_modules',
    '.cache',
    'learning-desktop',
    `better_sqlite3-electron-${version}-${process.platform}-${process.arch}.node`,
  );
}

/**
 * The path of better-sqlite3's addon built for Electron `version`; builds it on first use (about a
 * minute) in a scratch copy of the package, so node_modules/better-sqlite3 keeps Node's build.
 * Throws when it cannot be built.
 */
export async function ensureElectronSqliteBinding(
  version,
  { log = (line) => console.log(line) } = {},
) {
  const target = electronSqliteBindingPath(version);
  if (existsSync(target)) return target;
  const pkgDir = dirname(require.resolve('better-sqlite3/package.json'));
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const scratch = mkdtempSync(join(tmpdir(), 'ld-electron-native-'));
  try {
    log(
      `Building better-sqlite3 ${pkg.version} for Electron ${version} (once; kept in node_modules/.cache).`,
    );
    const copy = join(scratch, 'node_modules', 'better-sqlite3');
    // Sources only: Node's compiled build/ stays behind, so nothing of it is mistaken for
    // Electron's.
    const nodeBuild = join(pkgDir, 'build');
    cpSync(pkgDir, copy, {
      recursive: true,
      filter: (src) => src !== nodeBuild && !src.startsWith(nodeBuild + sep),
    });
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({
        name: 'ld-electron-native',
        version: '0.0.0',
        private: true,
        dependencies: { 'better-sqlite3': pkg.version },
      }),
    );
    const { rebuild } = await import('@electron/rebuild');
    await rebuild({
      buildPath: scratch,
      electronVersion: version,
      onlyModules: ['better-sqlite3'],
      force: true,
      mode: 'sequential',
    });
    const built = join(copy, 'build', 'Release', 'better_sqlite3.node');
    if (!existsSync(built)) throw new Error(`the build left no ${built}`);
    mkdirSync(dirname(target), { recursive: true });
    // Copied under a temporary name first: an interrupted copy never passes for a finished one.
    copyFileSync(built, `${target}.part`);
    renameSync(`${target}.part`, target);
    return target;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * For the launchers: the addon for the installed Electron, or null after one line saying why it
 * could not be built and that the launcher does `instead` (e.g. "opening the browser version
 * instead").
 */
export async function electronBindingOr(instead) {
  try {
    return await ensureElectronSqliteBinding(electronVersion());
  } catch (error) {
    console.log(
      `better-sqlite3 could not be built for Electron (${error instanceof Error ? error.message : String(error)}); ${instead}.`,
    );
    return null;
  }
}

/**
 * The environment for an Electron process of this checkout: the addon's path in
 * LEARNING_DESKTOP_SQLITE_BINDING.
 */
export function electronEnv(bindingPath, env = process.env) {
  return { ...env, [ENV]: bindingPath };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const version = electronVersion();
  if (!version) {
    console.error('The electron package is not installed: run `npm ci` first.');
    process.exit(1);
  }
  try {
    console.log(await ensureElectronSqliteBinding(version, { log: (line) => console.error(line) }));
  } catch (error) {
    console.error(
      `better-sqlite3 could not be built for Electron ${version}: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  }
}
