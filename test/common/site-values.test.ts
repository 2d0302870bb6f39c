import { describe, expect, it } from 'vitest';
import {
  distinctSiteLabel,
  knownOr,
  labelsNeedingHost,
  siteParagraphs,
  siteText,
} from '../../electron/common/site-values';

describe('site text is shown without what could reorder or hide it (UAX #9, Unicode TR36)', () => {
  it('drops bidi overrides, embeddings, isolates and marks', () => {
    // "invoice_\u202Efdp.exe" reads "invoice_exe.pdf" with the override.
    expect(siteText('invoice_\u202Efdp.exe')).toBe('invoice_fdp.exe');
    expect(siteText('\u2066A\u2069\u200E\u200F\u061C\u202A\u202B\u202C\u202D')).toBe('A');
  });

  it('drops zero-width and invisible characters, keeps joiners inside emoji and scripts that need them', () => {
    expect(siteText('Demo\u200B School\uFEFF\u2060\u00AD')).toBe('Demo School');
    expect(siteText('Demo\u200D School\u200C')).toBe('Demo School');
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    expect(siteText(family)).toBe(family);
    const persian = 'می\u200Cخواهم';
    expect(siteText(persian)).toBe(persian);
    // Tag characters only as a subdivision flag's letters.
    const england = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}';
    expect(siteText(england)).toBe(england);
    expect(siteText('A\u{E0041}B')).toBe('AB');
  });

  it('makes one line of a title, keeps the lines of a body, and never throws on a non-string', () => {
    expect(siteText('a\r\nb\u2028c\u0085d\u0007')).toBe('a b c d');
    expect(siteParagraphs('a\r\nb\u2029c')).toBe('a\nb\nc');
    expect(siteText({ zh: '課程' })).toBe('');
    expect(siteText(42)).toBe('42');
    expect(siteText(null)).toBe('');
  });

  it('an enum value this version does not know is "unknown", a prototype name included', () => {
    expect(knownOr('paid', ['paid', 'failed'])).toBe('paid');
    expect(knownOr('jko_pay', ['paid', 'failed'])).toBe('unknown');
    expect(knownOr('constructor', ['paid', 'failed'])).toBe('unknown');
    expect(knownOr(7, ['paid'])).toBe('unknown');
  });
});

describe('a site label that could pass for another site shows its host', () => {
  const a = { id: 'a', label: 'Demo School', baseUrl: 'https://school.example.com' };
  it('a second site copying a label, by case, width or invisible characters: both show their host', () => {
    const copy = { id: 'b', label: 'ＤＥＭＯ\u200B  school', baseUrl: 'https://evil.example.net' };
    expect(labelsNeedingHost([a, copy])).toEqual(
      new Map([
        ['a', 'school.example.com'],
        ['b', 'evil.example.net'],
      ]),
    );
  });
  it('a label naming another host shows its own host; a distinct label shows none', () => {
    const named = { id: 'c', label: 'school.example.com', baseUrl: 'http://127.0.0.1:4000' };
    const own = { id: 'd', label: 'tw.example.org', baseUrl: 'https://tw.example.org' };
    expect(labelsNeedingHost([a, named, own])).toEqual(new Map([['c', '127.0.0.1:4000']]));
  });
  it('text outside the screens (an OS notification) carries the same host in brackets, and only then', () => {
    const copy = { id: 'b', label: 'Demo School', baseUrl: 'http://127.0.0.1:4001' };
    const other = { id: 'e', label: 'Other School', baseUrl: 'https://other.example' };
    expect(distinctSiteLabel(copy, [a, copy, other])).toBe('Demo School (127.0.0.1:4001)');
    expect(distinctSiteLabel(a, [a, copy, other])).toBe('Demo School (school.example.com)');
    expect(distinctSiteLabel(other, [a, copy, other])).toBe('Other School');
    expect(distinctSiteLabel(a, [a, other])).toBe('Demo School');
  });
});
