import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppCore } from '../../electron/core/app-core';
import { isCoreError } from '../../electron/core/errors';
import { createMemorySettingsStore } from '../../electron/core/settings/settings-store';
import { createEmbeddedServer } from '../../embedded-server/index';

/**
 * Electron run from a checkout loads better-sqlite3's addon from a file of its own
 * (scripts/electron-native.mjs), named by `sqliteBinding`. Here the addon is Node's, copied
 * elsewhere: the app must open every database through the named file (a missing file must fail, and
 * say what is wrong in plain words).
 */

const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * A copy of the addon npm built for this Node, at a path better-sqlite3 would never look at by
 * itself.
 */
function addonCopy(): string {
  const pkg = dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
  const built = join(pkg, 'build', 'Release', 'better_sqlite3.node');
  expect(existsSync(built)).toBe(true);
  const copy = join(tempDir('ld-addon-'), 'better_sqlite3-copy.node');
  copyFileSync(built, copy);
  return copy;
}

const coreOptions = (dataDir: string, sqliteBinding: string) => ({
  dataDir,
  version: '0.0.0-test',
  host: 'browser' as const,
  openExternal: async () => {},
  settingsStore: createMemorySettingsStore({ autoSyncMinutes: 0 }),
  sqliteBinding,
});

describe('better-sqlite3 loaded from a named addon file', () => {
  it('the core opens its offline database and starts the demo sites through it', async () => {
    const core = await createAppCore(coreOptions(tempDir('ld-binding-'), addonCopy()));
    try {
      const added = await core.handlers['sites:add-demo'](undefined);
      expect(added.ok).toBe(true);
      const servers = core.demo?.servers();
      expect(servers).toBeTruthy();
      // The demo site answers over HTTP from its own SQLite database (opened through the same
      // addon).
      const res = await fetch(`${servers!.demo.url}/.well-known/oauth-authorization-server`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { issuer: string }).issuer).toBe(servers!.demo.url);
      const list = await core.handlers['sites:list'](undefined);
      expect(list.ok && list.value.map((s) => s.label)).toEqual([
        'Demo School',
        'Second Demo School',
      ]);
    } finally {
      await core.close();
    }
  });

  it('a missing addon stops the start with a storage-error in plain words, naming no path', async () => {
    const missing = join(tempDir('ld-addon-'), 'nothing-here.node');
    const error = await createAppCore(coreOptions(tempDir('ld-binding-'), missing)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isCoreError(error, 'storage-error')).toBe(true);
    expect((error as Error).message).toMatch(/SQLite engine/);
    expect((error as Error).message).not.toContain(missing);
  });

  it('the embedded server opens its database through the named addon too', async () => {
    const server = await createEmbeddedServer({
      port: 0,
      seed: 'demo',
      sqliteBinding: addonCopy(),
    });
    try {
      // It started on a database opened through the copy and answers.
      const res = await fetch(`${server.url}/.well-known/oauth-authorization-server`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { issuer: string }).issuer).toBe(server.url);
    } finally {
      await server.close();
    }
    await expect(
      createEmbeddedServer({
        port: 0,
        seed: 'demo',
        sqliteBinding: join(tempDir('ld-addon-'), 'nothing-here.node'),
      }),
    ).rejects.toThrow(/Cannot find module/);
  });
});
