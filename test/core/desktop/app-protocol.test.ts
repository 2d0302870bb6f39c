import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_INDEX_URL,
  APP_ORIGIN,
  APP_SCHEME_PRIVILEGES,
  CONTENT_SECURITY_POLICY,
  isAppUrl,
  resolveAppRequest,
  serveAppRequest,
  type Refusal,
} from '../../../electron/core/desktop/app-protocol';

/**
 * The app:// scheme handler's decisions (Electron security checklist #18: a custom protocol instead
 * of file://), on a real folder laid out like the renderer build, with a secret file beside it that
 * must stay unreachable.
 */
let base: string;
let root: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'ld-app-protocol-'));
  root = join(base, 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Learning Desktop</title>');
  writeFileSync(join(root, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(join(root, 'assets', 'index-abc.css'), 'body{}');
  writeFileSync(join(root, 'assets', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(root, 'assets', 'index-abc.js.map'), '{}');
  writeFileSync(join(root, '.env'), 'SECRET=1');
  // Beside the renderer, as in out/: the main bundle and the user's data must never be served.
  writeFileSync(join(base, 'secret.json'), '{"refresh_token":"rt-secret"}');
  mkdirSync(join(root, 'linked'));
  symlinkSync(join(base, 'secret.json'), join(root, 'linked', 'leak.json'));
  symlinkSync(base, join(root, 'up'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const serve = async (url: string, method?: string) => {
  const refusals: Refusal[] = [];
  const response = await serveAppRequest(root, { url, ...(method ? { method } : {}) }, (r) =>
    refusals.push(r),
  );
  return { ...response, refusals, text: response.body?.toString('utf8') ?? null };
};

describe('app:// scheme: what is served', () => {
  it('serves index.html at the origin and at /index.html, as HTML', async () => {
    for (const url of [`${APP_ORIGIN}/`, APP_INDEX_URL]) {
      const r = await serve(url);
      expect(r.status).toBe(200);
      expect(r.headers['Content-Type']).toBe('text/html; charset=utf-8');
      expect(r.text).toContain('<title>Learning Desktop</title>');
    }
  });

  it.each([
    ['assets/index-abc.js', 'text/javascript; charset=utf-8'],
    ['assets/index-abc.css', 'text/css; charset=utf-8'],
    ['assets/logo.svg', 'image/svg+xml'],
  ])('serves %s as %s', async (path, type) => {
    const r = await serve(`${APP_ORIGIN}/${path}`);
    expect(r.status).toBe(200);
    expect(r.headers['Content-Type']).toBe(type);
  });

  it('ignores the query and the fragment', async () => {
    expect((await serve(`${APP_ORIGIN}/assets/index-abc.js?v=2#x`)).status).toBe(200);
  });

  it('answers HEAD with the headers and no body', async () => {
    const r = await serve(APP_INDEX_URL, 'HEAD');
    expect(r.status).toBe(200);
    expect(r.body).toBeNull();
    expect(Number(r.headers['Content-Length'])).toBeGreaterThan(0);
  });
});

describe('app:// scheme: its privileges', () => {
  it('is standard and secure, keeps V8 code between launches (only a standard scheme can), streams media, and widens nothing else', () => {
    expect(APP_SCHEME_PRIVILEGES).toEqual({
      standard: true,
      secure: true,
      supportFetchAPI: true,
      codeCache: true,
      stream: true,
    });
  });
});

describe('app:// scheme: which URLs are the app’s own', () => {
  it('knows its URLs by scheme and host, since the URL Standard gives app: an opaque origin ("null")', () => {
    // The comparison the host once made: false for every app:// URL, so saved files were never
    // served.
    expect(new URL(`${APP_ORIGIN}/saved-files/x`).origin).toBe('null');
    expect(isAppUrl(new URL(`${APP_ORIGIN}/saved-files/s/p/v/a.pdf`))).toBe(true);
    expect(isAppUrl(new URL(APP_INDEX_URL))).toBe(true);
    for (const other of [
      'app://elsewhere/saved-files/x',
      'https://learning-desktop/saved-files/x',
      'app://learning-desktop:8080/x',
      'file:///saved-files/x',
    ]) {
      expect(isAppUrl(new URL(other)), other).toBe(false);
    }
  });
});

describe('app:// scheme: every answer carries the CSP', () => {
  it.each([
    APP_INDEX_URL,
    `${APP_ORIGIN}/assets/index-abc.js`,
    `${APP_ORIGIN}/missing.js`,
    `${APP_ORIGIN}/../secret.json`,
    'app://elsewhere/index.html',
  ])('%s', async (url) => {
    const r = await serve(url);
    expect(r.headers['Content-Security-Policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(r.headers['X-Content-Type-Options']).toBe('nosniff');
  });

  it('the policy allows scripts from the app only and no framing', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
  });
});

describe('app:// scheme: path traversal and anything outside the renderer is refused', () => {
  it.each([
    `${APP_ORIGIN}/../secret.json`,
    `${APP_ORIGIN}/assets/../../secret.json`,
    `${APP_ORIGIN}/%2e%2e/secret.json`,
    `${APP_ORIGIN}/assets/%2E%2E/%2e%2e/secret.json`,
    `${APP_ORIGIN}/..%2fsecret.json`,
    `${APP_ORIGIN}/..%2Fsecret.json`,
    `${APP_ORIGIN}/..%5csecret.json`,
    `${APP_ORIGIN}/assets%5c..%5c..%5csecret.json`,
    `${APP_ORIGIN}/%2e%2e%2f%2e%2e%2fetc%2fpasswd`,
    `${APP_ORIGIN}/C:%5cWindows%5cwin.ini`,
    `${APP_ORIGIN}/index.html%00.js`,
  ])('%s', async (url) => {
    const r = await serve(url);
    expect([403, 404]).toContain(r.status);
    expect(r.text).toBeNull();
    expect(r.refusals).toHaveLength(1);
  });

  it('a symlink inside the build that leads out of it is refused (its real path is checked)', async () => {
    const r = await serve(`${APP_ORIGIN}/linked/leak.json`);
    expect(r.status).toBe(403);
    expect(r.refusals[0]?.reason).toMatch(/link/);
    expect((await serve(`${APP_ORIGIN}/up/secret.json`)).status).toBe(403);
  });

  it('hidden files, source maps and unknown types are not renderer files', async () => {
    expect((await serve(`${APP_ORIGIN}/.env`)).status).toBe(404);
    expect((await serve(`${APP_ORIGIN}/assets/index-abc.js.map`)).status).toBe(404);
  });

  it('a folder or a missing file is 404', async () => {
    expect((await serve(`${APP_ORIGIN}/assets`)).status).toBe(404);
    expect((await serve(`${APP_ORIGIN}/assets/`)).status).toBe(404);
    expect((await serve(`${APP_ORIGIN}/nope.js`)).status).toBe(404);
  });

  it('another scheme or host is not ours', () => {
    expect(resolveAppRequest(root, 'file:///etc/passwd')).toMatchObject({ status: 403 });
    expect(resolveAppRequest(root, 'app://other-host/index.html')).toMatchObject({ status: 403 });
    expect(resolveAppRequest(root, 'https://learning-desktop/index.html')).toMatchObject({
      status: 403,
    });
    expect(resolveAppRequest(root, 'not a url')).toMatchObject({ status: 400 });
    expect(resolveAppRequest(root, `${APP_ORIGIN}/%E0%A4%A`)).toMatchObject({ status: 400 });
  });

  it('only GET and HEAD', () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS'])
      expect(resolveAppRequest(root, APP_INDEX_URL, method)).toMatchObject({ status: 405 });
  });
});
