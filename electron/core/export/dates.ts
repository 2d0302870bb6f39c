/** Dates in exported files: the site's UTC instants shown in the student's time zone. */
import { kept } from './memo';

/**
 * Formatters by (style, language, zone). Building an Intl.DateTimeFormat costs ~50 µs (ICU loads
 * the zone's rules and the locale's patterns), and a purchase history writes three dates a row:
 * built per call, the large seed's 5,015 payments took ~0.8 s of the main process to export. Kept
 * for the life of the process: a student has one zone and two languages, and the bound keeps a
 * caller cycling through zones from growing it. A zone or language Intl refuses throws here each
 * time, as before (nothing is kept for it).
 */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const DATE_FORMATS_KEPT = 32;

/** `options` is only called to build a formatter not kept yet. */
function dateFormat(
  style: 'sheet' | 'readable' | 'zone',
  language: string,
  timeZone: string,
  options: () => Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  return kept(
    dateFormats,
    DATE_FORMATS_KEPT,
    `${style}\u0000${language}\u0000${timeZone}`,
    () => new Intl.DateTimeFormat(language, options()),
  );
}

/** The time zone of this computer (what the screens use), e.g. 'Asia/Taipei'. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * '2026-01-05T06:30:00.000Z' in Asia/Taipei -> '2026-01-05 14:30:00': the form spreadsheets (Excel,
 * LibreOffice, Numbers) read as a date and time in any locale. Empty for a missing or unreadable
 * date.
 */
export function sheetDateTime(iso: string | null, timeZone: string): string {
  if (iso === null || iso === undefined) return '';
  if (typeof iso !== 'string') return '';
  const d = new Date(iso);
  const ms = d.getTime();
  if (Number.isNaN(ms)) return '';
  // A spreadsheet's dates are years 0000-9999 (and ICU cannot give the fields a day past the last
  // instant a Date holds, year 275760): a date outside is written as the site sent it, and the CSV
  // still goes out.
  if (!inFourDigitYears(d)) return iso;
  const format = dateFormat('sheet', 'en-US', timeZone, () => SHEET_OPTIONS(timeZone));
  const offset = dayOffset(format, timeZone, ms);
  // A day whose offset changes (a summer-time switch): the zone's own fields for this very instant.
  if (offset === null) {
    const f = fields(format, ms);
    return `${f.year}-${f.month}-${f.day} ${f.hour}:${f.minute}:${f.second}`;
  }
  const local = new Date(Math.floor(ms / 1000) * 1000 + offset);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${local.getUTCFullYear()}-${two(local.getUTCMonth() + 1)}-${two(local.getUTCDate())} ${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())}`;
}

const SHEET_OPTIONS = (timeZone: string): Intl.DateTimeFormatOptions => ({
  timeZone,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

function fields(
  format: Intl.DateTimeFormat,
  ms: number,
): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', string> {
  const out = { year: '', month: '', day: '', hour: '', minute: '', second: '' };
  for (const p of format.formatToParts(ms))
    if (p.type in out) out[p.type as keyof typeof out] = p.value;
  return out;
}

/**
 * The zone's offset from UTC at `ms`, in milliseconds (whole seconds: the fields have no fraction).
 */
function offsetAt(format: Intl.DateTimeFormat, ms: number): number {
  const f = fields(format, ms);
  return (
    Date.UTC(
      Number(f.year),
      Number(f.month) - 1,
      Number(f.day),
      Number(f.hour),
      Number(f.minute),
      Number(f.second),
    ) -
    Math.floor(ms / 1000) * 1000
  );
}

const DAY_MS = 86_400_000;
/**
 * The zone's offset over one UTC day, or null when it differs at the day's two ends (a switch that
 * day). Asking ICU for the fields costs ~3.7 µs a date, three dates a payment; a history's dates
 * fall on far fewer days. Bounded like the formatters.
 */
const dayOffsets = new Map<string, number | null>();
const DAY_OFFSETS_KEPT = 4_096;

function dayOffset(format: Intl.DateTimeFormat, timeZone: string, ms: number): number | null {
  const day = Math.floor(ms / DAY_MS);
  return kept(dayOffsets, DAY_OFFSETS_KEPT, `${timeZone}\u0000${day}`, () => {
    const start = offsetAt(format, day * DAY_MS);
    return start === offsetAt(format, (day + 1) * DAY_MS - 1000) ? start : null;
  });
}

/**
 * Years 0000-9999 (UTC): what ISO 8601's and RFC 5545's four-digit years, and spreadsheets, can
 * hold.
 */
export function inFourDigitYears(d: Date): boolean {
  const year = d.getUTCFullYear();
  return year >= 0 && year <= 9999;
}

/**
 * A date and time for a reader, in their language, naming the zone ("Jan 5, 2026, 2:30 PM GMT+8").
 */
export function readableDateTime(iso: string | null, language: string, timeZone: string): string {
  if (iso === null || iso === undefined) return '';
  if (typeof iso !== 'string') return String(iso);
  const d = new Date(iso);
  if (Number.isNaN(d.getTime()) || !inFourDigitYears(d)) return iso;
  return (
    dateFormat('readable', language, timeZone, () => ({
      timeZone,
      dateStyle: 'medium',
      timeStyle: 'short',
    })).format(d) + ` (${zoneName(d, language, timeZone)})`
  );
}

function zoneName(d: Date, language: string, timeZone: string): string {
  const part = dateFormat('zone', language, timeZone, () => ({ timeZone, timeZoneName: 'short' }))
    .formatToParts(d)
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? timeZone;
}
