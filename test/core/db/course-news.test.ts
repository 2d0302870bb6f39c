import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../electron/core/app-core';
import { createEmbeddedServer, type EmbeddedServer } from '../../../embedded-server/index';
import {
  createTestCore,
  signedInSite,
  systemBrowser,
  valueOf,
  invoke,
  type ChannelArgs,
} from '../../helpers/test-core';
import type { Channel } from '../../../electron/common/ipc-contract';
import {
  commitSnapshot,
  ensureSite,
  getLibraryPage,
  getUnseenChanges,
  markCourseSeen,
} from '../../../electron/core/db';
import * as m016 from '../../../electron/core/db/migrations/016-course-news';
import { course } from './fixtures';
import { closeDatabases, NOW, openDb, tempFile } from './pages-scaffold';

/**
 * "New since last sync" (db/course-news.ts, read from the change record) against a real site:
 * lectures the school adds to a course between two syncs show on that course only, add up over
 * syncs until the course is opened, and opening it clears them. The first sync marks nothing
 * (everything is new then).
 */
describe('new lectures since the last sync (real site, real core)', () => {
  let dir: string;
  let server: EmbeddedServer;
  let core: AppCore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ld-course-news-'));
    server = await createEmbeddedServer({
      port: 0,
      seed: 'demo',
      site: 'demo',
      database: join(dir, 'site.db'),
    });
    core = await createTestCore({ dataDir: join(dir, 'app'), openExternal: systemBrowser() });
  });
  afterEach(async () => {
    await core.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = async <C extends Channel>(channel: C, ...input: ChannelArgs<C>) =>
    valueOf(await invoke(core.handlers, channel, ...input));

  /** The school adds `n` lectures at the end of the course's first section. */
  function addLectures(courseId: string, n: number, tag: string): void {
    const section = server.db
      .prepare('SELECT id FROM sections WHERE course_id = ? ORDER BY position LIMIT 1')
      .get(courseId) as { id: string };
    const insert = server.db.prepare(
      'INSERT INTO lectures (id, course_id, section_id, title, position, duration) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (let i = 0; i < n; i++)
      insert.run(`lec_news_${tag}_${i}`, courseId, section.id, `Added ${tag} ${i}`, 1000 + i, 300);
  }

  it('marks the course that gained lectures, keeps the count over syncs, and clears it when the course is opened', async () => {
    const site = await signedInSite(core, server.url);
    const sync = async () =>
      expect((await call('sync:now', { siteId: site.id })).outcome).toBe('completed');
    await sync();
    const first = await call('library:list', { siteId: site.id });
    expect(first.length).toBeGreaterThan(1);
    // The first sync: everything is new, nothing is marked.
    expect(first.filter((c) => c.newLectures !== 0)).toEqual([]);

    const course = first[0]!;
    addLectures(course.courseId, 1, 'a');
    await sync();
    const news = async () =>
      Object.fromEntries(
        (await call('library:page', { siteId: site.id, limit: 100 })).items
          .filter((c) => c.newLectures > 0)
          .map((c) => [c.courseId, c.newLectures]),
      );
    expect(await news()).toEqual({ [course.courseId]: 1 });
    expect(
      (await call('course:get', { siteId: site.id, courseId: course.courseId })).newLectures,
    ).toBe(1);
    expect(
      (await call('library:all-page', { limit: 100 })).items.find(
        (c) => c.courseId === course.courseId,
      )?.newLectures,
    ).toBe(1);

    // A sync with nothing new keeps the badge until the course is opened; more lectures add up.
    await sync();
    expect(await news()).toEqual({ [course.courseId]: 1 });
    addLectures(course.courseId, 2, 'b');
    await sync();
    expect(await news()).toEqual({ [course.courseId]: 3 });

    await call('course:mark-seen', { siteId: site.id, courseId: course.courseId });
    expect(await news()).toEqual({});
    // The memoised whole-library view is dropped too.
    expect(
      (await call('library:list', { siteId: site.id })).find((c) => c.courseId === course.courseId)
        ?.newLectures,
    ).toBe(0);
    // Seen stays seen at the next sync.
    await sync();
    expect(await news()).toEqual({});
  });

  it('a lecture replaced by another is one new lecture; a course only renamed gains none', async () => {
    const site = await signedInSite(core, server.url);
    await call('sync:now', { siteId: site.id });
    const [a, b] = await call('library:list', { siteId: site.id });
    server.db
      .prepare('UPDATE courses SET title = title || ? WHERE id = ?')
      .run(' (2nd edition)', b!.courseId);
    const old = server.db
      .prepare('SELECT id FROM lectures WHERE course_id = ? ORDER BY id LIMIT 1')
      .get(a!.courseId) as { id: string };
    server.db.prepare('DELETE FROM lectures WHERE id = ?').run(old.id);
    addLectures(a!.courseId, 1, 'c');
    await call('sync:now', { siteId: site.id });
    const after = await call('library:list', { siteId: site.id });
    expect(after.find((c) => c.courseId === a!.courseId)?.newLectures).toBe(1);
    expect(after.find((c) => c.courseId === b!.courseId)?.newLectures).toBe(0);
  });
});

/**
 * A copy from before migration 024 kept the badges in their own table (016), and the change record
 * (021) may already hold some of the same lectures: after the upgrade each course shows the count
 * it showed before, once, and Today is not told them again.
 */
describe('the badges of a copy written before 024', () => {
  afterEach(closeDatabases);

  it('keeps the counts the old table held, once, and clears them when the course is opened', () => {
    const file = tempFile();
    const old = openDb(file);
    ensureSite(old, 's', NOW);
    commitSnapshot(old, 's', { courses: [course('c1'), course('c2')] });
    // Back to schema 023: no course_seen_at, the badges in course_news.
    old.exec(`
      DROP INDEX change_record_course_news;
      ALTER TABLE change_record DROP COLUMN course_seen_at;
      ${m016.sql}
      INSERT INTO course_news (site_id, course_id, new_lectures) VALUES ('s', 'c1', 3);
      INSERT INTO change_record (site_id, at, kind, item_id, course_id, title, detail)
        VALUES ('s', '2026-06-09T00:00:00.000Z', 'lectures-new', 'c1', 'c1', 'Course c1', '{"count":2}');
    `);
    old.pragma('user_version = 23');
    old.close();

    const db = openDb(file);
    const badges = () =>
      Object.fromEntries(
        getLibraryPage(db, 's', NOW, { limit: 100 }).items.map((c) => [c.courseId, c.newLectures]),
      );
    expect(badges()).toEqual({ c1: 3, c2: 0 });
    expect(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'course_news'").all()).toEqual(
      [],
    );
    // Today still has the one change 021 recorded, not the count carried over.
    expect(getUnseenChanges(db, ['s']).flatMap((g) => g.changes.map((c) => c.count))).toEqual([2]);
    expect(markCourseSeen(db, 's', 'c1')).toBe(true);
    expect(badges()).toEqual({ c1: 0, c2: 0 });
    expect(markCourseSeen(db, 's', 'c1')).toBe(false);
  });
});
