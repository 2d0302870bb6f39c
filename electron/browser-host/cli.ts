/**
 * `tsx electron/browser-host/cli.ts [--port N] [--data-dir DIR] [--demo] [--no-open]`
 *
 * Runs the app in plain Node and serves it to a browser: builds the renderer when `out/renderer` is
 * missing, starts the browser host over a real core (tokens encrypted with the Node key-file
 * cipher, settings in a JSON file), prints a launch link on one line and opens the default browser
 * when there is one. Used by `npm run demo` where no Electron binary can be had.
 *
 * A launch link opens the app once (sessions.ts). The browser is never handed one on its command
 * line, which every account on the computer can read (/proc/<pid>/cmdline, `ps`): it gets the path
 * of a page only the student can read, which forwards to the link (the way Jupyter opens its
 * browser). Enter in the terminal prints a new link.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, describeUnexpected, installCrashGuards } from '../core/log';
import type { DataDirLock } from '../core/data-dir-lock';
import { acquireDataDirLock, DataDirInUseError } from '../core/data-dir-lock';
import { readFirstScreen } from '../core/desktop/first-screen';
import { LAUNCH_TOKEN_LIFETIME_MS } from './sessions';
import { startBrowserHost } from './server';

export interface CliOptions {
  readonly port: number;
  readonly dataDir: string;
  readonly demo: boolean;
  readonly open: boolean;
}

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export function parseArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): CliOptions {
  let port = 0;
  let dataDir = env.LEARNING_DESKTOP_DATA_DIR ?? defaultDataDir(env);
  let demo = false;
  let open = true;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new Error(`${name} needs a value.`);
      return v;
    };
    switch (name) {
      case '--port': {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 0 || n > 65535)
          throw new Error('--port must be a number from 0 to 65535.');
        port = n;
        break;
      }
      case '--data-dir':
        dataDir = resolve(value());
        break;
      case '--demo':
        demo = true;
        break;
      case '--no-open':
        open = false;
        break;
      case '--help':
      case '-h':
        throw new Error(
          'usage: tsx electron/browser-host/cli.ts [--port N] [--data-dir DIR] [--demo] [--no-open]',
        );
      default:
        throw new Error(`Unknown option ${arg}.`);
    }
  }
  return { port, dataDir, demo, open };
}

/**
 * Kept apart from the Electron app's userData so the two hosts never share a vault key or a
 * database.
 */
function defaultDataDir(env: NodeJS.ProcessEnv): string {
  const name = 'Learning Desktop (browser)';
  if (process.platform === 'win32')
    return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), name);
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', name);
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), name);
}

/** The newest modification time of the files under `dir` (0 when it does not exist). */
function newestMtime(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * Builds the pages when they are missing or older than their sources (renderer/ and the contract in
 * electron/common), so a checkout updated with `git pull` never serves yesterday's pages.
 */
async function ensureRendererBuilt(
  rendererDir: string,
  log: (line: string) => void,
): Promise<void> {
  const index = join(rendererDir, 'index.html');
  if (existsSync(index)) {
    const sources = Math.max(
      newestMtime(join(repoRoot, 'renderer')),
      newestMtime(join(repoRoot, 'electron', 'common')),
    );
    if (statSync(index).mtimeMs >= sources) return;
    log('Rebuilding the app’s pages (their sources changed)…');
  } else {
    log('Building the app’s pages (first run only)…');
  }
  // Vite loads its TypeScript config itself: the same under tsx and from the bundle
  // (scripts/browser-host-build.mjs).
  const { build } = await import('vite');
  await build({ configFile: join(repoRoot, 'renderer', 'vite.config.ts'), logLevel: 'warn' });
}

/**
 * The page the browser is opened at: it forwards to `launchUrl` at once. Written 0600 into the data
 * folder (0700), so another account can neither read the link in it nor swap the page; removed once
 * the link has expired.
 */
export function writeOpenerPage(dataDir: string, launchUrl: string): string {
  const file = join(dataDir, `open-${process.pid}.html`);
  const href = launchUrl.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  rmSync(file, { force: true });
  writeFileSync(
    file,
    `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer"><meta http-equiv="refresh" content="0;url=${href}">` +
      `<title>Learning Desktop</title><p><a href="${href}">Open Learning Desktop</a></p>\n`,
    { mode: 0o600, flag: 'wx' },
  );
  setTimeout(() => rmSync(file, { force: true }), LAUNCH_TOKEN_LIFETIME_MS).unref();
  return file;
}

/**
 * Opens `target` (a file) in the default browser if the machine has one; a headless machine keeps
 * the printed link.
 */
export function openDefaultBrowser(target: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [target]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', target]]
        : ['xdg-open', [target]];
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.on('error', () => {});
    child.unref();
  } catch {
    // No opener: the URL is printed.
  }
}

export async function main(argv: readonly string[]): Promise<void> {
  // Node's default crash output prints messages, stacks and causes, any of which may quote a token.
  installCrashGuards(process, (line) => console.error(line));
  let options: CliOptions;
  try {
    options = parseArgs(argv);
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 2;
    return;
  }
  const say = (line: string) => console.log(line);
  const logger = createLogger((line, entry) => {
    if (entry.level === 'warn' || entry.level === 'error' || process.env.LEARNING_DESKTOP_DEBUG)
      console.error(line);
  });
  // One process per data folder: checked first, so a second launch says in one line which
  // process holds the folder instead of building pages and then failing.
  let lock: DataDirLock;
  try {
    lock = await acquireDataDirLock(options.dataDir, { host: 'browser host' });
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    console.error(error.message);
    process.exitCode = 3;
    return;
  }
  const rendererDir = join(repoRoot, 'out', 'renderer');
  await ensureRendererBuilt(rendererDir, say);

  const version = (
    JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }
  ).version;
  const host = await startBrowserHost({
    rendererDir,
    port: options.port,
    // The last session's Today, painted before the core opens.
    firstScreen: readFirstScreen(options.dataDir),
    logger: (line) => logger.warn(line),
    createCore: async ({ openExternal, deliverFile }) => {
      // The core's modules (most of the host's JavaScript) load once the host listens: the browser
      // opens the page and fetches its files meanwhile, instead of waiting for Node to compile them
      // first.
      const [{ createAppCore }, { createNodeCipher }, { createJsonSettingsStore }] =
        await Promise.all([
          import('../core/app-core'),
          import('../core/vault/cipher'),
          import('../core/settings/settings-store'),
        ]);
      const core = await createAppCore({
        deliverFile,
        dataDir: options.dataDir,
        version,
        host: 'browser',
        openExternal,
        cipher: await createNodeCipher(join(options.dataDir, 'vault.key')),
        settingsStore: createJsonSettingsStore(join(options.dataDir, 'settings.json')),
        dataDirLock: lock,
        logger,
        demo: { enabled: true },
      });
      if (options.demo) {
        // Adds (or restarts) the demo sites before the page's first call is answered, so it opens
        // on them; signing in is one click from there.
        const added = await core.handlers['sites:add-demo'](undefined);
        if (!added.ok) say(`The demo site could not be started: ${added.error.message}`);
      }
      return core;
    },
    // The page opens while the core opens: it loads its files meanwhile, and its first call waits
    // for the core.
    onListening: (launchUrl) => {
      // Two links: the browser's, and the one printed for the student, each good for one page.
      if (options.open) openDefaultBrowser(writeOpenerPage(options.dataDir, launchUrl()));
      say(`Learning Desktop is running at ${launchUrl()}`);
      say(
        `That link opens the app once, within ${LAUNCH_TOKEN_LIFETIME_MS / 60_000} minutes. Press Enter for a new one.`,
      );
    },
  });
  // Enter prints a new link (stdin closed, as in a service, simply ends this).
  createInterface({ input: process.stdin }).on('line', () =>
    say(`A new link to open the app: ${host.launchUrl()}`),
  );

  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    rmSync(join(options.dataDir, `open-${process.pid}.html`), { force: true });
    void host.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    // The message could quote a secret (a site's answer); the class and code say what failed.
    console.error(`Learning Desktop could not start: ${describeUnexpected(error)}`);
    process.exit(1);
  });
}
