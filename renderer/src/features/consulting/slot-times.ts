/**
 * A consultant's weekly hours are set in the site's time zone ("every Monday 10:00–12:00,
 * Asia/Taipei"); the screen shows them, like the booked times, in the student's own zone, stated
 * once. Pure (Intl only; tested in Node).
 */
import { dateTimeFormat } from '../../ui/intl-cache';

export interface WeeklySlot {
  /** 0 = Sunday … 6 = Saturday, in the slot's own zone. */
  readonly weekday: number;
  /** "HH:mm" (or "HH:mm:ss"), a wall time in `timeZone`. */
  readonly startTime: string;
  readonly endTime: string;
  /** IANA name. */
  readonly timeZone: string;
}

/**
 * The slot's next occurrence, as instants (ms since the epoch): its weekday and times follow from
 * the zone shown in.
 */
export interface SlotOccurrence {
  readonly start: number;
  readonly end: number;
}

const WALL_TIME = /^([01]?\d|2[0-3]):([0-5]\d)(?::[0-5]\d)?$/;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/**
 * The wall-clock fields of an instant in a zone (throws RangeError for a zone the runtime does not
 * know).
 */
function wallClock(
  instant: number,
  timeZone: string,
): { year: number; month: number; day: number; hour: number; minute: number; weekday: number } {
  const parts = dateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    weekday: 'short',
  }).formatToParts(new Date(instant));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    hour: Number(get('hour')) % 24,
    minute: Number(get('minute')),
    weekday: WEEKDAYS.indexOf(get('weekday')),
  };
}

/** How far the zone's clock is ahead of UTC at that instant, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  return (
    Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) - Math.floor(instant / 60_000) * 60_000
  );
}

/**
 * The instant a wall time is reached in a zone. Around a daylight-saving change the offset is read
 * twice: a time that does not exist (skipped forward) lands just after the gap, one that exists
 * twice takes the earlier.
 */
export function zonedInstant(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  timeZone: string,
): number {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  const first = asUtc - offsetAt(asUtc, timeZone);
  const second = asUtc - offsetAt(first, timeZone);
  return Math.min(first, second);
}

/**
 * The next time the slot comes round (from `now`; today's counts until it has ended), or null when
 * the site sent something unreadable (a time that is not HH:mm, a weekday outside 0–6, a zone this
 * computer does not know).
 */
export function nextOccurrence(slot: WeeklySlot, now: number): SlotOccurrence | null {
  const start = WALL_TIME.exec(slot.startTime);
  const end = WALL_TIME.exec(slot.endTime);
  if (!start || !end || !Number.isInteger(slot.weekday) || slot.weekday < 0 || slot.weekday > 6)
    return null;
  let today;
  try {
    today = wallClock(now, slot.timeZone);
  } catch {
    return null;
  }
  const occurrence = (daysAhead: number): SlotOccurrence => {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + daysAhead));
    const at = (m: RegExpExecArray, extraDays = 0) =>
      zonedInstant(
        date.getUTCFullYear(),
        date.getUTCMonth() + 1,
        date.getUTCDate() + extraDays,
        Number(m[1]),
        Number(m[2]),
        slot.timeZone,
      );
    const s = at(start);
    // An end at or before the start runs past midnight into the next day.
    const e = at(end) > s ? at(end) : at(end, 1);
    return { start: s, end: e };
  };
  const ahead = (slot.weekday - today.weekday + 7) % 7;
  const first = occurrence(ahead);
  return first.end > now ? first : occurrence(ahead + 7);
}

/** The zone this computer shows times in (the student's). */
export function localTimeZone(): string {
  // Not cached: the computer’s zone can change while the app runs.
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * "Taipei Standard Time (GMT+8)": the zone's name in the UI's language and its offset now; the IANA
 * name if unnamed.
 */
export function zoneLabel(timeZone: string, lng: string, now: number): string {
  const part = (style: 'long' | 'shortOffset') => {
    try {
      return dateTimeFormat(lng, { timeZone, timeZoneName: style })
        .formatToParts(new Date(now))
        .find((p) => p.type === 'timeZoneName')?.value;
    } catch {
      return undefined;
    }
  };
  const name = part('long');
  const offset = part('shortOffset');
  if (!name) return timeZone;
  if (!offset || offset === name) return name;
  // Chinese text takes full-width brackets; ASCII ones inside a Chinese sentence read as a typo.
  return lng.startsWith('zh') ? `${name}（${offset}）` : `${name} (${offset})`;
}

/**
 * A slot's weekday and times in `timeZone` and the UI's language: "Monday", "10:00 AM", "12:00 PM".
 */
export function slotInZone(
  occurrence: SlotOccurrence,
  timeZone: string,
  lng: string,
): { weekday: string; start: string; end: string } {
  const day = dateTimeFormat(lng, { timeZone, weekday: 'long' });
  const time = dateTimeFormat(lng, { timeZone, hour: 'numeric', minute: '2-digit' });
  return {
    weekday: day.format(occurrence.start),
    start: time.format(occurrence.start),
    end: time.format(occurrence.end),
  };
}
