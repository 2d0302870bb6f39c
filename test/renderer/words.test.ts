import i18next from 'i18next';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatBytes } from '../../renderer/src/features/downloads/format';
import { intervalLabel } from '../../renderer/src/features/settings/labels';
import { formatRelative } from '../../renderer/src/ui/format';

/**
 * The UI's words with the app's own strings and i18next's plural rules (not a stand-in dictionary).
 */
const load = (lng: string) =>
  JSON.parse(readFileSync(`renderer/src/i18n/${lng}.json`, 'utf8')) as Record<string, unknown>;

beforeAll(async () => {
  await i18next.init({
    lng: 'en',
    fallbackLng: 'en',
    resources: { en: { translation: load('en') }, 'zh-TW': { translation: load('zh-TW') } },
  });
});

describe('the words a student reads', () => {
  it('counts bytes with plural rules: "0 bytes", "1 byte", never "0 byte"', () => {
    expect(formatBytes(0, 'en')).toBe('0 bytes');
    expect(formatBytes(1, 'en')).toBe('1 byte');
    expect(formatBytes(512, 'en')).toBe('512 bytes');
    expect(formatBytes(0, 'zh-TW')).toBe('0 位元組');
    expect(formatBytes(2048, 'en')).toBe(
      new Intl.NumberFormat('en', { style: 'unit', unit: 'kilobyte', unitDisplay: 'short' }).format(
        2,
      ),
    );
  });

  it('says an interval of whole hours in hours: "Every 4 hours", not "Every 240 minutes"', () => {
    const en = i18next.getFixedT('en');
    const zh = i18next.getFixedT('zh-TW');
    expect(intervalLabel(240, en)).toBe('Every 4 hours');
    expect(intervalLabel(60, en)).toBe('Every hour');
    expect(intervalLabel(15, en)).toBe('Every 15 minutes');
    expect(intervalLabel(240, zh)).toBe('每 4 小時');
    expect(intervalLabel(0, en)).toBe(en('settings.sync.off'));
  });

  it('says a sync a moment ago is 「剛剛」 in Chinese (「現在同步」 reads as "sync now")', () => {
    const now = Date.parse('2026-11-28T04:05:00.000Z');
    expect(formatRelative(new Date(now - 5_000).toISOString(), now, 'zh-TW')).toBe('剛剛');
    expect(
      i18next.t('sync.lastSynced', {
        lng: 'zh-TW',
        when: formatRelative(new Date(now).toISOString(), now, 'zh-TW'),
      }),
    ).not.toContain('現在');
    expect(formatRelative(new Date(now - 5_000).toISOString(), now, 'en')).toBe('now');
  });

  it('uses full-width brackets only in the Chinese strings', () => {
    const strings: string[] = [];
    const walk = (t: Record<string, unknown>) =>
      Object.values(t).forEach((v) =>
        typeof v === 'string' ? strings.push(v) : walk(v as Record<string, unknown>),
      );
    walk(load('zh-TW'));
    expect(strings.filter((s) => /[()]/.test(s) && /[\u4e00-\u9fff]/.test(s))).toEqual([]);
    // A bracket the screen adds around Chinese words is the string's own, so it is full-width too.
    expect(i18next.t('billing.instructions.bankCode', { lng: 'zh-TW', code: '812' })).toBe(
      '（銀行代碼 812）',
    );
  });
});
