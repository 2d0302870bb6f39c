import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Every string the UI shows exists in both languages (a key missing in one falls back to the other,
 * silently).
 */
const load = (lng: string) =>
  JSON.parse(readFileSync(`renderer/src/i18n/${lng}.json`, 'utf8')) as Record<string, unknown>;

function keys(tree: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    v && typeof v === 'object'
      ? keys(v as Record<string, unknown>, `${prefix}${k}.`)
      : [`${prefix}${k}`],
  );
}

describe('translations: English and Traditional Chinese', () => {
  it('have the same keys (plural forms aside: Chinese has only "other", Intl.PluralRules)', () => {
    const base = (k: string) => k.replace(/_(zero|one|two|few|many|other)$/, '');
    const en = [...new Set(keys(load('en')).map(base))];
    const zh = [...new Set(keys(load('zh-TW')).map(base))];
    expect(en.length).toBeGreaterThan(100);
    expect(en.filter((k) => !zh.includes(k))).toEqual([]);
    expect(zh.filter((k) => !en.includes(k))).toEqual([]);
  });

  it('use the same interpolation variables in each string', () => {
    const en = load('en');
    const zh = load('zh-TW');
    const vars = (s: unknown) => [...String(s).matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort();
    const at = (tree: Record<string, unknown>, key: string) =>
      key.split('.').reduce<unknown>((n, p) => (n as Record<string, unknown>)[p], tree);
    const both = keys(en).filter((k) => keys(zh).includes(k));
    expect(both.length).toBeGreaterThan(100);
    const mismatched = both.filter(
      (k) => JSON.stringify(vars(at(en, k))) !== JSON.stringify(vars(at(zh, k))),
    );
    expect(mismatched).toEqual([]);
  });

  it('call the school a school: "site" only in "the school’s site" and the browser’s own words', () => {
    const at = (tree: Record<string, unknown>, key: string) =>
      key.split('.').reduce<unknown>((n, p) => (n as Record<string, unknown>)[p], tree);
    const say = (lng: string, word: RegExp, allowed: RegExp) => {
      const tree = load(lng);
      return keys(tree)
        .map((k) => [k, String(at(tree, k)).replace(/\{\{\s*\w+\s*\}\}/g, '')] as const)
        .filter(([, text]) => word.test(text.replace(allowed, '')))
        .map(([k]) => k);
    };
    expect(
      say('en', /\bsites?\b/i, /school[’']s (own )?sites?|browser[’']s site settings|website/gi),
    ).toEqual([]);
    expect(say('zh-TW', /網站/, /學校的?網站|網站設定/g)).toEqual([]);
  });
});
