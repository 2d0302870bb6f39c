import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative, sep } from 'node:path';
import { extractAll, extractFile, listPackage, statFile } from '@electron/asar';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ensureBuiltApp, OUT } from '../helpers/built-app';
import { driveBundle } from '../helpers/electron-stand-in';
import { packageApp } from '../helpers/package-app';

/**
 * The package a student installs, made here by electron-builder with build/electron-builder.yml,
 * from a stand-in Electron distribution (test/helpers/package-app.ts: nothing is downloaded, the
 * fuses are flipped as in a release).
 *
 * Then app.asar is listed and checked, and booted: extracted (with app.asar.unpacked) and run under
 * the stand-in `electron` module in demo mode, so every file the main bundle, the database worker
 * and the embedded demo server read at run time must be in the package, resolved from the package's
 * own node_modules.
 *
 * Built as Linux `--dir` on every system: the archive's content does not depend on the target, and
 * a Linux distribution is a plain folder (a macOS one is a signed bundle a stand-in cannot
 * imitate).
 */
const buildError = ensureBuiltApp();

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const config = parse(readFileSync('build/electron-builder.yml', 'utf8')) as {
  electronFuses: Record<string, boolean>;
  linux: { executableName: string };
};

let work: string;
let appDir: string;
let asarPath: string;
let listing: string[] = [];
let builder: { status: number | null; output: string } = { status: null, output: '' };

beforeAll(() => {
  if (buildError) return;
  work = mkdtempSync(join(tmpdir(), 'ld-package-'));
  const made = packageApp(work, 'release', ['--linux', '--dir']);
  builder = made;
  appDir = join(made.releaseDir, 'linux-unpacked');
  asarPath = join(appDir, 'resources', 'app.asar');
  if (existsSync(asarPath))
    listing = listPackage(asarPath, { isPack: false }).map((p) => p.split(sep).join('/'));
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/**
 * Package folder names under `node_modules/` at any depth of the archive (`a`, `@scope/b`,
 * `a/node_modules/c`).
 */
function shippedPackages(): Set<string> {
  const found = new Set<string>();
  for (const p of listing) {
    const m = /^\/((?:node_modules\/(?:@[^/]+\/)?[^/]+\/)+)package\.json$/.exec(p);
    if (m) found.add(m[1]!.slice(0, -1));
  }
  return found;
}
const nameOf = (folder: string) =>
  folder.slice(folder.lastIndexOf('node_modules/') + 'node_modules/'.length);

/**
 * The production closure: `dependencies` and their dependencies (optional ones included), from the
 * installed tree.
 */
function productionClosure(): Set<string> {
  const seen = new Set<string>();
  const visit = (name: string, from: string) => {
    // Node's resolution: the nearest node_modules up from the requiring package.
    let dir = from;
    for (;;) {
      const candidate = join(dir, 'node_modules', name, 'package.json');
      if (existsSync(candidate)) {
        if (seen.has(`${name}@${candidate}`)) return;
        seen.add(`${name}@${candidate}`);
        const manifest = JSON.parse(readFileSync(candidate, 'utf8')) as {
          dependencies?: Record<string, string>;
          optionalDependencies?: Record<string, string>;
        };
        for (const dep of Object.keys({
          ...manifest.dependencies,
          ...manifest.optionalDependencies,
        }))
          visit(dep, dirname(candidate));
        return;
      }
      const parent = dirname(dir);
      if (parent === dir) return;
      dir = parent;
    }
  };
  for (const name of Object.keys(pkg.dependencies)) visit(name, process.cwd());
  return new Set([...seen].map((s) => s.slice(0, s.indexOf('@', 1))));
}

describe('the package electron-builder makes (stand-in Electron, no download)', () => {
  it('is made', () => {
    expect(buildError).toBeNull();
    expect(builder.status, builder.output.slice(-3000)).toBe(0);
    expect(existsSync(asarPath)).toBe(true);
  });

  it('holds the Electron bundles of out/ (main, database worker, preload, renderer, the demo server’s SQL and schema), no source or map', () => {
    // The three Electron bundles; the browser host, which other tests build into out/ too, is not
    // the app's.
    const expected = ['main', 'preload', 'renderer']
      .flatMap((dir) => readdirSync(join(OUT, dir), { withFileTypes: true, recursive: true }))
      .filter((e) => e.isFile() && !e.name.endsWith('.map'))
      .map((e) => '/' + relative(process.cwd(), join(e.parentPath, e.name)).split(sep).join('/'));
    expect(expected).toEqual(
      expect.arrayContaining([
        '/out/main/index.js',
        '/out/preload/index.cjs',
        '/out/renderer/index.html',
      ]),
    );
    expect(expected.some((f) => /^\/out\/main\/db-writer\.c?js$/.test(f))).toBe(true);
    // Beside whichever output file reads them (scripts/embedded-server-assets.ts): the bundle or a
    // chunk below it.
    expect(expected.some((f) => /^\/out\/main\/(?:[^/]+\/)?migrations\/[^/]+\.sql$/.test(f))).toBe(
      true,
    );
    expect(expected.some((f) => /^\/out\/main\/(?:[^/]+\/)?schema\/[^/]+\.graphql$/.test(f))).toBe(
      true,
    );
    expect(listing).toEqual(expect.arrayContaining(expected));
    expect(
      listing.filter(
        (p) => p.startsWith('/out/') && !/^\/out\/(?:main|preload|renderer)(?:\/|$)/.test(p),
      ),
    ).toEqual([]);
    const own = listing.filter((p) => !p.startsWith('/node_modules/'));
    expect(
      own.filter(
        (p) =>
          /^\/(?:electron|renderer|embedded-server|test|scripts|build)\//.test(p) ||
          p.endsWith('.map') ||
          p.endsWith('.ts'),
      ),
    ).toEqual([]);
    const manifest = JSON.parse(extractFile(asarPath, 'package.json').toString('utf8')) as {
      main: string;
      desktopName: string;
    };
    expect(listing).toContain(`/${posix.normalize(manifest.main)}`);
    expect(manifest.desktopName).toBe(`${config.linux.executableName}.desktop`);
  });

  it('ships every production dependency the bundle needs and nothing from devDependencies', () => {
    const shipped = shippedPackages();
    const closure = productionClosure();
    const shippedNames = new Set([...shipped].map(nameOf));
    for (const dep of Object.keys(pkg.dependencies))
      expect(shipped.has(`node_modules/${dep}`), dep).toBe(true);
    expect([...shippedNames].filter((n) => !closure.has(n))).toEqual([]);
    const devOnly = Object.keys(pkg.devDependencies).filter((d) => !closure.has(d));
    expect(devOnly).toContain('electron');
    expect(devOnly.filter((d) => shippedNames.has(d))).toEqual([]);
  });

  // The budget is a release build's: `npm run coverage:electron-main` builds with source maps,
  // which weigh more.
  it.skipIf(existsSync(join(OUT, 'main', 'index.js.map')))(
    'stays small: app.asar at most 15 MB, unpacked at most 5 MB (only code that runs ships)',
    () => {
      const size = (path: string): number =>
        statSync(path).isDirectory()
          ? readdirSync(path).reduce((sum, name) => sum + size(join(path, name)), 0)
          : statSync(path).size;
      const MB = 1_000_000;
      expect(statSync(asarPath).size / MB).toBeLessThanOrEqual(15);
      expect(size(`${asarPath}.unpacked`) / MB).toBeLessThanOrEqual(5);
      // What the renderer bundle already holds, TypeScript sources, SQLite's C sources: none of it
      // is in the package.
      for (const gone of [
        '/node_modules/react-dom/package.json',
        '/node_modules/lucide-react/package.json',
        '/node_modules/gql.tada/package.json',
      ]) {
        expect(listing).not.toContain(gone);
      }
      expect(listing.filter((p) => /\.(?:d\.)?[mc]?ts$/.test(p))).toEqual([]);
      expect(
        listing.filter(
          (p) => p.includes('/better-sqlite3/deps/') || p.includes('/better-sqlite3/src/'),
        ),
      ).toEqual([]);
    },
  );

  it('keeps native addons out of the archive, unpacked beside it', () => {
    const natives = listing.filter((p) => p.endsWith('.node'));
    expect(natives).toContain('/node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    for (const n of natives) {
      expect((statFile(asarPath, n.slice(1)) as { unpacked?: boolean }).unpacked, n).toBe(true);
      expect(existsSync(join(`${asarPath}.unpacked`, n))).toBe(true);
    }
  });

  it('flips the release fuses in the executable and puts the tray icon beside the archive', async () => {
    const wire = await getCurrentFuseWire(join(appDir, config.linux.executableName));
    for (const [fuse, value] of Object.entries(config.electronFuses)) {
      if (fuse === 'resetAdHocDarwinSignature') continue;
      const option =
        FuseV1Options[(fuse[0]!.toUpperCase() + fuse.slice(1)) as keyof typeof FuseV1Options];
      expect(String.fromCharCode(wire[option] as number), fuse).toBe(value ? '1' : '0');
    }
    expect(existsSync(join(appDir, 'resources', 'tray.png'))).toBe(true);
  });

  it('boots from its own files: extracted, the main bundle starts the demo with the database worker and the embedded server', () => {
    const extracted = join(work, 'extracted');
    extractAll(asarPath, extracted);
    cpSync(`${asarPath}.unpacked`, extracted, { recursive: true });
    const dir = join(work, 'stand-in');
    mkdirSync(dir);
    const { run, lines } = driveBundle(
      dir,
      join(extracted, 'out', 'main', 'index.js'),
      join(work, 'userData'),
    );
    expect(run.status, run.stderr.slice(0, 2000)).toBe(0);
    const of = (kind: string) => lines.filter((l) => l.kind === kind).map((l) => l.data);
    expect((of('sites')[0] as unknown[]).length).toBe(2);
    expect(of('demo-discovery')).toEqual([200]);
    expect(of('app-index')[0]).toMatchObject({ status: 200 });
    expect(of('closed')).toEqual([{ prevented: true }]);
  }, 120_000);
});
