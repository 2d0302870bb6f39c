import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nextStepKey } from '../../renderer/src/ui/error-text';

/** The next step the student reads follows what the core says went wrong, in both languages. */
const load = (lng: string) =>
  JSON.parse(readFileSync(`renderer/src/i18n/${lng}.json`, 'utf8')) as Record<string, unknown>;
const at = (tree: Record<string, unknown>, key: string): unknown =>
  key.split('.').reduce<unknown>((n, p) => (n as Record<string, unknown> | undefined)?.[p], tree);

describe('next-step hints', () => {
  for (const lng of ['en', 'zh-TW']) {
    const tree = load(lng);
    const text = (code: string, detail?: Record<string, string>) =>
      at(
        tree,
        nextStepKey(code, detail, (k: string) => typeof at(tree, k) === 'string'),
      ) as string;

    it(`${lng}: an algorithm mismatch is not "check the clock"; an expired token is`, () => {
      expect(text('id-token-invalid', { hint: 'algorithm' })).toBe(
        at(tree, 'errors.id-token-invalid.hints.algorithm'),
      );
      expect(text('id-token-invalid', { hint: 'algorithm' })).not.toBe(
        text('id-token-invalid', { hint: 'clock' }),
      );
      expect(text('id-token-invalid')).not.toBe(text('id-token-invalid', { hint: 'clock' }));
    });

    it(`${lng}: a server error is not "check the application ID"; invalid_client is`, () => {
      expect(text('sign-in-failed', { hint: 'server' })).not.toBe(
        text('sign-in-failed', { hint: 'client' }),
      );
      expect(text('sign-in-failed')).not.toBe(text('sign-in-failed', { hint: 'client' }));
    });

    it(`${lng}: an unknown hint falls back to the code's own next step`, () => {
      expect(text('sign-in-failed', { hint: 'no-such-hint' })).toBe(
        at(tree, 'errors.sign-in-failed.next'),
      );
      expect(text('forbidden', { hint: 'clock' })).toBe(at(tree, 'errors.forbidden.next'));
    });
  }

  it('English wording: the clock hint names the clock, the algorithm and server hints do not', () => {
    const en = load('en');
    expect(at(en, 'errors.id-token-invalid.hints.clock')).toMatch(/clock|time/);
    expect(at(en, 'errors.id-token-invalid.hints.algorithm')).not.toMatch(/clock/);
    expect(at(en, 'errors.id-token-invalid.next')).not.toMatch(/clock/);
    expect(at(en, 'errors.sign-in-failed.hints.server')).not.toMatch(/application ID/);
    expect(at(en, 'errors.sign-in-failed.next')).not.toMatch(/application ID/);
    expect(at(en, 'errors.sign-in-failed.hints.client')).toMatch(/application ID/);
  });
});
