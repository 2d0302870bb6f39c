import { describe, expect, it } from 'vitest';
import type { EmbeddedServer } from '../../../embedded-server/index';
import { startTestServer } from '../../helpers/server';
import { ScriptedBrowser, parseForms, type BrowserPage } from '../../helpers/scripted-browser';

async function open(browser: ScriptedBrowser, url: string): Promise<BrowserPage> {
  const r = await browser.navigate(url);
  if (!('page' in r)) throw new Error('expected a page');
  return r.page;
}

/**
 * A browser that opened `path` signed out, was sent to the sign-in page, signed in and came back.
 */
async function signedIn(
  server: EmbeddedServer,
  path: string,
  email = 'student@example.com',
  password = 'student-demo',
): Promise<{ browser: ScriptedBrowser; page: BrowserPage }> {
  const browser = new ScriptedBrowser();
  const signIn = await open(browser, `${server.url}${path}`);
  expect(signIn.url).toBe(`${server.url}/sign-in?return_to=${encodeURIComponent(path)}`);
  const r = await browser.submit(signIn.url, parseForms(signIn.html)[0]!, { email, password });
  if (!('page' in r)) throw new Error('expected a page');
  return { browser, page: r.page };
}

const enrollment = (server: EmbeddedServer, courseId: string) =>
  server.db
    .prepare(
      'SELECT last_lecture_id AS lecture, last_position_seconds AS position FROM enrollments WHERE user_id = ? AND course_id = ?',
    )
    .get('usr_student', courseId) as {
    lecture: string;
    position: number;
  };

describe('student pages (README "Decisions (student pages)")', () => {
  it('a lecture page, reached signed out, signs in first and then shows where playback resumes', async () => {
    const server = await startTestServer({ seed: 'demo' });
    const last = enrollment(server, 'crs_data_analysis');
    const { page, browser } = await signedIn(
      server,
      `/courses/intro-to-data-analysis/lectures/${last.lecture}?t=312`,
    );
    expect(page.status).toBe(200);
    expect(page.url).toBe(
      `${server.url}/courses/intro-to-data-analysis/lectures/${last.lecture}?t=312`,
    );
    expect(page.html).toContain(`data-lecture-id="${last.lecture}"`);
    expect(page.html).toMatch(/Playback resumes at 5:12 of \d+:\d\d\./);
    // Without t, the member's own last position on that lecture.
    const own = await open(
      browser,
      `${server.url}/courses/intro-to-data-analysis/lectures/${last.lecture}`,
    );
    expect(own.html).toContain(`data-position="${last.position}"`);
    // The course page lists its lectures, linked.
    const course = await open(browser, `${server.url}/courses/intro-to-data-analysis`);
    expect(course.status).toBe(200);
    expect(course.html).toContain(
      `href="/courses/intro-to-data-analysis/lectures/${last.lecture}"`,
    );
  });

  it('says a locked lecture is locked until its date, and an ended course that access ended', async () => {
    const server = await startTestServer({ seed: 'demo' });
    const locked = server.db
      .prepare(
        "SELECT l.id FROM lectures l WHERE l.course_id = 'crs_machine_learning' AND l.unlock_at IS NOT NULL LIMIT 1",
      )
      .pluck()
      .get() as string;
    const { browser, page } = await signedIn(
      server,
      `/courses/machine-learning-in-practice/lectures/${locked}`,
    );
    expect(page.status).toBe(403);
    expect(page.html).toMatch(/locked until \d{4}-\d\d-\d\d/);
    const expired = await open(
      browser,
      `${server.url}/courses/smartphone-photography/lectures/${enrollment(server, 'crs_photography').lecture}`,
    );
    expect(expired.status).toBe(403);
    expect(expired.html).toMatch(/Your access ended on \d{4}-\d\d-\d\d/);
  });

  it('shows an order and a consulting service of the member; what is not theirs is not found', async () => {
    const server = await startTestServer({ seed: 'demo' });
    const { browser, page } = await signedIn(server, '/orders/T202611000004');
    expect(page.status).toBe(200);
    expect(page.html).toContain('82219900012345');
    expect((await open(browser, `${server.url}/orders/T-nobody`)).status).toBe(404);
    expect((await open(browser, `${server.url}/consulting/csv_data_mentoring`)).html).toContain(
      'Data Analysis Mentoring',
    );
    expect((await open(browser, `${server.url}/courses/no-such-course`)).status).toBe(404);
    // The operator holds no enrolment and no order: the same pages are "not found" for them.
    const owner = await signedIn(
      server,
      '/orders/T202611000004',
      'owner@example.com',
      'owner-demo',
    );
    expect(owner.page.status).toBe(404);
    expect((await open(owner.browser, `${server.url}/courses/intro-to-data-analysis`)).status).toBe(
      404,
    );
  });

  it('escapes what it shows and runs no script (strict CSP)', async () => {
    const server = await startTestServer({ seed: 'demo' });
    server.db
      .prepare(
        "UPDATE courses SET title = '<img src=x onerror=alert(1)>' WHERE id = 'crs_data_analysis'",
      )
      .run();
    const { page, browser } = await signedIn(server, '/courses/intro-to-data-analysis');
    expect(page.html).not.toContain('<img src=x');
    expect(page.html).toContain('&lt;img src=x');
    const res = await browser.request(`${server.url}/courses/intro-to-data-analysis`);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
  });
});
