/** Dates in exported files: the site's UTC instants shown in the student's time zone. */

/**
 * Formatters by (style, language, zone). Building an Intl.DateTimeFormat costs ~50 µs (ICU loads the zone's rules
 * and the locale's patterns), and a purchase history writes three dates a row: built per call, the large seed's
 * 5,015 payments took ~0.8 s of the main process to export. Kept for the life of the process: a student has one
 * zone and two languages, and the bound keeps a caller cycling through zones from growing it. A zone or language
 * Intl refuses throws here each time, as before (nothing is kept for it).
 */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const DATE_FORMATS_KEPT = 32;

function dateFormat(style: 'sheet' | 'readable' | 'zone', language: string, timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${style}\u0000${language}\u0000${timeZone}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language, options);
    if (dateFormats.size >= DATE_FORMATS_KEPT) dateFormats.delete(dateFormats.keys().next().value!);
    dateFormats.set(key, format);
  }
  return format;
}

/** The time zone of this computer (what the screens use), e.g. 'Asia/Taipei'. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * '2026-01-05T06:30:00.000Z' in Asia/Taipei -> '2026-01-05 14:30:00': the form spreadsheets (Excel, LibreOffice,
 * Numbers) read as a date and time in any locale. Empty for a missing or unreadable date.
 */
export function sheetDateTime(iso: string | null, timeZone: string): string {
  if (iso === null) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const parts = Object.fromEntries(
    dateFormat('sheet', 'en-US', timeZone, { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** A date and time for a reader, in their language, naming the zone ("Jan 5, 2026, 2:30 PM GMT+8"). */
export function readableDateTime(iso: string | null, language: string, timeZone: string): string {
  if (iso === null) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return dateFormat('readable', language, timeZone, { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(d) + ` (${zoneName(d, language, timeZone)})`;
}

function zoneName(d: Date, language: string, timeZone: string): string {
  const part = dateFormat('zone', language, timeZone, { timeZone, timeZoneName: 'short' }).formatToParts(d).find((p) => p.type === 'timeZoneName');
  return part?.value ?? timeZone;
}
