import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuiltApp } from '../helpers/built-app';
import { serveBundle, type ServedBundle } from '../helpers/electron-stand-in';

/**
 * A Linux desktop without a keyring (safeStorage's basic_text backend), through the built main
 * bundle under the stand-in `electron`: sign-ins stay in memory, and when the student allows weak
 * storage in Settings the app offers to restart, since the vault's cipher is chosen once, at start.
 * The stand-in's dialog answers "Later".
 */
const buildError = ensureBuiltApp();
let work: string;
let app: ServedBundle;

beforeAll(async () => {
  if (buildError) return;
  work = mkdtempSync(join(tmpdir(), 'ld-weak-storage-'));
  app = await serveBundle(work, resolve('out/main/index.js'), {
    FAKE_USER_DATA: join(work, 'userData'),
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const records = (kind: string) =>
  app
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('{"kind"'))
    .map((l) => JSON.parse(l) as { kind: string; data: unknown })
    .filter((l) => l.kind === kind)
    .map((l) => l.data);

describe('weak token storage on a Linux desktop without a keyring', () => {
  it('was built', () => expect(buildError).toBeNull());

  it('keeps sign-ins in memory, and offers a restart (once) when the student allows weak storage', async () => {
    const protection = (
      await app.call<{ persistent: boolean; weak: boolean }>('security:get-token-protection')
    ).value;
    if (process.platform !== 'linux') return void expect(protection).toMatchObject({ weak: false });
    expect(protection).toMatchObject({ backend: 'basic_text', persistent: false, weak: true });
    expect((await app.call('settings:update', { allowWeakTokenStorage: true })).ok).toBe(true);
    const question = 'Restart Learning Desktop to change where your sign-ins are kept?';
    for (let i = 0; i < 100 && !records('message-box').includes(question); i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(records('message-box')).toEqual([question]);
    // "Later": nothing restarts; asking again does not ask twice.
    expect((await app.call('settings:update', { allowWeakTokenStorage: false })).ok).toBe(true);
    expect(records('message-box')).toEqual([question]);
    expect(records('quit')).toEqual([]);
  });
});
