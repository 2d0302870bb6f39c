import { describe, expect, it } from 'vitest';
import { formatMoment, parseMoment } from '../../renderer/src/features/notes/moment';

describe('a moment of a lecture, as read and typed', () => {
  it('reads m:ss, h:mm:ss, bare seconds and full-width digits', () => {
    expect(parseMoment('12:34', 359_999)).toBe(754);
    expect(parseMoment(' 1:02:05 ', 359_999)).toBe(3725);
    expect(parseMoment('754', 359_999)).toBe(754);
    expect(parseMoment('１２：３４', 359_999)).toBe(754);
    expect(parseMoment('90:00', 359_999)).toBe(5400);
  });

  it('refuses what is not a time, or past the limit', () => {
    for (const bad of ['', '12:3', '12:60', '1:60:00', 'abc', '-5', '1:2:3:4'])
      expect(parseMoment(bad, 359_999), bad).toBeNull();
    expect(parseMoment('100:00:00', 359_999)).toBeNull();
    expect(parseMoment('10:01', 600)).toBeNull();
  });

  it('writes what it reads', () => {
    for (const s of [0, 5, 754, 3725, 359_999])
      expect(parseMoment(formatMoment(s), 359_999)).toBe(s);
    expect(formatMoment(754)).toBe('12:34');
  });
});
