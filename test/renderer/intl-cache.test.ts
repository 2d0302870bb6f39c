import { describe, expect, it } from 'vitest';
import { dateTimeFormat, numberFormat, relativeTimeFormat } from '../../renderer/src/ui/intl-cache';
import { formatDateTime, formatRelative } from '../../renderer/src/ui/format';

/**
 * Intl formatters are made once per language and options (renderer/src/ui/intl-cache.ts), and
 * format as a new one would.
 */
describe('Intl formatters made once', () => {
  it('gives the same formatter for the same language and options, another for others', () => {
    const options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
    expect(dateTimeFormat('en', options)).toBe(dateTimeFormat('en', { ...options }));
    expect(dateTimeFormat('en', options)).not.toBe(dateTimeFormat('zh-TW', options));
    expect(dateTimeFormat('en', options)).not.toBe(dateTimeFormat('en', { dateStyle: 'medium' }));
    expect(relativeTimeFormat('en', { numeric: 'auto' })).toBe(
      relativeTimeFormat('en', { numeric: 'auto' }),
    );
    expect(numberFormat('en', { style: 'currency', currency: 'TWD' })).not.toBe(
      numberFormat('en', { style: 'currency', currency: 'USD' }),
    );
  });

  it('formats as a formatter made for the call would', () => {
    const at = '2026-11-28T04:05:00.000Z';
    expect(formatDateTime(at, 'zh-TW')).toBe(
      new Intl.DateTimeFormat('zh-TW', { dateStyle: 'medium', timeStyle: 'short' }).format(
        new Date(at),
      ),
    );
    const now = Date.parse(at) + 3 * 60_000;
    expect(formatRelative(at, now, 'en')).toBe(
      new Intl.RelativeTimeFormat('en', { numeric: 'auto' }).format(-3, 'minute'),
    );
  });

  it('keeps nothing for a formatter that cannot be made (a time zone a site sent that the runtime does not know)', () => {
    expect(() => dateTimeFormat('en', { timeZone: 'Not/A_Zone' })).toThrow(RangeError);
    expect(() => dateTimeFormat('en', { timeZone: 'Not/A_Zone' })).toThrow(RangeError);
  });
});
