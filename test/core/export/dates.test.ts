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
      expect(sheetDateTime('2026-07-05T06:30:00.000Z', 'America/New_York')).toBe(
        '2026-07-05 02:30:00',
      );
      expect(readableDateTime(at, 'en', 'Asia/Taipei')).toMatch(
        /^Jan 5, 2026, 2:30\sPM \(GMT\+8\)$/,
      );
      expect(readableDateTime(at, 'zh-TW', 'Asia/Taipei')).toContain('2026');
      expect(displayAmount(1200, 'TWD', 'en')).toBe('NT$1,200');
      expect(displayAmount(12.5, 'USD', 'en')).toBe('$12.50');
    }
  });

  it('a date written from the offset kept for its day is what the zone’s own fields say, summer-time switches included', () => {
    const zones = [
      'Asia/Taipei',
      'America/New_York',
      'Europe/London',
      'Australia/Lord_Howe',
      'Asia/Kathmandu',
      'America/Sao_Paulo',
      'Pacific/Chatham',
      'UTC',
    ];
    const wrong: string[] = [];
    for (const zone of zones) {
      const reference = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      });
      const expected = (t: number) => {
        const p = Object.fromEntries(reference.formatToParts(t).map((x) => [x.type, x.value]));
        return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
      };
      const check = (t: number) => {
        const got = sheetDateTime(new Date(t).toISOString(), zone);
        if (got !== expected(t))
          wrong.push(`${zone} ${new Date(t).toISOString()}: ${got} != ${expected(t)}`);
      };
      // Two years at an odd step (so minutes, seconds and milliseconds vary), then every minute
      // around each switch.
      for (let t = Date.UTC(2024, 0, 1); t < Date.UTC(2026, 0, 1); t += 97 * 60_000 + 13_001)
        check(t);
      for (const at of [
        Date.UTC(2025, 2, 9, 7),
        Date.UTC(2025, 10, 2, 6),
        Date.UTC(2025, 2, 30, 1),
        Date.UTC(2025, 9, 26, 1),
        Date.UTC(2025, 3, 5, 15),
        Date.UTC(2025, 8, 27, 14),
        Date.UTC(2025, 3, 5, 14),
        Date.UTC(2025, 8, 27, 14, 15),
      ]) {
        for (let t = at - 90 * 60_000; t <= at + 90 * 60_000; t += 60_000) {
          check(t - 1);
          check(t);
        }
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
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
    // Africa/..., America/...: zones with many different offsets, so a formatter of the wrong zone
    // would show.
    expect(new Set(first).size).toBeGreaterThan(5);
    expect(zones.map((z) => sheetDateTime(at, z))).toEqual(first);
    expect(sheetDateTime(at, 'UTC')).toBe('2026-03-01 12:00:00');
  });
});
