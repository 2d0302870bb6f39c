import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createJsonSettingsStore,
  createMemorySettingsStore,
  DEFAULT_SETTINGS,
  normaliseSettings,
} from '../../../electron/core/settings/settings-store';

describe('JSON settings store (browser host)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ld-settings-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('answers the defaults before anything was saved', async () => {
    const store = createJsonSettingsStore(join(dir, 'settings.json'));
    expect(await store.load()).toEqual(DEFAULT_SETTINGS);
  });

  it('persists across instances, in a file only the user can read', async () => {
    const file = join(dir, 'settings.json');
    await createJsonSettingsStore(file).save({
      ...DEFAULT_SETTINGS,
      autoSyncMinutes: 5,
      theme: 'dark',
    });
    expect(await createJsonSettingsStore(file).load()).toEqual({
      ...DEFAULT_SETTINGS,
      autoSyncMinutes: 5,
      theme: 'dark',
    });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o077).toBe(0);
  });

  it('keeps the good values of a hand-edited file and defaults the bad ones', async () => {
    const file = join(dir, 'settings.json');
    writeFileSync(
      file,
      JSON.stringify({ autoSyncMinutes: -3, language: 'zh-TW', theme: 'neon', extra: 1 }),
    );
    expect(await createJsonSettingsStore(file).load()).toEqual({
      ...DEFAULT_SETTINGS,
      language: 'zh-TW',
    });
  });

  it('starts from the defaults when the file is not JSON, and the next save repairs it', async () => {
    const file = join(dir, 'settings.json');
    writeFileSync(file, '{ not json');
    const store = createJsonSettingsStore(file);
    expect(await store.load()).toEqual(DEFAULT_SETTINGS);
    await store.save({ ...DEFAULT_SETTINGS, language: 'en' });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ ...DEFAULT_SETTINGS, language: 'en' });
  });
});

describe('memory settings store', () => {
  it('normalises what it is given', async () => {
    const store = createMemorySettingsStore({ autoSyncMinutes: 0 });
    expect((await store.load()).autoSyncMinutes).toBe(0);
    expect(normaliseSettings(null)).toEqual(DEFAULT_SETTINGS);
  });
});
