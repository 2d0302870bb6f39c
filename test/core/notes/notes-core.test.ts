import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../electron/core/app-core';
import type { ExportFile } from '../../../electron/core/export/service';
import { createEmbeddedServer, type EmbeddedServer } from '../../../embedded-server/index';
import type { Channel } from '../../../electron/common/ipc-contract';
import {
  createTestCore,
  invoke,
  signedInSite,
  systemBrowser,
  valueOf,
  type ChannelArgs,
} from '../../helpers/test-core';

/**
 * The student's notes against a real site and a real core: written at a moment of a lecture, read
 * in the course's order and newest first, found by search, opened at their moment on the school's
 * site, exported as Markdown, and kept through re-syncs, a lecture renamed or removed by the
 * school, a sign-out and (when asked) the site's removal.
 */
describe('notes and bookmarks (real site, real core)', () => {
  let dir: string;
  let server: EmbeddedServer;
  let core: AppCore;
  const opened: string[] = [];
  const delivered: ExportFile[] = [];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ld-notes-'));
    server = await createEmbeddedServer({
      port: 0,
      seed: 'demo',
      site: 'demo',
      database: join(dir, 'site.db'),
    });
    const browser = systemBrowser();
    opened.length = 0;
    delivered.length = 0;
    core = await createTestCore({
      dataDir: join(dir, 'app'),
      openExternal: async (url) => {
        if (new URL(url).searchParams.has('redirect_uri')) await browser(url);
        else opened.push(url);
      },
      deliverFile: async (file) => {
        delivered.push(file);
        return { kind: 'saved', fileName: file.fileName };
      },
    });
  });
  afterEach(async () => {
    await core.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = async <C extends Channel>(channel: C, ...input: ChannelArgs<C>) =>
    valueOf(await invoke(core.handlers, channel, ...input));
  const failure = async <C extends Channel>(channel: C, ...input: ChannelArgs<C>) => {
    const r = await invoke(core.handlers, channel, ...input);
    if (r.ok) throw new Error(`${channel} should have failed`);
    return r.error;
  };

  async function synced() {
    const site = await signedInSite(core, server.url);
    await call('sync:now', { siteId: site.id });
    const courses = await call('library:list', { siteId: site.id });
    const course = await call('course:get', {
      siteId: site.id,
      courseId: courses[0]!.courseId,
    });
    const lectures = course.sections.flatMap((s) => s.lectures);
    return { site, course, lectures };
  }

  it('writes a note at 12:34, lists it, finds it, opens the lecture there and exports it', async () => {
    const { site, course, lectures } = await synced();
    const [first, second] = [lectures[0]!, lectures[1]!];
    const at = { siteId: site.id, courseId: course.courseId };
    const note = await call('notes:add', {
      ...at,
      lectureId: second.lectureId,
      kind: 'note',
      positionSeconds: 12 * 60 + 34,
      title: 'Pivot tables',
      body: 'Remember the **grouping** step.\n<script>alert(1)</script>',
    });
    expect(note).toMatchObject({
      kind: 'note',
      positionSeconds: 754,
      lectureTitle: second.title,
      courseTitle: course.title,
      school: site.label,
      lectureGone: false,
      siteGone: false,
    });
    const bookmark = await call('notes:add', {
      ...at,
      lectureId: first.lectureId,
      kind: 'bookmark',
      positionSeconds: 5,
      title: 'Start here [x](javascript:alert(1))',
      body: 'ignored for a bookmark',
    });
    expect(bookmark.body).toBe('');

    // The course's order: the first lecture's bookmark before the second lecture's note.
    const inCourse = await call('notes:course', at);
    expect(inCourse.map((n) => n.id)).toEqual([bookmark.id, note.id]);
    // Newest first across schools.
    const page = await call('notes:page', {});
    expect(page.items.map((n) => n.id)).toEqual([bookmark.id, note.id]);
    expect(page.total).toBe(2);

    // Search: a word, the word in full width (NFKC), a two-character term, nothing of FTS5 syntax.
    const ids = async (query: string) =>
      (await call('notes:search', { query })).map((h) => h.note.id);
    expect(await ids('grouping')).toEqual([note.id]);
    expect(await ids('ＧＲＯＵＰＩＮＧ')).toEqual([note.id]);
    expect(await ids('pi')).toEqual([note.id]);
    expect(await ids('"start" OR NEAR(')).toEqual([]);
    const [hit] = await call('notes:search', { query: 'grouping' });
    expect(hit!.snippet).toContain('[[grouping]]');

    // Opens the lecture on the school's site at 12:34, as the lecture links do.
    const { url } = await call('notes:open', { id: note.id });
    expect(opened).toEqual([url]);
    const link = new URL(url);
    expect(link.origin).toBe(new URL(server.url).origin);
    expect(link.pathname).toMatch(new RegExp(`/lectures/${second.lectureId}$`));
    expect(link.searchParams.get('t')).toBe('754');

    // One Markdown file: the course, its section and lectures as headings, each note's time as a
    // link.
    await call('notes:export-course', { ...at, language: 'en' });
    const file = delivered.at(-1)!;
    expect(file.kind).toBe('md');
    expect(file.fileName).toMatch(/^notes-[A-Za-z0-9._-]+\.md$/);
    expect(file.body).toContain(`### `);
    expect(file.body).toMatch(/\[12:34\]\(<http[^>]+\?t=754>\)/);
    expect(file.body).toContain('Remember the **grouping** step.');
    expect(file.body).not.toContain('<script>');
    expect(file.body).toContain('&lt;script>');
    // The bookmark's title is text: its link syntax is escaped, never a link.
    expect(file.body).not.toContain('](javascript:');
  });

  it('keeps notes through re-syncs, a renamed and a removed lecture, and a sign-out', async () => {
    const { site, course, lectures } = await synced();
    const at = { siteId: site.id, courseId: course.courseId };
    const add = (lectureId: string, title: string) =>
      call('notes:add', {
        ...at,
        lectureId,
        kind: 'note',
        positionSeconds: 60,
        title,
        body: 'kept',
      });
    const renamed = await add(lectures[0]!.lectureId, 'on renamed');
    const removed = await add(lectures[1]!.lectureId, 'on removed');
    server.db
      .prepare('UPDATE lectures SET title = ? WHERE id = ?')
      .run('A new name', lectures[0]!.lectureId);
    server.db.prepare('DELETE FROM lectures WHERE id = ?').run(lectures[1]!.lectureId);
    await call('sync:now', { siteId: site.id });
    await call('sync:now', { siteId: site.id });

    const notes = await call('notes:course', at);
    expect(notes.map((n) => n.id).sort()).toEqual([renamed.id, removed.id].sort());
    const byId = new Map(notes.map((n) => [n.id, n]));
    expect(byId.get(renamed.id)).toMatchObject({ lectureTitle: 'A new name', lectureGone: false });
    expect(byId.get(removed.id)).toMatchObject({
      lectureTitle: lectures[1]!.title,
      lectureGone: true,
    });
    // Still opens at its moment (the school's page may be gone; the address is the lecture's as it
    // was).
    const { url } = await call('notes:open', { id: removed.id });
    expect(new URL(url).searchParams.get('t')).toBe('60');

    await call('sites:sign-out', { siteId: site.id, removeData: false });
    expect((await call('notes:page', {})).total).toBe(2);
  });

  it('removing a site keeps its notes, or deletes them when the student says so', async () => {
    const { site, course, lectures } = await synced();
    await call('notes:add', {
      siteId: site.id,
      courseId: course.courseId,
      lectureId: lectures[0]!.lectureId,
      kind: 'bookmark',
      positionSeconds: 0,
      title: 'Kept',
      body: '',
    });
    expect(await call('notes:count-site', { siteId: site.id })).toEqual({ count: 1 });
    await call('sites:remove', { siteId: site.id });
    const kept = await call('notes:page', {});
    expect(kept.items).toMatchObject([
      { title: 'Kept', siteGone: true, lectureGone: true, school: site.label },
    ]);
    expect((await call('notes:search', { query: 'kept' })).length).toBe(1);
    // Opened at the site's address kept with the note.
    const { url } = await call('notes:open', { id: kept.items[0]!.id });
    expect(new URL(url).origin).toBe(new URL(server.url).origin);

    expect(await call('notes:forget-site', { siteId: site.id })).toEqual({ removed: 1 });
    expect((await call('notes:page', {})).total).toBe(0);
  });

  it('says the limits in words, and puts a deleted note back', async () => {
    const { site, course, lectures } = await synced();
    const at = { siteId: site.id, courseId: course.courseId, lectureId: lectures[0]!.lectureId };
    const long = await failure('notes:add', {
      ...at,
      kind: 'note',
      positionSeconds: 0,
      title: '',
      body: 'x'.repeat(20_001),
    });
    expect(long).toMatchObject({ code: 'invalid-input', detail: { limit: 'bodyChars' } });
    expect(long.message).toMatch(/at most 20000 characters/);
    expect(
      await failure('notes:add', {
        ...at,
        kind: 'bookmark',
        positionSeconds: 0,
        title: ' ',
        body: '',
      }),
    ).toMatchObject({ code: 'invalid-input', detail: { field: 'title' } });
    expect(
      await failure('notes:add', {
        ...at,
        lectureId: 'not-a-lecture',
        kind: 'bookmark',
        positionSeconds: 0,
        title: 'x',
        body: '',
      }),
    ).toMatchObject({ code: 'not-found' });

    const note = await call('notes:add', {
      ...at,
      kind: 'note',
      positionSeconds: 3,
      title: '',
      body: 'undo me \u202Egnp.exe',
    });
    // The student's text is cleaned as a site's is: no bidi override survives.
    expect(note.body).toBe('undo me gnp.exe');
    expect(await call('notes:delete', { id: note.id })).toEqual({ deleted: true });
    expect((await call('notes:page', {})).total).toBe(0);
    expect(await call('notes:search', { query: 'undo' })).toEqual([]);
    expect((await call('notes:restore', { id: note.id }))?.id).toBe(note.id);
    expect((await call('notes:search', { query: 'undo' })).length).toBe(1);

    const edited = await call('notes:update', {
      id: note.id,
      kind: 'note',
      positionSeconds: 90,
      title: 'Edited',
      body: 'changed text',
    });
    expect(edited).toMatchObject({ title: 'Edited', positionSeconds: 90 });
    expect(await call('notes:search', { query: 'undo' })).toEqual([]);
    expect((await call('notes:search', { query: 'changed' })).length).toBe(1);

    const start = await call('notes:draft', at);
    expect(start.count).toBe(1);
  });
});
