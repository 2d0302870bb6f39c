import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../electron/core/app-core';
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

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const HOSTILE = '<img src=x onerror=alert(1)><script>alert(2)</script>';

/**
 * A school's archive from a real site and core: one folder with index.html (courses with outlines,
 * progress and dates, notes, purchases with receipts and payments, products, events, notices),
 * archive.json, the notes as Markdown and the receipts. Never a token, and what the site (or the
 * student) wrote as markup is text.
 */
describe('a school archive (real site, real core)', () => {
  let dir: string;
  let server: EmbeddedServer;
  let core: AppCore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ld-archive-'));
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

  it('holds the school in a folder that opens offline, with no secret and no markup', async () => {
    const first = server.db.prepare('SELECT id FROM courses ORDER BY id LIMIT 1').get() as {
      id: string;
    };
    server.db
      .prepare('UPDATE courses SET title = ? WHERE id = ?')
      .run(`Hostile ${HOSTILE}`, first.id);
    const site = await signedInSite(core, server.url);
    await call('sync:now', { siteId: site.id });
    const course = await call('course:get', { siteId: site.id, courseId: first.id });
    const lecture = course.sections[0]!.lectures[0]!;
    await call('notes:add', {
      siteId: site.id,
      courseId: first.id,
      lectureId: lecture.lectureId,
      kind: 'note',
      positionSeconds: 754,
      title: `Mine ${HOSTILE}`,
      body: `=HYPERLINK("http://evil")\n${HOSTILE}`,
    });

    const made = await call('archive:site', {
      siteId: site.id,
      language: 'en',
    });
    if (made.cancelled) throw new Error('the archive was not cancelled');
    const folder = join(dir, 'app', 'Archives', made.folder);
    const files = filesUnder(folder).map((f) => relative(folder, f).split('\\').join('/'));
    expect(files).toContain('index.html');
    expect(files).toContain('archive.json');
    expect(files.some((f) => /^notes\/notes-.*\.md$/.test(f))).toBe(true);
    expect(files.some((f) => /^receipts\/receipt-.*\.html$/.test(f))).toBe(true);
    expect(files).toHaveLength(made.files);

    const index = readFileSync(join(folder, 'index.html'), 'utf8');
    const courses = await call('library:list', { siteId: site.id });
    for (const c of courses.filter((x) => !x.title.includes('<')))
      expect(index).toContain(c.title.replace(/&/g, '&amp;'));
    expect(index).toContain(lecture.title.replace(/&/g, '&amp;'));
    expect(index).toContain('12:34');
    // No script, no image, no request: the page's CSP forbids them, and nothing of the site's or
    // student's markup is markup.
    expect(index).toContain("default-src 'none'");
    for (const f of files.filter((x) => x.endsWith('.html'))) {
      const html = readFileSync(join(folder, f), 'utf8');
      expect(html, f).not.toMatch(/<script|<img|<iframe/i);
    }
    expect(index).toContain('&lt;img src=x onerror=alert(1)&gt;');

    const json = JSON.parse(readFileSync(join(folder, 'archive.json'), 'utf8')) as {
      courses: { courseId: string; sections: unknown[]; notes: unknown[] }[];
      orders: unknown[];
      notices: unknown[];
    };
    expect(json.courses.length).toBe(courses.length);
    expect(json.courses.find((c) => c.courseId === first.id)!.notes).toHaveLength(1);
    expect(json.orders.length).toBeGreaterThan(0);

    // Never a secret: no token, no key, not even the word the vault stores them under.
    for (const f of files) {
      const text = readFileSync(join(folder, f), 'utf8');
      expect(text, f).not.toMatch(
        /eyJ[A-Za-z0-9_-]{8,}\.|access_token|refresh_token|accessToken|refreshToken|client_secret/,
      );
    }
  });
});
