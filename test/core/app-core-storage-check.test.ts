import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createAppCore } from '../../electron/core/app-core';
import { createLogger } from '../../electron/core/log';
import { createMemorySettingsStore } from '../../electron/core/settings/settings-store';
import { FIRST_SCREEN_FILE } from '../../electron/core/desktop/first-screen';

const NOW = '2026-06-01T00:00:00.000Z';

/**
 * The integrity check after a clean exit runs once the window shows (electron/core/db/open.ts
 * integrityCheck), not in the start: the app core still finds a database damaged while it was away,
 * keeps a copy and rebuilds it, with its queued changes, a real writer worker and a real SQLite
 * file.
 */
describe('app core: a database damaged while the app was away', () => {
  it('opens without reading the whole file, then finds the damage shortly after and rebuilds it, keeping the outbox', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ld-core-check-'));
    onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
    const options = {
      dataDir,
      version: '0.0.0-test',
      host: 'browser' as const,
      settingsStore: createMemorySettingsStore({ autoSyncMinutes: 0 }),
      demo: { enabled: false },
      openExternal: async () => {},
    };
    // A first run writes the offline data and closes cleanly.
    const first = await createAppCore(options);
    await first.close();
    const file = join(dataDir, 'offline.db');
    {
      const raw = new Database(file);
      raw.pragma('foreign_keys = OFF');
      raw.exec("INSERT INTO sites (id, created_at) VALUES ('s', '2026-01-01T00:00:00.000Z')");
      // Foreign keys off (better-sqlite3 turns them on): lectures alone fill the pages to damage.
      const lecture = raw.prepare(
        "INSERT INTO lectures (site_id, id, course_id, section_id, title, position, state, is_locked, duration) VALUES ('s', ?, 'c', 's1', ?, 1, 'unread', 0, 60)",
      );
      raw.transaction(() => {
        for (let i = 0; i < 5000; i++) lecture.run(`l${i}`, `Lecture ${i} ${'x'.repeat(80)}`);
      })();
      raw
        .prepare(
          "INSERT INTO outbox (site_id, kind, payload, description, created_at) VALUES ('s', 'mark-all-notifications-read', '{}', 'Mark all notifications read', ?)",
        )
        .run(NOW);
      const page = raw
        .prepare(
          "SELECT pageno FROM dbstat WHERE name = 'lectures' AND pagetype = 'leaf' LIMIT 1 OFFSET 3",
        )
        .get() as {
        pageno: number;
      };
      const pageSize = raw.pragma('page_size', { simple: true }) as number;
      raw.close();
      const fd = openSync(file, 'r+');
      writeSync(
        fd,
        Buffer.alloc(pageSize - 16, 0xff),
        0,
        pageSize - 16,
        (page.pageno - 1) * pageSize + 8,
      );
      closeSync(fd);
    }
    // The window kept a first frame of what the damaged file held.
    writeFileSync(join(dataDir, FIRST_SCREEN_FILE), '{}');
    const warnings: string[] = [];
    const core = await createAppCore({
      ...options,
      logger: createLogger((line, entry) => entry.level !== 'info' && warnings.push(line)),
    });
    onTestFinished(() => core.close());
    // Not found at open: the start did not read the whole file.
    expect(readdirSync(dataDir).some((f) => f.includes('.corrupt-'))).toBe(false);
    // Found once the window shows (a second after the start), kept aside as a copy and rebuilt with
    // its outbox.
    await expect
      .poll(() => readdirSync(dataDir).some((f) => f.includes('.corrupt-')), { timeout: 10_000 })
      .toBe(true);
    await expect
      .poll(() => warnings.some((w) => w.includes('was damaged and was rebuilt')), {
        timeout: 10_000,
      })
      .toBe(true);
    const check = new Database(file, { readonly: true });
    onTestFinished(() => void check.close());
    expect(check.pragma('quick_check', { simple: true })).toBe('ok');
    expect(check.prepare('SELECT count(*) FROM lectures').pluck().get()).toBe(0);
    expect(check.prepare("SELECT kind FROM outbox WHERE site_id = 's'").pluck().all()).toEqual([
      'mark-all-notifications-read',
    ]);
    expect(existsSync(`${file}.unclosed`)).toBe(true);
    // Rebuilt empty: the next start's first frame no longer shows what is gone.
    expect(existsSync(join(dataDir, FIRST_SCREEN_FILE))).toBe(false);
  });
});
