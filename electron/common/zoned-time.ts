/**
 * Calendar days and weeks in the student's time zone, by Intl alone (no Node built-in: every
 * process uses these). A day is its number since 1970-01-01 in that zone; a week starts on Monday
 * (ISO 8601). Midnight of a day in a zone with daylight saving is found by correcting the zone's
 * offset twice, so a week that starts on the morning a clock moves is still the instant the wall
 * clock reads 00:00 (or the first one after it, when 00:00 is skipped).
 */

const DAY_MS = 86_400_000;
const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * One formatter per zone (building one costs more than a hundred uses); null for a zone this
 * runtime lacks.
 */
function formatOf(timeZone: string): Intl.DateTimeFormat | null {
  let format = formats.get(timeZone);
  if (format) return format;
  try {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  } catch {
    return null;
  }
  if (formats.size > 50) formats.clear();
  formats.set(timeZone, format);
  return format;
}

export function isKnownTimeZone(timeZone: string): boolean {
  return timeZone.length <= 64 && formatOf(timeZone) !== null;
}

/**
 * A zone's offset is the same within a quarter hour (every zone's changes fall on one): kept per
 * quarter.
 */
const QUARTER_MS = 15 * 60_000;
const offsets = new Map<string, number>();

/**
 * The wall clock of `ms` in `timeZone` as UTC fields read back into epoch ms (offset = wall - ms).
 */
function wallClock(ms: number, timeZone: string): number {
  const quarter = Math.floor(ms / QUARTER_MS);
  const key = `${timeZone}\u0000${quarter}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    const at = quarter * QUARTER_MS;
    const format = formatOf(timeZone) ?? formatOf('UTC')!;
    const p: Record<string, number> = {};
    for (const part of format.formatToParts(new Date(at)))
      if (part.type !== 'literal') p[part.type] = Number(part.value);
    const wall = Date.UTC(
      p['year']!,
      p['month']! - 1,
      p['day']!,
      p['hour']!,
      p['minute']!,
      p['second']!,
    );
    offset = wall - at;
    if (offsets.size > 20_000) offsets.clear();
    offsets.set(key, offset);
  }
  return ms + offset;
}

/** The day `ms` falls on in `timeZone`, as days since 1970-01-01. */
export function localDay(ms: number, timeZone: string): number {
  return Math.floor(wallClock(ms, timeZone) / DAY_MS);
}

/** ISO weekday of a day number: 1 Monday ... 7 Sunday (1970-01-01 was a Thursday). */
export function weekdayOf(day: number): number {
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

/** The Monday of the week `day` is in. */
export function mondayOf(day: number): number {
  return day - (weekdayOf(day) - 1);
}

/** A day number as YYYY-MM-DD. */
export function dayLabel(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The instant the wall clock of `timeZone` reads `minute` (of the day) on `day`. */
export function localInstant(day: number, minute: number, timeZone: string): number {
  const wall = day * DAY_MS + minute * 60_000;
  let guess = wall;
  for (let i = 0; i < 2; i++) guess = wall - (wallClock(guess, timeZone) - guess);
  // A time the clock skips (moved forward over it): the guess lands before it; step past the gap.
  while (wallClock(guess, timeZone) < wall - 3_600_000) guess += 3_600_000;
  return guess;
}

/**
 * The instant `day` starts in `timeZone` (its local midnight, or the first instant after a skipped
 * one).
 */
export function startOfDay(day: number, timeZone: string): number {
  const at = localInstant(day, 0, timeZone);
  return localDay(at, timeZone) < day ? at + 3_600_000 : at;
}

/** Minutes since local midnight of the wall clock at `ms`. */
export function minuteOfDay(ms: number, timeZone: string): number {
  return Math.floor((wallClock(ms, timeZone) % DAY_MS) / 60_000);
}
