/**
 * Dates, times, durations and money through Intl, in the UI's language. Dates come from a site
 * (untrusted input):
 * one that does not parse, or lies outside what Date can hold, is shown as the translated word
 * "unknown" and never thrown (Intl.DateTimeFormat#format throws a RangeError on an invalid Date,
 * and one throw blanks the screen).
 */
import i18next from 'i18next';
import { dateTimeFormat, numberFormat, relativeTimeFormat } from './intl-cache';
// The derived facts every screen shares with the core and the exports (electron/common/facts.ts).
import { accessDaysLeft, minutesLeft, parseSiteDate } from '../../../electron/common/facts';

// ISO 4217 currencies without a minor unit in everyday use (TWD is priced in whole dollars).
const ZERO_DECIMAL = new Set(['TWD', 'JPY', 'KRW', 'VND', 'CLP', 'ISK', 'UGX', 'PYG']);

export function formatMoney(amount: number, currency: string, lng: string): string {
  const digits = ZERO_DECIMAL.has(currency.toUpperCase()) ? 0 : undefined;
  try {
    return numberFormat(lng, {
      style: 'currency',
      currency,
      ...(digits === undefined ? {} : { minimumFractionDigits: 0, maximumFractionDigits: 0 }),
    }).format(amount);
  } catch {
    return `${currency} ${amount}`;
  }
}

export { parseSiteDate };

/** Epoch ms of a site's date, or null (see parseSiteDate). */
export function siteTime(iso: unknown): number | null {
  return parseSiteDate(iso)?.getTime() ?? null;
}

/** The word shown for a date or value the app cannot read, in the UI's language. */
export function unknownWord(lng: string): string {
  return i18next.t('common.unknown', { lng });
}

/** The value for a <time dateTime> attribute: the site's text only when it is a readable date. */
export function machineDate(iso: unknown): string | undefined {
  return parseSiteDate(iso)?.toISOString();
}

function formatWith(iso: unknown, lng: string, options: Intl.DateTimeFormatOptions): string {
  const d = parseSiteDate(iso);
  if (!d) return unknownWord(lng);
  try {
    return dateTimeFormat(lng, options).format(d);
  } catch {
    return unknownWord(lng);
  }
}

export function formatDate(iso: unknown, lng: string): string {
  return formatWith(iso, lng, { dateStyle: 'medium' });
}

export function formatDateTime(iso: unknown, lng: string): string {
  return formatWith(iso, lng, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * A date and time to the second (a log's lines), in the same date style as every other date: the
 * short style is another form in zh-TW (2026/12/8 beside 2026年12月8日).
 */
export function formatDateTimeSeconds(iso: unknown, lng: string): string {
  return formatWith(iso, lng, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** 754 -> "12:34"; 4354 -> "1:12:34". */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(sec)}` : `${pad(m)}:${pad(sec)}`;
}

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** "3 minutes ago", "in 2 days". */
export function formatRelative(iso: unknown, now: number, lng: string): string {
  const at = siteTime(iso);
  if (at === null) return unknownWord(lng);
  const diff = (at - now) / 1000;
  const rtf = relativeTimeFormat(lng, { numeric: 'auto' });
  for (const [unit, secs] of UNITS) {
    if (Math.abs(diff) >= secs || unit === 'second') {
      const value = Math.round(diff / secs);
      if (unit === 'second' && Math.abs(value) < 45) return justNow(lng, rtf);
      return rtf.format(value, unit);
    }
  }
  return justNow(lng, rtf);
}

/**
 * "now" in the UI's words: Intl's zh-TW 「現在」 reads as an instruction beside 「同步」 ("sync now"); 「剛剛」
 * says it happened a moment ago.
 */
function justNow(lng: string, rtf: Intl.RelativeTimeFormat): string {
  const word = i18next.t('common.justNow', { lng, defaultValue: '' });
  return word !== '' ? word : rtf.format(0, 'second');
}

/** Whole days and hours until `iso` (never negative); null when the date cannot be read. */
export function timeLeft(
  iso: unknown,
  now: number,
): { days: number; hours: number; minutes: number } | null {
  const at = siteTime(iso);
  if (at === null) return null;
  const ms = Math.max(0, at - now);
  const minutesTotal = Math.floor(ms / 60_000);
  return {
    days: Math.floor(minutesTotal / 1440),
    hours: Math.floor((minutesTotal % 1440) / 60),
    minutes: minutesTotal % 60,
  };
}

/**
 * A length of content, in whole minutes rounded up as everywhere (facts.ts minutesLeft): "57 min",
 * "3 hr 20 min".
 */
export function formatLength(totalSeconds: number, lng: string): string {
  const minutes = Math.max(1, minutesLeft(totalSeconds));
  const unit = (u: 'hour' | 'minute', n: number) =>
    numberFormat(lng, { style: 'unit', unit: u, unitDisplay: 'short' }).format(n);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h === 0
    ? unit('minute', m)
    : m === 0
      ? unit('hour', h)
      : `${unit('hour', h)} ${unit('minute', m)}`;
}

/**
 * The pace that finishes `secondsLeft` of content by `endIso`: seconds a day, the last day counted
 * whole. Null when the end is past or unreadable, or nothing is left.
 */
export function dailyPace(secondsLeft: number, endIso: unknown, now: number): number | null {
  const end = siteTime(endIso);
  if (end === null || end <= now || secondsLeft <= 0) return null;
  return secondsLeft / Math.max(1, Math.ceil((end - now) / 86_400_000));
}

/**
 * Days of access left until `iso`, rounded up (0 when past); null when the date cannot be read
 * (facts.ts).
 */
export const daysUntil = accessDaysLeft;

/** 0 = Sunday .. 6 = Saturday, as a localized weekday name. */
export function weekdayName(weekday: number, lng: string): string {
  // 2023-01-01 was a Sunday.
  const d = new Date(Date.UTC(2023, 0, 1 + (((weekday % 7) + 7) % 7), 12));
  return dateTimeFormat(lng, { weekday: 'long', timeZone: 'UTC' }).format(d);
}

/** "Asia/Taipei" -> "Taipei Standard Time" (falls back to the IANA name). */
export function timeZoneName(timeZone: string, lng: string): string {
  if (typeof timeZone !== 'string') return unknownWord(lng);
  try {
    const parts = dateTimeFormat(lng, { timeZone, timeZoneName: 'long' }).formatToParts(new Date());
    const name = parts.find((p) => p.type === 'timeZoneName')?.value;
    return name ? `${name} (${timeZone})` : timeZone;
  } catch {
    return timeZone;
  }
}

/**
 * "Nov 23, 2026, 5:17 AM – 6:47 AM": one date when both ends fall on the same day. Not
 * Intl's formatRange: its zh-TW patterns write the date 2026/11/23, another style than every other
 * date (2026年11月23日). An end before its start, or an unreadable end, shows the start alone; an
 * unreadable start shows "unknown".
 */
export function formatDateTimeRange(startIso: unknown, endIso: unknown, lng: string): string {
  const start = parseSiteDate(startIso);
  const end = parseSiteDate(endIso);
  if (!start) return unknownWord(lng);
  if (!end || end.getTime() < start.getTime()) return formatDateTime(startIso, lng);
  try {
    const sameDay = dateTimeFormat(lng, { dateStyle: 'medium' });
    const endText =
      sameDay.format(start) === sameDay.format(end)
        ? dateTimeFormat(lng, { timeStyle: 'short' }).format(end)
        : formatDateTime(endIso, lng);
    return `${formatDateTime(startIso, lng)} – ${endText}`;
  } catch {
    return formatDateTime(startIso, lng);
  }
}
