// The browser host as `npm run demo` starts it: one bundle of electron/browser-host/cli.ts (and its
// worker threads:
// the database writer, the download transfers) built with esbuild into out/browser-host/, run by
// plain Node. Through tsx, a start spent ~600 ms transpiling some 160 files, and the writer's
// thread started tsx a second time; bundled, Node loads a few files. The embedded server (demo
// sites only) is its own chunk, loaded when a demo site starts.
import { cpSync, existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const BROWSER_HOST_DIR = join(root, 'out', 'browser-host');
/**
 * The bundle's entry point: `node out/browser-host/cli.js [--demo] ...` (the options of
 * electron/browser-host/cli.ts).
 */
export const BROWSER_HOST_ENTRY = join(BROWSER_HOST_DIR, 'cli.js');

/** The sources the bundle is made of (a change in any rebuilds it). */
const SOURCES = ['electron', 'embedded-server', 'package.json', 'scripts/browser-host-build.mjs'];

/**
 * Files the embedded server reads beside its module at run time
 * (`new URL('./migrations/', import.meta.url)`).
 */
const ASSETS = [
  {
    reader: 'embedded-server/store/db.ts',
    from: 'embedded-server/store/migrations',
    to: 'migrations',
  },
  {
    reader: 'embedded-server/member-api/schema.ts',
    from: 'embedded-server/member-api/schema',
    to: 'schema',
  },
];

/**
 * zod's namespace (`z.locales`) re-exports all of its 64 message languages, so a bundler keeps them
 * all: ~340 kB of the start's JavaScript that Node compiles at every launch. The app uses zod's
 * English messages only (zod's default; the app's own texts say what failed), so the bundle gets
 * `en` alone.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer)
        ? {
            path: join(dirname(args.importer), '..', 'locales', 'en.js'),
            namespace: 'zod-english-only',
          }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: dirname(args.path),
    }));
  },
};

function newest(path) {
  const full = join(root, path);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(full, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

export function browserHostIsFresh() {
  return (
    existsSync(BROWSER_HOST_ENTRY) &&
    statSync(BROWSER_HOST_ENTRY).mtimeMs >= Math.max(...SOURCES.map(newest))
  );
}

export async function buildBrowserHost() {
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: root,
    entryPoints: {
      cli: 'electron/browser-host/cli.ts',
      'db-writer': 'electron/core/worker/writer-worker.ts',
      'file-transfer': 'electron/core/downloads/transfer-worker.ts',
    },
    outdir: BROWSER_HOST_DIR,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: 'chunks/[name]-[hash]',
    // better-sqlite3 loads its native addon; vite builds the pages when they are missing (cli.ts),
    // from node_modules.
    external: ['better-sqlite3', 'vite', 'electron'],
    // CommonJS packages bundled into ESM call require() for Node's built-ins.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    define: { 'process.env.NODE_ENV': '"production"' },
    minifySyntax: true,
    metafile: true,
    logLevel: 'warning',
    plugins: [zodEnglishOnly],
  });
  for (const { reader, from, to } of ASSETS) {
    const dirs = new Set();
    for (const [file, output] of Object.entries(result.metafile.outputs)) {
      if (Object.keys(output.inputs).some((input) => input.split(sep).join('/') === reader))
        dirs.add(dirname(join(root, file)));
    }
    for (const dir of dirs) cpSync(join(root, from), join(dir, to), { recursive: true });
  }
  return result.metafile;
}

/** Builds the bundle unless it is fresh; returns its entry point. */
export async function ensureBrowserHost() {
  if (!browserHostIsFresh()) await buildBrowserHost();
  return BROWSER_HOST_ENTRY;
}

if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === '') {
  await buildBrowserHost();
  console.log(`Built ${relative(root, BROWSER_HOST_ENTRY)}`);
}
