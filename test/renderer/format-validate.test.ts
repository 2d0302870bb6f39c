import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateAddSite, type AddSiteFields } from '../../renderer/src/features/sites/validate';
import { daysUntil, formatDuration, formatMoney, timeLeft } from '../../renderer/src/ui/format';

const locales = {
  en: JSON.parse(readFileSync('renderer/src/i18n/en.json', 'utf8')) as Record<string, unknown>,
  'zh-TW': JSON.parse(readFileSync('renderer/src/i18n/zh-TW.json', 'utf8')) as Record<
    string,
    unknown
  >,
};
const lookup = (tree: Record<string, unknown>, key: string): unknown =>
  key
    .split('.')
    .reduce<unknown>(
      (node, part) =>
        node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined,
      tree,
    );

const fields = (overrides: Partial<AddSiteFields> = {}): AddSiteFields => ({
  baseUrl: 'https://school.example',
  clientId: 'desktop',
  confidential: false,
  clientSecret: '',
  ...overrides,
});

describe('add-site form validation (one rule at a time, each with its own message)', () => {
  it('accepts an https site and a loopback http site', () => {
    expect(validateAddSite(fields())).toEqual({});
    expect(validateAddSite(fields({ baseUrl: 'http://127.0.0.1:4100' }))).toEqual({});
    expect(validateAddSite(fields({ baseUrl: 'http://[::1]:4100' }))).toEqual({});
  });

  it('asks for the application ID only when the student says they have one (the invite link is the usual way)', () => {
    expect(validateAddSite(fields({ clientId: '' })).clientId).toBe(
      'sites.add.errors.clientIdRequired',
    );
    expect(validateAddSite(fields({ clientId: ' ', needsClientId: true })).clientId).toBe(
      'sites.add.errors.clientIdRequired',
    );
    expect(validateAddSite(fields({ clientId: '', needsClientId: false }))).toEqual({});
  });

  it('RFC 8252 §8.3 spirit: plain http only on loopback; other schemes refused', () => {
    expect(validateAddSite(fields({ baseUrl: 'http://school.example' })).baseUrl).toBe(
      'sites.add.errors.urlHttps',
    );
    expect(validateAddSite(fields({ baseUrl: 'ftp://school.example' })).baseUrl).toBe(
      'sites.add.errors.urlHttps',
    );
  });

  it('refuses empty, unparsable and credential-carrying addresses', () => {
    expect(validateAddSite(fields({ baseUrl: '  ' })).baseUrl).toBe('sites.add.errors.urlRequired');
    expect(validateAddSite(fields({ baseUrl: 'school dot example' })).baseUrl).toBe(
      'sites.add.errors.urlInvalid',
    );
    expect(validateAddSite(fields({ baseUrl: 'https://me:pw@school.example' })).baseUrl).toBe(
      'sites.add.errors.urlCredentials',
    );
  });

  it('needs a client_id, and a secret only for a confidential application', () => {
    expect(validateAddSite(fields({ clientId: ' ' })).clientId).toBe(
      'sites.add.errors.clientIdRequired',
    );
    expect(validateAddSite(fields({ confidential: true })).clientSecret).toBe(
      'sites.add.errors.secretRequired',
    );
    expect(validateAddSite(fields({ confidential: true, clientSecret: 's3cret' }))).toEqual({});
    expect(
      validateAddSite(fields({ confidential: false, clientSecret: '' })).clientSecret,
    ).toBeUndefined();
  });

  it('every message it can return exists in English and Traditional Chinese', () => {
    const keys = [
      ...Object.values(validateAddSite(fields({ baseUrl: '', clientId: '', confidential: true }))),
      ...Object.values(validateAddSite(fields({ baseUrl: 'nope' }))),
      ...Object.values(validateAddSite(fields({ baseUrl: 'http://school.example' }))),
      ...Object.values(validateAddSite(fields({ baseUrl: 'https://a:b@school.example' }))),
    ];
    expect(keys).toHaveLength(6);
    for (const [lng, tree] of Object.entries(locales)) {
      for (const key of keys) expect(typeof lookup(tree, key), `${lng}: ${key}`).toBe('string');
    }
  });
});

describe('formatting through Intl', () => {
  it('TWD has no minor unit (ISO 4217 everyday use); USD keeps cents', () => {
    expect(formatMoney(1280, 'TWD', 'en')).not.toContain('.');
    expect(formatMoney(1280, 'TWD', 'en')).toMatch(/1,280/);
    expect(formatMoney(12.5, 'USD', 'en')).toBe('$12.50');
    expect(formatMoney(1280, 'TWD', 'zh-TW')).toMatch(/1,280/);
  });

  it('an unknown currency code still shows the amount', () => {
    expect(formatMoney(5, 'NOT-A-CODE', 'en')).toBe('NOT-A-CODE 5');
  });

  it('durations: mm:ss, then h:mm:ss; never negative', () => {
    expect(formatDuration(754)).toBe('12:34');
    expect(formatDuration(4354)).toBe('1:12:34');
    expect(formatDuration(0)).toBe('00:00');
    expect(formatDuration(-5)).toBe('00:00');
  });

  it('time left and days until a deadline, zero once it has passed', () => {
    const now = Date.parse('2026-11-23T00:00:00.000Z');
    expect(timeLeft('2026-11-24T02:30:00.000Z', now)).toEqual({ days: 1, hours: 2, minutes: 30 });
    expect(timeLeft('2026-11-22T00:00:00.000Z', now)).toEqual({ days: 0, hours: 0, minutes: 0 });
    expect(daysUntil('2026-11-24T00:00:01.000Z', now)).toBe(2);
    expect(daysUntil('2026-11-20T00:00:00.000Z', now)).toBe(0);
  });
});
