import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatDateTimeRange,
  formatDateTimeSeconds,
} from '../../renderer/src/ui/format';

/**
 * Every date the app writes in Traditional Chinese is in one style, 2026年11月28日: the short style
 * (2026/11/28) read as another kind of date beside it on the AI activity view.
 */
const AT = '2026-11-28T04:05:06.000Z';
const SLASHED = /\d{1,4}\/\d{1,2}(\/\d{1,4})?/;

describe('one date style', () => {
  it('writes year, month and day in words in zh-TW, whichever precision', () => {
    for (const text of [
      formatDate(AT, 'zh-TW'),
      formatDateTime(AT, 'zh-TW'),
      formatDateTimeSeconds(AT, 'zh-TW'),
    ]) {
      expect(text).toMatch(/2026年11月28日/);
      expect(text).not.toMatch(SLASHED);
    }
    expect(formatDateTimeSeconds(AT, 'zh-TW')).toMatch(/\d{1,2}:05:06/);
  });

  it('keeps the same date in English, to the second where asked', () => {
    expect(formatDateTimeSeconds(AT, 'en')).toContain(formatDate(AT, 'en'));
    expect(formatDateTimeSeconds(AT, 'en')).toMatch(/:05:06/);
    expect(formatDateTimeSeconds('not a date', 'en')).toBe(formatDate('not a date', 'en'));
  });
});

describe('one date style in a range', () => {
  it('writes a range of one day and of two days with the date in words in zh-TW', () => {
    const oneDay = formatDateTimeRange('2026-12-03T03:55:00Z', '2026-12-03T05:25:00Z', 'zh-TW');
    expect(oneDay).not.toMatch(SLASHED);
    expect(oneDay.match(/年/g)).toHaveLength(1);
    const twoDays = formatDateTimeRange('2026-12-03T03:55:00Z', '2026-12-05T05:25:00Z', 'zh-TW');
    expect(twoDays).not.toMatch(SLASHED);
    expect(twoDays.match(/年/g)).toHaveLength(2);
  });

  it('shows the start alone for an end before it, and unknown for no start', () => {
    const start = '2026-12-03T03:55:00Z';
    expect(formatDateTimeRange(start, '2026-12-01T00:00:00Z', 'en')).toBe(
      formatDateTime(start, 'en'),
    );
    expect(formatDateTimeRange('nope', start, 'en')).toBe(formatDate('nope', 'en'));
  });
});
