import {
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
  openSync,
  writeSync,
  closeSync,
  existsSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  commitSnapshot,
  enqueueChange,
  ensureSite,
  getBilling,
  getCourseDetail,
  getLibrary,
  getNotifications,
  getProfile,
  LATEST_VERSION,
  listSiteIds,
  openOfflineDatabase,
  pendingEntries,
  removeSiteData,
  search,
  parseSearch,
} from '../../../electron/core/db';
import { MIGRATIONS } from '../../../electron/core/db/migrations';
import { isCoreError } from '../../../electron/core/errors';
import { course, notification, snapshot, hitContext } from './fixtures';

const dirs: string[] = [];
const opened: Database.Database[] = [];
function tempFile(name = 'offline.db'): string {
  const dir = mkdtempSync(join(tmpdir(), 'ld-db-'));
  dirs.push(dir);
  return join(dir, name);
}
function open(file: string) {
  const result = openOfflineDatabase(file);
  opened.push(result.db);
  return result;
}
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const NOW = new Date('2026-06-01T00:00:00.000Z');

/** The sync ensures the site when a run starts; store tests do the same before committing. */
function commit(
  db: Database.Database,
  siteId: string,
  snap: Parameters<typeof commitSnapshot>[2],
): void {
  ensureSite(db, siteId, NOW);
  commitSnapshot(db, siteId, snap);
}

describe('openOfflineDatabase: pragmas', () => {
  it('uses WAL, foreign keys, synchronous FULL (the outbox must survive a power loss) and a busy timeout', () => {
    const { db, recovered } = open(tempFile());
    expect(recovered).toBe(false);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
  });
});

describe('migrations keyed on PRAGMA user_version (ARCHITECTURE example 9)', () => {
  it('brings an empty file to the latest version with every table', () => {
    const { db } = open(tempFile());
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]
    ).map((r) => r.name);
    for (const t of [
      'sites',
      'profile',
      'schools',
      'courses',
      'sections',
      'lectures',
      'digital_products',
      'event_registrations',
      'consulting_services',
      'payments',
      'notifications',
      'notification_subscriptions',
      'outbox',
      'sync_runs',
      'search_index',
    ]) {
      expect(tables).toContain(t);
    }
  });

  it('migrates a version-1 database with data: 002 indexes the rows already stored', () => {
    const file = tempFile();
    // Build a database exactly as version 1 of the app left it, with a synced site in it.
    const v1 = new Database(file);
    v1.pragma('foreign_keys = ON');
    v1.exec(MIGRATIONS[0]!.sql);
    v1.pragma('user_version = 1');
    v1.prepare(
      "INSERT INTO sites (id, created_at) VALUES ('s1', '2026-01-01T00:00:00.000Z')",
    ).run();
    v1.prepare(
      `INSERT INTO courses (site_id, id, position, slug, title, enrolled_at, has_lifetime_access, total_lectures, read_lectures, completed_lectures, percent)
       VALUES ('s1', 'c1', 0, 'knife', 'Knife sharpening', '2026-01-01T00:00:00.000Z', 1, 0, 0, 0, 0)`,
    ).run();
    v1.prepare(
      "INSERT INTO notifications (site_id, id, kind, title, body, created_at) VALUES ('s1', 'n1', 'announcement', 'Holiday', 'Closed on Friday', '2026-01-01T00:00:00.000Z')",
    ).run();
    v1.close();

    const { db } = open(file);
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    expect(getLibrary(db, 's1', NOW).map((c) => c.title)).toEqual(['Knife sharpening']);
    expect(search(db, 's1', 'knife').map((h) => [h.kind, h.id])).toEqual([['course', 'c1']]);
    expect(search(db, 's1', 'sharpen').map((h) => h.id)).toEqual(['c1']);
    expect(search(db, 's1', 'friday').map((h) => h.id)).toEqual(['n1']);
  });

  it('refuses a database from a newer app (user_version 999) with database-too-new, leaving it untouched', () => {
    const file = tempFile();
    const newer = new Database(file);
    newer.exec('CREATE TABLE future (x)');
    newer.pragma('user_version = 999');
    newer.close();
    let caught: unknown;
    try {
      open(file);
    } catch (error) {
      caught = error;
    }
    expect(isCoreError(caught, 'database-too-new')).toBe(true);
    const check = new Database(file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(999);
    check.close();
  });

  it('runs all pending migrations in one transaction: a failing one leaves the version unchanged', async () => {
    const { migrate } = await import('../../../electron/core/db/migrate');
    const db = new Database(':memory:');
    opened.push(db);
    expect(() =>
      migrate(db, [
        ...MIGRATIONS,
        {
          version: LATEST_VERSION + 1,
          name: 'broken',
          sql: 'CREATE TABLE x (a); SELECT nonsense(',
        },
      ]),
    ).toThrow();
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    expect(
      db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'sites'").get(),
    ).toEqual({ n: 0 });
  });
});

describe('corrupt database recovery', () => {
  it('moves a file that is not a database aside and rebuilds it empty', () => {
    const file = tempFile();
    writeFileSync(file, Buffer.alloc(8192, 0x41));
    const result = open(file);
    expect(result.recovered).toBe(true);
    expect(result.movedTo).toMatch(/offline\.db\.corrupt-/);
    expect(existsSync(result.movedTo!)).toBe(true);
    expect(result.db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    expect(listSiteIds(result.db)).toEqual([]);
  });

  it('keeps the outbox of a damaged database (quick_check fails on another table)', () => {
    const file = tempFile();
    {
      const { db } = open(file);
      commit(db, 's1', { courses: Array.from({ length: 300 }, (_, i) => course(`c${i}`)) });
      enqueueChange(db, 's1', { kind: 'mark-notification-read', notificationId: 'n-7' }, NOW);
      enqueueChange(
        db,
        's1',
        {
          kind: 'update-notification-subscription',
          topic: 'payments',
          channel: 'email',
          enabled: false,
        },
        NOW,
      );
      db.pragma('wal_checkpoint(TRUNCATE)');
      // Find a leaf page of the lectures table and overwrite its cells (dbstat: https://sqlite.org/dbstat.html).
      const page = db
        .prepare(
          "SELECT pageno FROM dbstat WHERE name = 'lectures' AND pagetype = 'leaf' LIMIT 1 OFFSET 3",
        )
        .get() as { pageno: number };
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      db.close();
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
    const result = open(file);
    expect(result.recovered).toBe(true);
    expect(result.salvagedOutbox).toBe(2);
    expect(pendingEntries(result.db, 's1').map((e) => e.change)).toEqual([
      { kind: 'mark-notification-read', notificationId: 'n-7' },
      {
        kind: 'update-notification-subscription',
        topic: 'payments',
        channel: 'email',
        enabled: false,
      },
    ]);
    // The snapshot is gone: the next sync rebuilds it from the server.
    expect(getLibrary(result.db, 's1', NOW)).toEqual([]);
    expect(readdirSync(join(file, '..')).some((f) => f.includes('.corrupt-'))).toBe(true);
  });
});

describe('sites never mix (every row belongs to a site)', () => {
  it('keeps two sites apart in views and search, and removeSiteData deletes only one', () => {
    const { db } = open(tempFile());
    commit(db, 'a', snapshot('a'));
    commit(db, 'b', snapshot('b'));
    expect(getLibrary(db, 'a', NOW).map((c) => c.courseId)).toEqual(['a-c1', 'a-c2']);
    expect(getLibrary(db, 'b', NOW).map((c) => c.courseId)).toEqual(['b-c1', 'b-c2']);
    expect(search(db, 'a', 'cooking').map((h) => h.id)).toEqual(['a-c1']);
    expect(() => getCourseDetail(db, 'a', 'b-c1', NOW)).toThrow(/not in your offline library/);

    removeSiteData(db, 'a');
    expect(listSiteIds(db)).toEqual(['b']);
    for (const table of [
      'courses',
      'sections',
      'lectures',
      'payments',
      'notifications',
      'profile',
      'schools',
      'search_index',
    ]) {
      expect(db.prepare(`SELECT count(*) AS n FROM ${table} WHERE site_id = 'a'`).get()).toEqual({
        n: 0,
      });
    }
    expect(getProfile(db, 'b').email).toBe('b@example.com');
  });
});

describe('commitSnapshot (one transaction per site)', () => {
  it('replaces parts given, keeps parts left out, and a throwing commit changes nothing', () => {
    const { db } = open(tempFile());
    commit(db, 's', snapshot('s'));
    // Courses refused (left out): they stay; notifications given: replaced (n2 disappears).
    commit(db, 's', { notifications: [notification('s-n1')] });
    expect(getLibrary(db, 's', NOW)).toHaveLength(2);
    expect(getNotifications(db, 's').items.map((n) => n.id)).toEqual(['s-n1']);
    // Duplicate ids violate the primary key half way through: the whole commit rolls back.
    expect(() =>
      commit(db, 's', { notifications: [], courses: [course('x'), course('x')] }),
    ).toThrow();
    expect(getLibrary(db, 's', NOW)).toHaveLength(2);
    expect(getNotifications(db, 's').items.map((n) => n.id)).toEqual(['s-n1']);
  });

  it('skips rewriting a part identical to the last commit (digest); local changes no longer pending go back to the server values', () => {
    const { db } = open(tempFile());
    ensureSite(db, 's', NOW);
    expect(commitSnapshot(db, 's', snapshot('s'))).toEqual([
      'profile',
      'courses',
      'digitalProducts',
      'eventRegistrations',
      'consultingServices',
      'payments',
      'notifications',
      'subscriptions',
    ]);
    expect(commitSnapshot(db, 's', snapshot('s'))).toEqual([]);
    // A local mark-read the site refused (entry now 'failed', not pending): the next commit shows the server's value
    // even though the inbox part did not change.
    const entry = enqueueChange(
      db,
      's',
      { kind: 'mark-notification-read', notificationId: 's-n1' },
      NOW,
    );
    enqueueChange(
      db,
      's',
      {
        kind: 'update-notification-subscription',
        topic: 'announcements',
        channel: 'email',
        enabled: false,
      },
      NOW,
    );
    db.prepare("UPDATE outbox SET status = 'failed' WHERE id = ?").run(entry.id);
    expect(commitSnapshot(db, 's', snapshot('s'))).toEqual([]);
    const inbox = getNotifications(db, 's');
    expect(inbox.items.find((n) => n.id === 's-n1')).toMatchObject({
      readAt: null,
      pendingSync: false,
    });
    expect(inbox.subscriptions).toEqual([
      { topic: 'announcements', channel: 'email', enabled: false, pendingSync: true },
    ]);
    const changed = { ...snapshot('s'), courses: [course('s-c1', { title: 'Baking bread' })] };
    expect(commitSnapshot(db, 's', changed)).toEqual(['courses']);
    expect(getLibrary(db, 's', NOW).map((c) => c.title)).toEqual(['Baking bread']);
    expect(search(db, 's', 'baking').map((h) => h.id)).toEqual(['s-c1']);
    expect(search(db, 's', 'cooking')).toEqual([]);
    expect(
      search(db, 's', 'notice')
        .map((h) => h.id)
        .sort(),
    ).toEqual(['s-n1', 's-n2']);
  });

  it('re-applies pending outbox changes on top of fresh data (a queued mark-read keeps showing read)', () => {
    const { db } = open(tempFile());
    ensureSite(db, 's');
    commit(db, 's', snapshot('s'));
    enqueueChange(db, 's', { kind: 'mark-notification-read', notificationId: 's-n1' }, NOW);
    commit(db, 's', { notifications: [notification('s-n1'), notification('s-n3')] });
    const view = getNotifications(db, 's');
    expect(view.items.find((n) => n.id === 's-n1')).toMatchObject({
      readAt: NOW.toISOString(),
      pendingSync: true,
    });
    expect(view.items.find((n) => n.id === 's-n3')).toMatchObject({
      readAt: null,
      pendingSync: false,
    });
    expect(view.unreadCount).toBe(1);
  });
});

describe('search (FTS5)', () => {
  it('treats FTS syntax in user input as text', () => {
    const { db } = open(tempFile());
    commit(db, 's', {
      notifications: [
        notification('n1', { title: 'Exam "NEAR" the end', body: 'AND OR NOT * ( ) : ^' }),
      ],
    });
    for (const q of [
      '"',
      'NEAR(',
      'AND',
      '*',
      'title:exam',
      ')',
      '^',
      '"unbalanced',
      'a OR',
      '-x',
    ]) {
      expect(() => search(db, 's', q)).not.toThrow();
    }
    expect(search(db, 's', 'near').map((h) => h.id)).toEqual(['n1']);
    expect(search(db, 's', 'exam')[0]!.snippet).toContain('[[Exam]]');
    expect(parseSearch('   ')).toBeNull();
    expect(parseSearch('ab"c de 50%')).toEqual({
      match: '"ab""c" "50%"',
      like: ['%de%'],
      grams: '"de"',
      terms: ['ab"c', 'de', '50%'],
    });
    expect(parseSearch('a_')).toMatchObject({ like: ['%a\\_%'], grams: null });
    expect(parseSearch('理財 數 C#')).toMatchObject({ match: null, grams: '"理財" "數"*' });
  });

  it('matches substrings (trigram) and finds lectures with their course', () => {
    const { db } = open(tempFile());
    commit(db, 's', { courses: [course('c1')] });
    const hits = search(db, 's', 'kni');
    expect(hits).toEqual([
      {
        kind: 'lecture',
        id: 'c1-l2',
        siteId: 's',
        courseId: 'c1',
        title: 'Knife skills',
        snippet: '[[Kni]]fe skills',
        context: hitContext({
          course: 'Course c1',
          section: 'Section of c1',
          lectureState: 'locked',
        }),
      },
    ]);
  });

  it('finds Chinese titles by any part, including two-character terms (LIKE fallback)', () => {
    const { db } = open(tempFile());
    commit(db, 's', {
      courses: [course('c1', { title: 'Personal Finance 個人理財入門' })],
      notifications: [notification('n1', { title: '休館通知', body: '週五休館' })],
    });
    expect(search(db, 's', '理財入门'.slice(0, 3)).map((h) => h.id)).toEqual(['c1']);
    expect(search(db, 's', '理財')).toEqual([
      {
        kind: 'course',
        id: 'c1',
        siteId: 's',
        courseId: 'c1',
        title: 'Personal Finance 個人理財入門',
        snippet: 'Personal Finance 個人[[理財]]入門',
        context: hitContext({ percent: 50, person: 'Ann' }),
      },
    ]);
    expect(search(db, 's', '週五').map((h) => [h.id, h.snippet])).toEqual([['n1', '[[週五]]休館']]);
    expect(search(db, 's', 'finance 理財').map((h) => h.id)).toEqual(['c1']);
    expect(search(db, 's', '%')).toEqual([]);
  });
});

describe('memoised views (view-cache): never stale', () => {
  it('recomputes when the clock crosses an expiry or "expires soon" boundary', () => {
    const { db } = open(tempFile());
    commit(db, 's', {
      courses: [course('c1', { hasLifetimeAccess: false, expireDate: '2026-07-01T00:00:00.000Z' })],
    });
    const at = (iso: string) => getLibrary(db, 's', new Date(iso))[0]!;
    expect(at('2026-06-01T00:00:00.000Z')).toMatchObject({ isExpired: false, expiresSoon: false });
    expect(at('2026-06-20T00:00:00.000Z')).toMatchObject({ isExpired: false, expiresSoon: true });
    expect(at('2026-07-01T00:00:00.000Z')).toMatchObject({ isExpired: true, expiresSoon: false });
    expect(at('2026-06-02T00:00:00.000Z')).toMatchObject({ isExpired: false, expiresSoon: false });
    expect(getCourseDetail(db, 's', 'c1', new Date('2026-07-02T00:00:00.000Z')).isExpired).toBe(
      true,
    );
  });

  it('recomputes after a write on this connection and after a commit by another connection', () => {
    const file = tempFile();
    const { db } = open(file);
    commit(db, 's', snapshot('s'));
    expect(getNotifications(db, 's').unreadCount).toBe(1);
    enqueueChange(db, 's', { kind: 'mark-all-notifications-read' }, NOW);
    expect(getNotifications(db, 's').unreadCount).toBe(0);
    const other = open(file).db;
    commit(other, 's', { notifications: [notification('x1'), notification('x2')] });
    // The pending mark-all is re-applied by the other connection's commit too.
    expect(
      getNotifications(db, 's')
        .items.map((n) => n.id)
        .sort(),
    ).toEqual(['x1', 'x2']);
    other.prepare("DELETE FROM outbox WHERE site_id = 's'").run();
    other.prepare("UPDATE notifications SET read_at = NULL WHERE site_id = 's'").run();
    expect(getNotifications(db, 's').unreadCount).toBe(2);
  });

  it('a write rebuilds only the views that read what it changed, on its own site', () => {
    const { db } = open(tempFile());
    commit(db, 's', snapshot('s'));
    commit(db, 't', snapshot('t'));
    const before = {
      library: getLibrary(db, 's', NOW),
      billing: getBilling(db, 's', NOW),
      notices: getNotifications(db, 's'),
      other: getNotifications(db, 't'),
    };
    enqueueChange(db, 's', { kind: 'mark-all-notifications-read' }, NOW);
    // Same objects: the mark-read did not cost a billing or library rebuild, nor the other site's inbox.
    expect(getLibrary(db, 's', NOW)).toBe(before.library);
    expect(getBilling(db, 's', NOW)).toBe(before.billing);
    expect(getNotifications(db, 't')).toBe(before.other);
    expect(getNotifications(db, 's')).not.toBe(before.notices);
    expect(getNotifications(db, 's').unreadCount).toBe(0);

    // A commit that rewrites only the courses rebuilds the library, keeps billing.
    const billing = getBilling(db, 's', NOW);
    commit(db, 's', { courses: [course('c9')] });
    expect(getLibrary(db, 's', NOW).map((c) => c.courseId)).toEqual(['c9']);
    expect(getBilling(db, 's', NOW)).toBe(billing);
  });

  it('a write no writer accounted for drops every memoised view (fail-safe)', () => {
    const { db } = open(tempFile());
    commit(db, 's', snapshot('s'));
    const billing = getBilling(db, 's', NOW);
    expect(getNotifications(db, 's').unreadCount).toBe(1);
    db.prepare(
      "UPDATE notifications SET read_at = '2026-06-01T00:00:00.000Z' WHERE site_id = 's'",
    ).run();
    expect(getNotifications(db, 's').unreadCount).toBe(0);
    expect(getBilling(db, 's', NOW)).not.toBe(billing);
  });
});
