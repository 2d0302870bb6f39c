/** Dates in exported files: the site's UTC instants shown in the student's time zone. */

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
    new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
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
  return new Intl.DateTimeFormat(language, { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(d) + ` (${zoneName(d, language, timeZone)})`;
}

function zoneName(d: Date, language: string, timeZone: string): string {
  const part = new Intl.DateTimeFormat(language, { timeZone, timeZoneName: 'short' }).formatToParts(d).find((p) => p.type === 'timeZoneName');
  return part?.value ?? timeZone;
}
