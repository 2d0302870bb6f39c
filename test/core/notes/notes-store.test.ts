import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../electron/core/db/migrations';
import { getCourseNotes, getNotesPage, searchNotes } from '../../../electron/core/db/notes';
import { addNote, deleteNote, UNDO_KEPT } from '../../../electron/core/db/notes-write';
import { commitSnapshot } from '../../../electron/core/db';
import { course } from '../db/fixtures';
import Database from 'better-sqlite3';
import { registerSearchFunctions } from '../../../electron/core/db/search/normalize';
import { closeDatabases, NOW, openDb, tempFile } from '../db/pages-scaffold';

/**
 * A database as the app at `version` left it (the search migrations call search_form, registered
 * first).
 */
function databaseAt(version: number, file: string): Database.Database {
  const db = new Database(file);
  registerSearchFunctions(db);
  for (const m of MIGRATIONS.filter((m) => m.version <= version)) db.exec(m.sql);
  db.pragma(`user_version = ${version}`);
  return db;
}

afterEach(closeDatabases);

/** The notes' migration, found by name: the lead may renumber it. */
const notesMigration = MIGRATIONS.find((m) => m.name.endsWith('-notes'))!;

const note = (lectureId: string, title: string, now = NOW.toISOString()) => ({
  siteId: 's1',
  courseId: 'c1',
  lectureId,
  kind: 'note' as const,
  positionSeconds: 30,
  title,
  body: '',
  school: 'School',
  siteUrl: 'https://school.example',
  now,
});

describe('the notes migration', () => {
  it('upgrades a database of the version before it, keeping its courses, and takes notes at once', () => {
    const file = tempFile();
    const old = databaseAt(notesMigration.version - 1, file);
    old
      .prepare("INSERT INTO sites (id, created_at) VALUES ('s1', '2026-01-01T00:00:00.000Z')")
      .run();
    old.close();
    const db = openDb(file);
    commitSnapshot(db, 's1', { courses: [course('c1')] });
    expect(db.prepare('SELECT count(*) AS n FROM courses').get()).toEqual({ n: 1 });
    const id = addNote(db, note('c1-l2', 'Knife grip'));
    expect(getCourseNotes(db, 's1', 'c1').map((n) => [n.id, n.lectureTitle])).toEqual([
      [id, 'Knife skills'],
    ]);
    expect(searchNotes(db, 'knife').map((h) => h.note.id)).toEqual([id]);
  });
});

describe('notes in the store', () => {
  it('keeps the newest deletions to undo, and forgets older ones', () => {
    const db = openDb();
    db.prepare(
      "INSERT INTO sites (id, created_at) VALUES ('s1', '2026-01-01T00:00:00.000Z')",
    ).run();
    commitSnapshot(db, 's1', { courses: [course('c1')] });
    const ids = Array.from({ length: UNDO_KEPT + 5 }, (_, i) =>
      addNote(db, note('c1-l1', `n${i}`)),
    );
    ids.forEach((id, i) => deleteNote(db, id, new Date(NOW.getTime() + i * 1000).toISOString()));
    const kept = db.prepare('SELECT id FROM notes ORDER BY id').all() as { id: number }[];
    expect(kept.map((r) => r.id)).toEqual(ids.slice(5));
    expect(getNotesPage(db, {}).total).toBe(0);
  });

  it('pages newest first, by school and by course, and a re-sync that drops the course keeps them', () => {
    const db = openDb();
    db.prepare(
      "INSERT INTO sites (id, created_at) VALUES ('s1', '2026-01-01T00:00:00.000Z')",
    ).run();
    commitSnapshot(db, 's1', { courses: [course('c1'), course('c2')] });
    const a = addNote(db, note('c1-l1', 'a', '2026-06-01T00:00:00.000Z'));
    const b = addNote(db, { ...note('c2-l1', 'b', '2026-06-02T00:00:00.000Z'), courseId: 'c2' });
    const c = addNote(db, note('c1-l2', 'c', '2026-06-03T00:00:00.000Z'));
    expect(getNotesPage(db, {}, { limit: 2 })).toMatchObject({ total: 3, nextOffset: 2 });
    expect(getNotesPage(db, {}).items.map((n) => n.id)).toEqual([c, b, a]);
    expect(getNotesPage(db, { siteId: 's1', courseId: 'c1' }).items.map((n) => n.id)).toEqual([
      c,
      a,
    ]);
    expect(getNotesPage(db, { siteId: 'other' }).total).toBe(0);
    commitSnapshot(db, 's1', { courses: [course('c2')] });
    expect(getCourseNotes(db, 's1', 'c1')).toMatchObject([
      { id: a, lectureGone: true, courseTitle: 'Course c1', lectureTitle: 'Welcome' },
      { id: c, lectureGone: true, lectureTitle: 'Knife skills' },
    ]);
  });
});
