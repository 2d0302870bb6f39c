import { afterEach, describe, expect, it } from 'vitest';
import { getCourseDetail } from '../../../electron/core/db';
import { course } from './fixtures';
import { closeDatabases, databaseAt, NOW, openDb, tempFile, withSite } from './pages-scaffold';

afterEach(closeDatabases);

/**
 * A lecture state the spec does not name (a site that added one) is kept and shown as "unknown",
 * never a failed sync.
 */
describe('lecture states the app does not know (migration 011)', () => {
  const withState = (state: string) =>
    course('c1', {
      sections: [
        {
          id: 'c1-s1',
          title: 'Section',
          position: 1,
          lectures: [
            {
              lectureId: 'c1-l1',
              title: 'Welcome',
              position: 1,
              state: state as 'read',
              isLocked: false,
              unlockAt: null,
              duration: 60,
            },
          ],
        },
      ],
    });

  it('stores the site’s word and shows it as unknown', () => {
    const db = withSite({ courses: [withState('in_progress')] });
    expect(db.prepare('SELECT state FROM lectures').pluck().get()).toBe('in_progress');
    expect(getCourseDetail(db, 's', 'c1', NOW).sections[0]!.lectures[0]!.state).toBe('unknown');
  });

  it('a database of version 10 keeps its lectures and indexes, and takes an unknown state afterwards', () => {
    const file = tempFile();
    const v10 = databaseAt(10, file);
    v10.exec(`INSERT INTO sites (id, created_at) VALUES ('s', '2026-01-01T00:00:00.000Z');
      INSERT INTO courses (site_id, id, position, slug, title, enrolled_at, has_lifetime_access, total_lectures, read_lectures, completed_lectures, percent)
        VALUES ('s', 'c1', 0, 'c1', 'C', '2026-01-01T00:00:00.000Z', 1, 1, 0, 0, 0);
      INSERT INTO sections (site_id, id, course_id, title, position) VALUES ('s', 'c1-s1', 'c1', 'S', 1);
      INSERT INTO lectures (site_id, id, course_id, section_id, title, position, state, is_locked, unlock_at, duration)
        VALUES ('s', 'c1-l1', 'c1', 'c1-s1', 'L', 1, 'completed', 1, NULL, 60);`);
    expect(() => v10.exec(`UPDATE lectures SET state = 'in_progress'`)).toThrow(/CHECK/);
    v10.close();

    const db = openDb(file);
    expect(db.prepare('SELECT id, state, is_locked FROM lectures').all()).toEqual([
      { id: 'c1-l1', state: 'completed', is_locked: 1 },
    ]);
    const indexes = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'lectures' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .pluck()
      .all();
    expect(indexes).toEqual([
      'lectures_by_course_section',
      'lectures_by_section',
      'lectures_in_order',
      'lectures_left',
      'lectures_locked',
      'lectures_to_do',
      'lectures_unlocking',
    ]);
    db.exec(`UPDATE lectures SET state = 'in_progress'`);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    // Sections still cascade to their lectures.
    db.exec(`DELETE FROM sections`);
    expect(db.prepare('SELECT count(*) FROM lectures').pluck().get()).toBe(0);
  });
});
