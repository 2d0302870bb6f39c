import { describe, expect, it } from 'vitest';
import {
  nextOccurrence,
  slotInZone,
  zonedInstant,
  zoneLabel,
} from '../../renderer/src/features/consulting/slot-times';

// Wednesday 25 November 2026, 12:00 UTC (20:00 in Taipei, 07:00 in New York).
const NOW = Date.UTC(2026, 10, 25, 12, 0);

describe('consulting hours in the student’s time zone', () => {
  it('a wall time in a zone is the instant it names, across daylight saving too', () => {
    expect(new Date(zonedInstant(2026, 11, 30, 10, 0, 'Asia/Taipei')).toISOString()).toBe(
      '2026-11-30T02:00:00.000Z',
    );
    // New York: EST (UTC-5) in winter, EDT (UTC-4) in summer.
    expect(new Date(zonedInstant(2026, 1, 15, 9, 30, 'America/New_York')).toISOString()).toBe(
      '2026-01-15T14:30:00.000Z',
    );
    expect(new Date(zonedInstant(2026, 7, 15, 9, 30, 'America/New_York')).toISOString()).toBe(
      '2026-07-15T13:30:00.000Z',
    );
    // 02:30 on 8 March 2026 does not exist in New York (clocks go 02:00 -> 03:00): it lands within
    // the hour after.
    const gap = zonedInstant(2026, 3, 8, 2, 30, 'America/New_York');
    expect(gap).toBeGreaterThanOrEqual(Date.UTC(2026, 2, 8, 6, 30));
    expect(gap).toBeLessThanOrEqual(Date.UTC(2026, 2, 8, 7, 30));
  });

  it('the next Monday 10:00–12:00 in Taipei is Sunday 21:00–23:00 in New York, and Monday in Taipei itself', () => {
    const o = nextOccurrence(
      { weekday: 1, startTime: '10:00', endTime: '12:00', timeZone: 'Asia/Taipei' },
      NOW,
    )!;
    expect(new Date(o.start).toISOString()).toBe('2026-11-30T02:00:00.000Z');
    expect(new Date(o.end).toISOString()).toBe('2026-11-30T04:00:00.000Z');
    expect(slotInZone(o, 'America/New_York', 'en')).toEqual({
      weekday: 'Sunday',
      start: '9:00 PM',
      end: '11:00 PM',
    });
    expect(slotInZone(o, 'Asia/Taipei', 'en')).toEqual({
      weekday: 'Monday',
      start: '10:00 AM',
      end: '12:00 PM',
    });
    expect(slotInZone(o, 'Asia/Taipei', 'zh-TW').weekday).toBe('星期一');
  });

  it("today's slot counts until it has ended; one already over is next week's", () => {
    // Wednesday 19:00–21:00 Taipei: under way at NOW (20:00 there).
    const now = nextOccurrence(
      { weekday: 3, startTime: '19:00', endTime: '21:00', timeZone: 'Asia/Taipei' },
      NOW,
    )!;
    expect(new Date(now.start).toISOString()).toBe('2026-11-25T11:00:00.000Z');
    const over = nextOccurrence(
      { weekday: 3, startTime: '09:00', endTime: '10:00:00', timeZone: 'Asia/Taipei' },
      NOW,
    )!;
    expect(new Date(over.start).toISOString()).toBe('2026-12-02T01:00:00.000Z');
  });

  it('an end at or before the start runs past midnight', () => {
    const o = nextOccurrence(
      { weekday: 5, startTime: '23:00', endTime: '01:00', timeZone: 'UTC' },
      NOW,
    )!;
    expect(o.end - o.start).toBe(2 * 3600_000);
  });

  it('what the site sent unreadably is null (shown as sent), never a throw', () => {
    for (const slot of [
      { weekday: 1, startTime: '25:00', endTime: '26:00', timeZone: 'Asia/Taipei' },
      { weekday: 1, startTime: '10am', endTime: '12:00', timeZone: 'Asia/Taipei' },
      { weekday: 7, startTime: '10:00', endTime: '12:00', timeZone: 'Asia/Taipei' },
      { weekday: 1.5, startTime: '10:00', endTime: '12:00', timeZone: 'Asia/Taipei' },
      { weekday: 1, startTime: '10:00', endTime: '12:00', timeZone: 'Mars/Olympus_Mons' },
    ])
      expect(nextOccurrence(slot, NOW), JSON.stringify(slot)).toBeNull();
  });

  it('the zone is named once, with its offset', () => {
    // The zone's name comes from the runtime's ICU data, which words Taipei's differently across
    // versions.
    expect(zoneLabel('Asia/Taipei', 'en', NOW)).toMatch(
      /^(Taipei|Taiwan) Standard Time \(GMT\+8\)$/,
    );
    expect(zoneLabel('America/New_York', 'en', NOW)).toBe('Eastern Standard Time (GMT-5)');
    expect(zoneLabel('Asia/Taipei', 'zh-TW', NOW)).toMatch(/^[\u4e00-\u9fff]+（GMT\+8）$/);
    expect(zoneLabel('Mars/Olympus_Mons', 'en', NOW)).toBe('Mars/Olympus_Mons');
  });
});
