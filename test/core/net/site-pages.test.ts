import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkExternalUrl, externalUrlProblem } from '../../../electron/core/net/external-url';
import { sitePageUrl, type SitePage } from '../../../electron/core/net/site-pages';

describe('an address that leaves the app for a site (ARCHITECTURE "Data from a site is untrusted input")', () => {
  const refused = 'only https, or http on this computer, without a user name or password';
  it('passes the shared check (https, or http on loopback per RFC 8252 §8.3, no credentials) and stays on the site’s origin', () => {
    expect(externalUrlProblem('https://school.example/courses/a')).toBeNull();
    expect(
      externalUrlProblem('http://127.0.0.1:4100/courses/a', 'http://127.0.0.1:4100'),
    ).toBeNull();
    expect(externalUrlProblem('http://[::1]:4100/x')).toBeNull();
    expect(externalUrlProblem('http://school.example/x')).toBe(refused);
    expect(externalUrlProblem('javascript:alert(1)')).toBe(refused);
    expect(externalUrlProblem('file:///etc/passwd')).toBe(refused);
    expect(externalUrlProblem('not a url')).toBe(refused);
    expect(externalUrlProblem('https://user:pw@school.example/')).toBe(refused);
    expect(externalUrlProblem('https://school.example.evil/x', 'https://school.example')).toBe(
      'another site',
    );
    expect(externalUrlProblem('https://school.example:8443/x', 'https://school.example')).toBe(
      'another site',
    );
    expect(externalUrlProblem('http://127.0.0.1:4101/x', 'http://127.0.0.1:4100')).toBe(
      'another site',
    );
    expect(() => checkExternalUrl('http://school.example/')).toThrow(/cannot be opened/);
  });
});

describe('the school’s pages (embedded-server README "Decisions (student pages)")', () => {
  const base = 'https://school.example';
  it('puts a course by slug, a lecture with its position, an order and a service under the base URL', () => {
    expect(sitePageUrl(base, { kind: 'course', slug: 'intro' })).toBe(
      'https://school.example/courses/intro',
    );
    expect(
      sitePageUrl(base, {
        kind: 'lecture',
        slug: 'intro',
        lectureId: 'lec_1',
        positionSeconds: 312.7,
      }),
    ).toBe('https://school.example/courses/intro/lectures/lec_1?t=312');
    expect(
      sitePageUrl(base, { kind: 'lecture', slug: 'intro', lectureId: 'lec_1', positionSeconds: 0 }),
    ).toBe('https://school.example/courses/intro/lectures/lec_1');
    expect(sitePageUrl(`${base}/`, { kind: 'order', tradeNo: 'T 1/2' })).toBe(
      'https://school.example/orders/T%201%2F2',
    );
    expect(
      sitePageUrl('https://school.example/academy', { kind: 'consulting', serviceId: 'csv_1' }),
    ).toBe('https://school.example/academy/consulting/csv_1');
    expect(() => sitePageUrl(base, { kind: 'course', slug: '..' })).toThrow(/dot-segment/);
    expect(() =>
      sitePageUrl(base, { kind: 'lecture', slug: 'a', lectureId: '.', positionSeconds: 0 }),
    ).toThrow(/dot-segment/);
  });

  it('never leaves the site’s origin or path, whatever the site’s ids hold', () => {
    const id = fc.string({
      minLength: 1,
      maxLength: 40,
      unit: fc.constantFrom('a', '.', '/', '\\', '?', '#', '@', ':', '%', ' ', '\u0000', 'é', '..'),
    });
    const page: fc.Arbitrary<SitePage> = fc.oneof(
      id.map((slug) => ({ kind: 'course', slug }) as const),
      fc
        .tuple(id, id, fc.integer({ min: -5, max: 99_999 }))
        .map(
          ([slug, lectureId, positionSeconds]) =>
            ({ kind: 'lecture', slug, lectureId, positionSeconds }) as const,
        ),
      id.map((tradeNo) => ({ kind: 'order', tradeNo }) as const),
      id.map((serviceId) => ({ kind: 'consulting', serviceId }) as const),
    );
    const prefix = {
      course: '/academy/courses/',
      lecture: '/academy/courses/',
      order: '/academy/orders/',
      consulting: '/academy/consulting/',
    };
    fc.assert(
      fc.property(page, (p) => {
        let built: string;
        try {
          built = sitePageUrl('https://school.example/academy', p);
        } catch (error) {
          // Only a dot-segment id is refused.
          expect(String(error)).toMatch(/dot-segment/);
          return;
        }
        const url = new URL(built);
        expect(url.origin).toBe('https://school.example');
        expect(url.pathname.startsWith(prefix[p.kind])).toBe(true);
        expect(url.pathname.split('/').length).toBe(p.kind === 'lecture' ? 6 : 4);
        expect(url.hash).toBe('');
      }),
    );
  });

  it('refuses a base URL that could not leave the app', () => {
    expect(() => sitePageUrl('http://school.example', { kind: 'course', slug: 'a' })).toThrow(
      /only https/,
    );
  });
});
