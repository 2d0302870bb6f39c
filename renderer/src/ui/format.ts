/** Dates, times, durations and money through Intl, in the UI's language. */

// ISO 4217 currencies without a minor unit in everyday use (TWD is priced in whole dollars).
const ZERO_DECIMAL = new Set(['TWD', 'JPY', 'KRW', 'VND', 'CLP', 'ISK', 'UGX', 'PYG']);

export function formatMoney(amount: number, currency: string, lng: string): string {
  const digits = ZERO_DECIMAL.has(currency.toUpperCase()) ? 0 : undefined;
  try {
    return new Intl.NumberFormat(lng, {
      style: 'currency',
      currency,
      ...(digits === undefined ? {} : { minimumFractionDigits: 0, maximumFractionDigits: 0 }),
    }).format(amount);
  } catch {
    return `${currency} ${amount}`;
  }
}

export function formatDate(iso: string, lng: string): string {
  return new Intl.DateTimeFormat(lng, { dateStyle: 'medium' }).format(new Date(iso));
}

export function formatDateTime(iso: string, lng: string): string {
  return new Intl.DateTimeFormat(lng, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
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
export function formatRelative(iso: string, now: number, lng: string): string {
  const diff = (new Date(iso).getTime() - now) / 1000;
  const rtf = new Intl.RelativeTimeFormat(lng, { numeric: 'auto' });
  for (const [unit, secs] of UNITS) {
    if (Math.abs(diff) >= secs || unit === 'second') {
      const value = Math.round(diff / secs);
      if (unit === 'second' && Math.abs(value) < 45) return rtf.format(0, 'second');
      return rtf.format(value, unit);
    }
  }
  return rtf.format(0, 'second');
}

/** Whole days and hours until `iso` (never negative). */
export function timeLeft(iso: string, now: number): { days: number; hours: number; minutes: number } {
  const ms = Math.max(0, new Date(iso).getTime() - now);
  const minutesTotal = Math.floor(ms / 60_000);
  return { days: Math.floor(minutesTotal / 1440), hours: Math.floor((minutesTotal % 1440) / 60), minutes: minutesTotal % 60 };
}

/** A length of content, rounded to the minute: "57 min", "3 hr 20 min" ("3 小時 20 分鐘"). */
export function formatLength(totalSeconds: number, lng: string): string {
  const minutes = Math.max(1, Math.round(totalSeconds / 60));
  const unit = (u: 'hour' | 'minute', n: number) => new Intl.NumberFormat(lng, { style: 'unit', unit: u, unitDisplay: 'short' }).format(n);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h === 0 ? unit('minute', m) : m === 0 ? unit('hour', h) : `${unit('hour', h)} ${unit('minute', m)}`;
}

/**
 * The pace that finishes `secondsLeft` of content by `endIso`: seconds a day, the last day counted whole. Null when
 * the end is past or unreadable, or nothing is left.
 */
export function dailyPace(secondsLeft: number, endIso: string, now: number): number | null {
  const end = new Date(endIso).getTime();
  if (!Number.isFinite(end) || end <= now || secondsLeft <= 0) return null;
  return secondsLeft / Math.max(1, Math.ceil((end - now) / 86_400_000));
}

/** Days until `iso`, rounded up (0 when past). */
export function daysUntil(iso: string, now: number): number {
  return Math.max(0, Math.ceil((new Date(iso).getTime() - now) / 86_400_000));
}

/** 0 = Sunday .. 6 = Saturday, as a localized weekday name. */
export function weekdayName(weekday: number, lng: string): string {
  // 2023-01-01 was a Sunday.
  const d = new Date(Date.UTC(2023, 0, 1 + (((weekday % 7) + 7) % 7), 12));
  return new Intl.DateTimeFormat(lng, { weekday: 'long', timeZone: 'UTC' }).format(d);
}

/** "Asia/Taipei" -> "Taipei Standard Time" (falls back to the IANA name). */
export function timeZoneName(timeZone: string, lng: string): string {
  try {
    const parts = new Intl.DateTimeFormat(lng, { timeZone, timeZoneName: 'long' }).formatToParts(new Date());
    const name = parts.find((p) => p.type === 'timeZoneName')?.value;
    return name ? `${name} (${timeZone})` : timeZone;
  } catch {
    return timeZone;
  }
}

/** "Nov 23, 2026, 5:17 – 6:47 AM": one date when both ends fall on the same day. */
export function formatDateTimeRange(startIso: string, endIso: string, lng: string): string {
  return new Intl.DateTimeFormat(lng, { dateStyle: 'medium', timeStyle: 'short' }).formatRange(new Date(startIso), new Date(endIso));
}
