import { builtinModules } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInContext, createContext } from 'node:vm';
import { init, parse } from 'es-module-lexer';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_GLOBAL, CHANNELS, EVENT_NAMES } from '../../electron/common/ipc-contract';
import { ensureBuiltApp, OUT } from '../helpers/built-app';

/**
 * The built bundles as Electron loads them, without the Electron binary.
 *
 * The preload: a window with `sandbox: true` runs it in a renderer with no Node, through a wrapper
 * that hands it a `require` knowing only Electron's sandboxed set (Electron docs, "Process
 * Sandboxing": electron's renderer modules, events, timers, url; lib/sandboxed_renderer/init.ts
 * wraps the file in a function of require, process, Buffer, global, setImmediate, clearImmediate,
 * exports and module). Anything else it asks for throws there, before
 * contextBridge.exposeInMainWorld, and every screen fails.
 *
 * The main bundle: what it imports by bare name is resolved from app.asar's node_modules, where
 * electron-builder copies `dependencies` only.
 */
const buildError = ensureBuiltApp();

/**
 * Electron's sandboxed `require`: these names and nothing else (node: forms included, as Electron
 * 28+ accepts).
 */
const SANDBOXED_MODULES = [
  'electron',
  'electron/renderer',
  'electron/common',
  'events',
  'timers',
  'url',
];

interface Recorded {
  exposed: Map<string, unknown>;
  invoked: { channel: string; input: unknown }[];
  listeners: Map<string, Set<(...args: unknown[]) => void>>;
  asked: string[];
}

function loadPreloadSandboxed(): Recorded {
  const code = readFileSync(join(OUT, 'preload', 'index.cjs'), 'utf8');
  const recorded: Recorded = { exposed: new Map(), invoked: [], listeners: new Map(), asked: [] };
  const ipcRenderer = {
    invoke: (channel: string, input: unknown) => {
      recorded.invoked.push({ channel, input });
      return Promise.resolve({ ok: true, value: channel });
    },
    on: (event: string, listener: (...args: unknown[]) => void) => {
      let set = recorded.listeners.get(event);
      if (!set) recorded.listeners.set(event, (set = new Set()));
      set.add(listener);
    },
    removeListener: (event: string, listener: (...args: unknown[]) => void) =>
      recorded.listeners.get(event)?.delete(listener),
  };
  const contextBridge = {
    exposeInMainWorld: (key: string, value: unknown) => {
      if (recorded.exposed.has(key))
        throw new Error(
          `Cannot bind an API on top of an existing property on the window object: ${key}`,
        );
      recorded.exposed.set(key, value);
    },
  };
  const electron = { contextBridge, ipcRenderer };
  const sandboxedRequire = (name: string) => {
    recorded.asked.push(name);
    const bare = name.startsWith('node:') && name !== 'node:electron' ? name.slice(5) : name;
    if (!SANDBOXED_MODULES.includes(bare)) throw new Error(`module not found: ${name}`);
    return bare.startsWith('electron') ? electron : {};
  };
  // A fresh context: the renderer's isolated world has no Node globals (no require, module,
  // __dirname, process.versions.node).
  const context = createContext({ console });
  const wrapper = runInContext(
    `(function (require, process, Buffer, global, setImmediate, clearImmediate, exports, module) {${code}\n})`,
    context,
    {
      filename: 'preload/index.cjs',
    },
  ) as (...args: unknown[]) => void;
  const module = { exports: {} };
  wrapper(
    sandboxedRequire,
    { platform: process.platform, type: 'renderer', sandboxed: true },
    Buffer,
    context,
    setImmediate,
    clearImmediate,
    module.exports,
    module,
  );
  return recorded;
}

describe('the built preload, loaded as a sandboxed renderer loads it', () => {
  it('was built', () => {
    expect(buildError).toBeNull();
  });

  it('requires nothing outside Electron’s sandboxed set and exposes the bridge', () => {
    const recorded = loadPreloadSandboxed();
    expect(recorded.asked.every((name) => SANDBOXED_MODULES.includes(name))).toBe(true);
    expect([...recorded.exposed.keys()]).toEqual([API_GLOBAL]);
    const api = recorded.exposed.get(API_GLOBAL) as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on']);
  });

  it('passes every channel of the contract to ipcRenderer.invoke and refuses any other', async () => {
    const recorded = loadPreloadSandboxed();
    const api = recorded.exposed.get(API_GLOBAL) as {
      invoke: (channel: string, input?: unknown) => Promise<unknown>;
    };
    for (const channel of CHANNELS)
      await expect(api.invoke(channel, { probe: channel })).resolves.toEqual({
        ok: true,
        value: channel,
      });
    expect(recorded.invoked).toEqual(
      CHANNELS.map((channel) => ({ channel, input: { probe: channel } })),
    );
    await expect(api.invoke('fs:read-file', '/etc/passwd')).resolves.toMatchObject({
      ok: false,
      error: { code: 'invalid-input' },
    });
    expect(recorded.invoked).toHaveLength(CHANNELS.length);
  });

  it('subscribes to the contract’s events only, hands the page the payload without the IPC event, and unsubscribes', () => {
    const recorded = loadPreloadSandboxed();
    const api = recorded.exposed.get(API_GLOBAL) as {
      on: (event: string, listener: (payload: unknown) => void) => () => void;
    };
    const got: unknown[] = [];
    const off = api.on(EVENT_NAMES[0]!, (payload) => got.push(payload));
    const [listener] = [...recorded.listeners.get(EVENT_NAMES[0]!)!];
    listener!({ sender: 'the IPC event stays in the preload' }, { value: 1 });
    expect(got).toEqual([{ value: 1 }]);
    off();
    expect(recorded.listeners.get(EVENT_NAMES[0]!)!.size).toBe(0);
    api.on('ipc:raw', () => {});
    expect(recorded.listeners.has('ipc:raw')).toBe(false);
  });
});

/**
 * Every specifier the main bundle and its chunks load: static and dynamic imports, and require('x')
 * calls.
 */
async function mainBundleSpecifiers(): Promise<{ file: string; specifier: string }[]> {
  await init;
  const dir = join(OUT, 'main');
  const found: { file: string; specifier: string }[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    const file = join(entry.parentPath, entry.name);
    const code = readFileSync(file, 'utf8');
    const [imports] = parse(code);
    for (const i of imports) if (i.n !== undefined) found.push({ file, specifier: i.n });
    for (const m of code.matchAll(/\brequire\d*\(\s*["']([^"']+)["']\s*\)/g))
      found.push({ file, specifier: m[1]! });
  }
  return found;
}

const packageName = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

describe('the built main bundle', () => {
  let specifiers: { file: string; specifier: string }[] = [];
  beforeAll(async () => {
    specifiers = await mainBundleSpecifiers();
  });

  it('loads by bare name only production dependencies, electron and Node’s built-ins', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const builtins = new Set(builtinModules);
    const bare = specifiers.filter(
      ({ specifier }) =>
        !specifier.startsWith('.') &&
        !specifier.startsWith('/') &&
        !specifier.startsWith('node:') &&
        !builtins.has(specifier),
    );
    const outside = bare.filter(
      ({ specifier }) =>
        packageName(specifier) !== 'electron' && !(packageName(specifier) in pkg.dependencies),
    );
    expect(outside).toEqual([]);
    // Sanity: the scan sees what the bundle is known to load.
    expect(bare.map((s) => packageName(s.specifier))).toEqual(
      expect.arrayContaining([
        'better-sqlite3',
        'electron',
        'electron-store',
        'electron-updater',
        'zod',
      ]),
    );
  });

  it('the database worker is one CommonJS file beside the main bundle (the source fallback through tsx is never taken)', async () => {
    expect(readdirSync(join(OUT, 'main'))).toContain('db-writer.cjs');
    const code = readFileSync(join(OUT, 'main', 'db-writer.cjs'), 'utf8');
    // CommonJS: no import or export statement, no import.meta, and what it requires is Node's or a
    // production dependency.
    await init;
    const [imports, exports] = parse(code);
    expect(imports.filter((i) => i.d === -1 || i.d === -2)).toEqual([]);
    expect(exports).toEqual([]);
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const required = [...code.matchAll(/\brequire\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1]!);
    expect(
      required.filter((r) => !r.startsWith('node:') && !(packageName(r) in pkg.dependencies)),
    ).toEqual([]);
    expect(required).toContain('better-sqlite3');
  });

  it('the download thread is one CommonJS file beside the main bundle too', async () => {
    expect(readdirSync(join(OUT, 'main'))).toContain('file-transfer.cjs');
    const code = readFileSync(join(OUT, 'main', 'file-transfer.cjs'), 'utf8');
    await init;
    const [imports, exports] = parse(code);
    expect(imports.filter((i) => i.d === -1 || i.d === -2)).toEqual([]);
    expect(exports).toEqual([]);
    const required = [...code.matchAll(/\brequire\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1]!);
    // Node's own modules only: the transfer needs no package.
    expect(required.filter((r) => !r.startsWith('node:'))).toEqual([]);
  });
});
