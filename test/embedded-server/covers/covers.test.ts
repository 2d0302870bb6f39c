import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { startTestServer } from '../../helpers/server';
import type { EmbeddedServer } from '../../../embedded-server/index';
import { loadMigrations, migrate } from '../../../embedded-server/store/db';
import { absoluteSiteUrl, coverPath } from '../../../embedded-server/covers/paths';
import {
  coverPalette,
  escapeXml,
  layoutTitle,
  renderCoverSvg,
} from '../../../embedded-server/covers/svg';
import { operatorCall, viewerData } from '../member-api/tokens';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const COURSES =
  '{ viewer { enrolledCourses(first: 20) { nodes { id slug title coverImageUrl } } } }';

async function enrolledCourses(server: EmbeddedServer): Promise<Json[]> {
  return (await viewerData(server, COURSES)).enrolledCourses.nodes as Json[];
}

/**
 * A strict well-formedness check of the XML these covers are made of (no XML parser is a dependency
 * here):
 * one <svg> root in the SVG namespace, balanced tags, quoted attributes, no text `<`, and only the
 * five predefined entities or numeric references after `&`.
 */
function expectWellFormedSvg(xml: string): void {
  expect(xml.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  const stack: string[] = [];
  const tag = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>/y;
  let i = 0;
  let roots = 0;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const text = xml.slice(i, lt === -1 ? xml.length : lt);
    expect(text.replace(/&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, '')).not.toMatch(/[&>]/);
    if (lt === -1) break;
    if (stack.length === 0) {
      expect(text.trim()).toBe('');
      roots++;
    }
    tag.lastIndex = lt;
    const m = tag.exec(xml);
    expect(m, `malformed tag at ${lt}: ${xml.slice(lt, lt + 40)}`).not.toBeNull();
    const [whole, closing, name, attrs, selfClosing] = m!;
    expect(attrs!.replace(/&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, '')).not.toMatch(/&/);
    if (closing) expect(stack.pop()).toBe(name);
    else if (!selfClosing) stack.push(name!);
    i = lt + whole.length;
  }
  expect(stack).toEqual([]);
  expect(roots).toBe(1);
  expect(xml.endsWith('</svg>')).toBe(true);
  expect(xml).toMatch(/^<svg [^>]*width="640" height="360" viewBox="0 0 640 360"/);
  // Nothing that could run or fetch anything.
  expect(xml).not.toMatch(/<script|<foreignObject|\son\w+=|href=|javascript:/i);
}

function expectCoverHeaders(res: Response, body: string): void {
  expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
  expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('content-security-policy')).toBe(
    "default-src 'none'; style-src 'unsafe-inline'",
  );
  expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
}

describe('Course covers served by the site itself (README "Course covers")', () => {
  it('member GraphQL coverImageUrl is an absolute URL on the server’s own origin, and it serves the cover', async () => {
    const server = await startTestServer();
    const nodes = await enrolledCourses(server);
    expect(nodes).toHaveLength(8);
    for (const c of nodes) {
      expect(c.coverImageUrl).toBe(`${server.url}/covers/${c.slug}.svg`);
      expect(new URL(c.coverImageUrl).origin).toBe(server.url);
    }
    const course = nodes.find((c) => c.id === 'crs_data_analysis')!;
    const res = await fetch(course.coverImageUrl);
    expect(res.status).toBe(200);
    const svg = await res.text();
    expectCoverHeaders(res, svg);
    expectWellFormedSvg(svg);
    expect(svg).toContain(`<title>${escapeXml(course.title)}</title>`);
    expect(svg).toContain(`aria-label="${escapeXml(course.title)}"`);
    // Deterministic: the same course gives the same bytes.
    expect(await (await fetch(course.coverImageUrl)).text()).toBe(svg);
  });

  it('HEAD answers the same headers without a body', async () => {
    const server = await startTestServer();
    const get = await fetch(`${server.url}/covers/python-for-beginners.svg`);
    const body = await get.text();
    const head = await fetch(`${server.url}/covers/python-for-beginners.svg`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expectCoverHeaders(head, body);
    expect(await head.text()).toBe('');
  });

  it('an unknown slug, a draft, another school’s slug or a name without .svg: 404 like any unknown path', async () => {
    const server = await startTestServer();
    const unknownPath = await fetch(`${server.url}/nope`);
    const unknownBody = (await unknownPath.json()) as Json;
    for (const path of [
      '/covers/no-such-course.svg',
      '/covers/unreleased-draft.svg',
      '/covers/home-baking.svg',
      '/covers/python-for-beginners',
      '/covers/python-for-beginners.png',
    ]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toBe(unknownPath.headers.get('content-type'));
      expect(res.headers.get('cache-control')).toBe('no-store');
      const body = (await res.json()) as Json;
      expect(Object.keys(body).sort()).toEqual(Object.keys(unknownBody).sort());
      expect(body.error).toBe('not_found');
    }
    expect(
      (await fetch(`${server.url}/covers/no-such-course.svg`, { method: 'HEAD' })).status,
    ).toBe(404);
    expect(
      (await fetch(`${server.url}/covers/python-for-beginners.svg`, { method: 'POST' })).status,
    ).toBe(405);
  });

  it('each site serves the covers of its own school (demo2 knows home-baking, not the demo’s courses)', async () => {
    const server = await startTestServer({ site: 'demo2' });
    const nodes = await enrolledCourses(server);
    expect(nodes.map((c) => c.coverImageUrl).sort()).toEqual([
      `${server.url}/covers/guitar-basics.svg`,
      `${server.url}/covers/home-baking.svg`,
    ]);
    const res = await fetch(`${server.url}/covers/home-baking.svg`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<title>Home Baking 居家烘焙</title>');
    expect((await fetch(`${server.url}/covers/python-for-beginners.svg`)).status).toBe(404);
  });

  it('a title with <script>&" (created through the admin API) is XML-escaped and runs nothing', async () => {
    const server = await startTestServer();
    const title = 'Hacking 101 <script>alert("x")</script> & "quotes" \'too\'';
    const created = await operatorCall(server, ['courses:write'])('POST', '/courses', {
      slug: 'hacking-101',
      title,
      published: true,
    });
    expect(created.status).toBe(201);
    const res = await fetch(`${server.url}/covers/hacking-101.svg`);
    expect(res.status).toBe(200);
    const svg = await res.text();
    expectCoverHeaders(res, svg);
    expectWellFormedSvg(svg);
    expect(svg).toContain(
      '<title>Hacking 101 &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;quotes&quot; &apos;too&apos;</title>',
    );
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('& ');
  });

  it('an operator’s absolute cover URL passes through unchanged; a course without a cover stays null', async () => {
    const server = await startTestServer();
    server.db
      .prepare(
        "UPDATE courses SET cover_image_url = 'https://cdn.example.com/covers/python.png?v=2' WHERE id = 'crs_python'",
      )
      .run();
    server.db.prepare("UPDATE courses SET cover_image_url = NULL WHERE id = 'crs_finance'").run();
    const nodes = await enrolledCourses(server);
    expect(nodes.find((c) => c.id === 'crs_python')!.coverImageUrl).toBe(
      'https://cdn.example.com/covers/python.png?v=2',
    );
    expect(nodes.find((c) => c.id === 'crs_finance')!.coverImageUrl).toBeNull();
  });
});

describe('absoluteSiteUrl: stored cover value -> the URL the APIs return', () => {
  const base = 'http://127.0.0.1:4100';
  it('resolves site-relative paths against the base URL; keeps http(s) URLs; null stays null', () => {
    expect(absoluteSiteUrl(coverPath('intro-to-data-analysis'), base)).toBe(
      'http://127.0.0.1:4100/covers/intro-to-data-analysis.svg',
    );
    expect(absoluteSiteUrl('https://cdn.example.com/a.png', base)).toBe(
      'https://cdn.example.com/a.png',
    );
    expect(absoluteSiteUrl('http://images.example.org/b.jpg', base)).toBe(
      'http://images.example.org/b.jpg',
    );
    expect(absoluteSiteUrl(null, base)).toBeNull();
  });

  it('answers null for anything that is neither: other schemes, bare relative paths, paths that leave the origin', () => {
    for (const value of [
      '',
      'javascript:alert(1)',
      'data:image/svg+xml,<svg/>',
      'file:///etc/passwd',
      'covers/a.svg',
      '//evil.example/a.svg',
      '/\\evil.example/a.svg',
      'not a url',
    ]) {
      expect(absoluteSiteUrl(value, base), value).toBeNull();
    }
  });

  it('coverPath encodes the slug as one path segment', () => {
    expect(coverPath('a/b?c')).toBe('/covers/a%2Fb%3Fc.svg');
  });
});

describe('renderCoverSvg (pure, deterministic)', () => {
  it('gives every demo course its own colours, and the same output for the same input', () => {
    const slugs = [
      'intro-to-data-analysis',
      'python-for-beginners',
      'ux-writing-essentials',
      'smartphone-photography',
      'personal-finance-101',
      'machine-learning-in-practice',
      'chinese-calligraphy',
      'digital-marketing-strategy',
    ];
    const palettes = slugs.map((s) => `${coverPalette(s).from}${coverPalette(s).to}`);
    expect(new Set(palettes).size).toBe(slugs.length);
    expect(renderCoverSvg('a', 'Title')).toBe(renderCoverSvg('a', 'Title'));
  });

  it('wraps long titles into a few lines at a smaller size, and ends an overlong one with an ellipsis', () => {
    const short = layoutTitle('Excel');
    expect(short).toEqual({ size: 48, lines: ['Excel'] });
    const long = layoutTitle('Word '.repeat(80).trim());
    expect(long.lines.length).toBeLessThanOrEqual(4);
    expect(long.lines.at(-1)!.endsWith('…')).toBe(true);
    const cjk = layoutTitle('書法入門：從握筆到行書的完整課程，一步一步學會寫出漂亮的中文字');
    expect(cjk.lines.length).toBeGreaterThan(1);
    expect(cjk.lines.join('')).toBe(
      '書法入門：從握筆到行書的完整課程，一步一步學會寫出漂亮的中文字',
    );
  });

  it('drops characters XML cannot carry, so the document stays well-formed', () => {
    const svg = renderCoverSvg('ctl', 'Bell\u0007 and \uFFFF lone \uD800 surrogate');
    expectWellFormedSvg(svg);
    expect(svg).toContain('<title>Bell and  lone  surrogate</title>');
  });
});

describe('Migration 004: seeded external covers move to the site’s own /covers (ARCHITECTURE example 9)', () => {
  it('rewrites exactly the value the old demo seed wrote and leaves every other cover alone', () => {
    const db = new Database(':memory:');
    try {
      const migrations = loadMigrations();
      const index = migrations.findIndex((m) => m.name === '004-local-covers.sql');
      expect(index).toBe(3);
      migrate(db, migrations.slice(0, index));
      db.prepare(
        "INSERT INTO schools (id, name, subdomain, created_at) VALUES ('sch_demo', 'Demo School', 'demo', 0)",
      ).run();
      const insert = db.prepare(
        "INSERT INTO courses (id, school_id, slug, title, cover_image_url, price, currency, is_published, created_at) VALUES (?, 'sch_demo', ?, ?, ?, 0, 'TWD', 1, 0)",
      );
      insert.run(
        'crs_a',
        'python-for-beginners',
        'Python',
        'https://picsum.photos/seed/python-for-beginners/640/360',
      );
      insert.run(
        'crs_b',
        'excel-dashboards',
        'Excel',
        'https://picsum.photos/seed/another-slug/640/360',
      );
      insert.run('crs_c', 'finance', 'Finance', 'https://cdn.example.com/finance.png');
      insert.run('crs_d', 'no-cover', 'None', null);
      migrate(db, migrations);
      const covers = Object.fromEntries(
        (
          db.prepare('SELECT id, cover_image_url FROM courses ORDER BY id').all() as {
            id: string;
            cover_image_url: string | null;
          }[]
        ).map((r) => [r.id, r.cover_image_url]),
      );
      expect(covers).toEqual({
        crs_a: '/covers/python-for-beginners.svg',
        crs_b: 'https://picsum.photos/seed/another-slug/640/360',
        crs_c: 'https://cdn.example.com/finance.png',
        crs_d: null,
      });
    } finally {
      db.close();
    }
  });
});
