/**
 * A moment of a lecture as the student reads and types it: m:ss, or h:mm:ss past an hour (the
 * lecture list's durations are written the same way). Pure: tested in Node.
 */

export function formatMoment(seconds: number): string {
  const s = Math.max(0, Math.trunc(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

/**
 * Seconds of "12:34", "1:02:05" or a bare number of seconds; full-width digits and colons as typed
 * on a Chinese keyboard are read the same (NFKC). Null for anything else, or past `max`.
 */
export function parseMoment(text: string, max: number): number | null {
  const t = text.normalize('NFKC').trim();
  let seconds: number;
  if (/^\d{1,6}$/.test(t)) seconds = Number(t);
  else {
    const m = /^(?:(\d{1,2}):)?(\d{1,3}):(\d{2})$/.exec(t);
    if (!m) return null;
    const [h, min, sec] = [Number(m[1] ?? 0), Number(m[2]), Number(m[3])];
    if (sec > 59 || (m[1] !== undefined && min > 59)) return null;
    seconds = h * 3600 + min * 60 + sec;
  }
  return seconds <= max ? seconds : null;
}
