import { describe, expect, it } from 'vitest';
import { readableDateTime, sheetDateTime } from '../../../electron/core/export/dates';
import { displayAmount } from '../../../electron/core/export/money';

describe('dates and amounts in exported files (formatters kept per language, zone and currency)', () => {
  it('each zone and language gets its own formatter: alternating between them never mixes them up', () => {
    const at = '2026-01-05T06:30:00.000Z';
    for (let i = 0; i < 3; i++) {
      expect(sheetDateTime(at, 'Asia/Taipei')).toBe('2026-01-05 14:30:00');
      expect(sheetDateTime(at, 'America/New_York')).toBe('2026-01-05 01:30:00');
      // Summer time in New York: the same formatter, the offset of that instant.
      expect(sheetDateTime('2026-07-05T06:30:00.000Z', 'America/New_York')).toBe('2026-07-05 02:30:00');
      expect(readableDateTime(at, 'en', 'Asia/Taipei')).toMatch(/^Jan 5, 2026, 2:30\sPM \(GMT\+8\)$/);
      expect(readableDateTime(at, 'zh-TW', 'Asia/Taipei')).toContain('2026');
      expect(displayAmount(1200, 'TWD', 'en')).toBe('NT$1,200');
      expect(displayAmount(12.5, 'USD', 'en')).toBe('$12.50');
    }
  });

  it('a zone or currency Intl refuses fails the same way every time (nothing kept for it)', () => {
    for (let i = 0; i < 2; i++) {
      expect(() => sheetDateTime('2026-01-05T06:30:00.000Z', 'Not/A_Zone')).toThrow(RangeError);
      expect(displayAmount(5, 'XX1', 'en')).toBe('XX1 5.00');
    }
  });

  it('more zones than are kept: the oldest formatters go, and every answer stays right', () => {
    const zones = Intl.supportedValuesOf('timeZone').slice(0, 80);
    const at = '2026-03-01T12:00:00.000Z';
    const first = zones.map((z) => sheetDateTime(at, z));
    // Africa/..., America/...: zones with many different offsets, so a formatter of the wrong zone would show.
    expect(new Set(first).size).toBeGreaterThan(5);
    expect(zones.map((z) => sheetDateTime(at, z))).toEqual(first);
    expect(sheetDateTime(at, 'UTC')).toBe('2026-03-01 12:00:00');
  });
});
