import { createHash } from 'node:crypto';

/**
 * A small iCalendar (RFC 5545) writer for the app's reminders: one VCALENDAR of VEVENTs with
 * display alarms.
 *
 * Written here rather than with the `ics` package because that package folds long lines every 75
 * *characters* (runes) where RFC 5545 §3.1 says 75 *octets*: a Chinese title (3 octets a character
 * in UTF-8) would produce 225-octet lines, which strict readers reject or cut.
 */

export interface CalendarAlarm {
  /** A negative RFC 5545 §3.3.6 duration before the start, e.g. '-P1D', '-PT2H'. */
  readonly before: string;
  readonly description: string;
}

export interface CalendarEvent {
  /**
   * Stable across exports, so importing the file again updates the event instead of adding a copy
   * (§3.8.4.7).
   */
  readonly uid: string;
  readonly start: Date;
  /**
   * Absent: the event is an instant at `start` (§3.6.1, a DATE-TIME DTSTART with no DTEND ends at
   * DTSTART).
   */
  readonly end?: Date;
  readonly summary: string;
  readonly description?: string;
  /** An http(s) address about the event (§3.8.4.6). */
  readonly url?: string;
  /** Where it takes place (§3.8.1.7). */
  readonly location?: string;
  /**
   * Whether the time is taken (§3.8.2.7 TRANSP OPAQUE): an event the student attends. Absent: a
   * reminder, which does not make the student look busy.
   */
  readonly busy?: boolean;
  readonly alarms?: readonly CalendarAlarm[];
  /**
   * Revision of the event (§3.8.7.4): a subscription replaces the copy it holds when this grows.
   */
  readonly sequence?: number;
  /** When this revision was made (§3.8.7.3). */
  readonly lastModified?: Date;
}

export interface CalendarOptions {
  /**
   * DTSTAMP: when this file was written (§3.8.7.2; every VEVENT carries one, §3.6.1). Also "now"
   * for the alarms: one that would go off at or before it is left out, so importing the file never
   * fires a reminder for the past.
   */
  readonly stamp: Date;
  /** PRODID (§3.7.3). */
  readonly productId?: string;
  /** A subscription's name (RFC 7986 §5.1 NAME, and the X-WR-CALNAME most clients read). */
  readonly name?: string;
  /**
   * The student's zone, for clients that show a feed's times in it (X-WR-TIMEZONE); times stay UTC.
   */
  readonly timeZone?: string;
  /** How often a subscriber should fetch it again (RFC 7986 §5.7 REFRESH-INTERVAL), in minutes. */
  readonly refreshMinutes?: number;
}

const PRODUCT_ID = '-//Learning Desktop//Learning Desktop//EN';
const DURATION = /^[+-]?P(\d+W|(\d+D)?(T(\d+H)?(\d+M)?(\d+S)?)?)$/;
const PARTS = /^([+-])?P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

/**
 * An RFC 5545 §3.3.6 duration in milliseconds (a day is 24 hours here: the alarms are counted from
 * a UTC instant).
 */
export function durationMs(duration: string): number {
  const m = DURATION.test(duration) ? PARTS.exec(duration) : null;
  if (!m) throw new RangeError(`not an RFC 5545 duration: ${duration}`);
  const [w, d, h, min, sec] = m.slice(2).map((v) => Number(v ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = ((((w * 7 + d) * 24 + h) * 60 + min) * 60 + sec) * 1000;
  return m[1] === '-' ? -ms : ms;
}

/**
 * RFC 5545 §3.3.11 TEXT: backslash, semicolon and comma escaped; any line break becomes the two
 * characters \n.
 */
export function escapeText(value: string): string {
  // Most text needs none of it: one test instead of five passes over every title (a feed holds a
  // thousand).
  if (!NEEDS_ESCAPE.test(value)) return value;
  return (
    value
      .replace(/\\/g, '\\\\')
      .replace(/;/g, '\\;')
      .replace(/,/g, '\\,')
      // U+0085 (NEL), U+2028 and U+2029 end a line for some readers too: written as the line break they are.
      .replace(/\r\n|\r|\n|\u0085|\u2028|\u2029/g, '\\n')
      // Other control characters are not allowed in TEXT (§3.3.11 TSAFE-CHAR excludes CONTROL, C1 included): dropped.
      .replace(CONTROL, '')
  );
}

/** What escapeText changes: the escaped characters, line breaks and control characters but TAB. */
// eslint-disable-next-line no-control-regex -- finding control characters is this pattern's job
const NEEDS_ESCAPE = /[\\;,\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/;
/** Control characters (C0 but TAB, DEL, C1) once the line breaks are written as \n. */
// eslint-disable-next-line no-control-regex -- finding control characters is this pattern's job
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;

/**
 * RFC 5545 §3.3.5 form #2, UTC: 19980119T070000Z (no VTIMEZONE needed; readers show it in local
 * time).
 */
export function utcDateTime(d: Date): string {
  if (Number.isNaN(d.getTime())) throw new RangeError('invalid date');
  // §3.3.4: date-fullyear is 4DIGIT; toISOString writes +275760 or -000001 for years outside.
  const year = d.getUTCFullYear();
  if (year < 0 || year > 9999) throw new RangeError('a calendar file holds years 0000-9999 only');
  // YYYY-MM-DDTHH:MM:SS.sssZ without its separators and milliseconds.
  const iso = d.toISOString();
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
}

/**
 * RFC 5545 §3.1: content lines longer than 75 octets (the CRLF excluded) are split with CRLF
 * followed by one space; the split never falls inside a UTF-8 sequence, so every physical line is
 * valid UTF-8 on its own.
 */
export function foldLine(line: string): string {
  if (ASCII.test(line)) {
    if (line.length <= 75) return line;
    // ASCII is one octet a character: cut at 75, then every 74 after the leading space.
    const parts = [line.slice(0, 75)];
    for (let i = 75; i < line.length; i += 74) parts.push(line.slice(i, i + 74));
    return parts.join('\r\n ');
  }
  const out: string[] = [];
  let from = 0;
  let octets = 0;
  let limit = 75;
  for (let i = 0; i < line.length;) {
    const unit = line.charCodeAt(i);
    const next = i + 1 < line.length ? line.charCodeAt(i + 1) : 0;
    // A surrogate pair is one code point of 4 octets; a lone surrogate is written as U+FFFD (3).
    const pair = unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
    const size = pair ? 4 : unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3;
    if (octets + size > limit) {
      out.push(line.slice(from, i));
      from = i;
      octets = 0;
      // Continuation lines start with the space, which counts toward their 75 octets.
      limit = 74;
    }
    octets += size;
    i += pair ? 2 : 1;
  }
  out.push(line.slice(from));
  return out.join('\r\n ');
}

// eslint-disable-next-line no-control-regex -- every ASCII character, the controls among them
const ASCII = /^[\u0000-\u007f]*$/;

function property(name: string, value: string): string {
  return foldLine(`${name}:${value}`);
}

function uri(value: string): string {
  const u = new URL(value);
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    throw new RangeError('only http(s) URLs go into a calendar file');
  return u.toString();
}

/**
 * The whole file: CRLF after every line, the last one included (§3.1). UTF-8 is the default charset
 * (§6).
 */
export function serializeCalendar(
  events: readonly CalendarEvent[],
  options: CalendarOptions,
): string {
  const lines: string[] = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    property('PRODID', options.productId ?? PRODUCT_ID),
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
  ];
  if (options.name !== undefined)
    lines.push(
      property('NAME', escapeText(options.name)),
      property('X-WR-CALNAME', escapeText(options.name)),
    );
  if (options.timeZone !== undefined)
    lines.push(property('X-WR-TIMEZONE', escapeText(options.timeZone)));
  if (options.refreshMinutes !== undefined)
    lines.push(
      `REFRESH-INTERVAL;VALUE=DURATION:PT${Math.max(1, Math.round(options.refreshMinutes))}M`,
    );
  const stamp = utcDateTime(options.stamp);
  for (const e of events) {
    lines.push(
      'BEGIN:VEVENT',
      property('UID', e.uid),
      `DTSTAMP:${stamp}`,
      `DTSTART:${utcDateTime(e.start)}`,
    );
    if (e.sequence !== undefined) lines.push(`SEQUENCE:${Math.max(0, Math.trunc(e.sequence))}`);
    if (e.lastModified) lines.push(`LAST-MODIFIED:${utcDateTime(e.lastModified)}`);
    if (e.end) {
      if (e.end.getTime() < e.start.getTime())
        throw new RangeError('an event cannot end before it starts');
      lines.push(`DTEND:${utcDateTime(e.end)}`);
    }
    lines.push(property('SUMMARY', escapeText(e.summary)));
    if (e.description !== undefined) lines.push(property('DESCRIPTION', escapeText(e.description)));
    if (e.location !== undefined) lines.push(property('LOCATION', escapeText(e.location)));
    if (e.url !== undefined) lines.push(property('URL', uri(e.url)));
    // A reminder, not a meeting, does not make the student look busy; an event they attend does
    // (§3.8.2.7).
    lines.push(e.busy === true ? 'TRANSP:OPAQUE' : 'TRANSP:TRANSPARENT');
    for (const a of e.alarms ?? []) {
      // §3.8.6.3: a duration TRIGGER is relative to DTSTART. One already past at DTSTAMP would fire
      // on import: left out.
      if (e.start.getTime() + durationMs(a.before) <= options.stamp.getTime()) continue;
      // §3.6.6: a DISPLAY alarm needs ACTION, TRIGGER and DESCRIPTION.
      lines.push(
        'BEGIN:VALARM',
        'ACTION:DISPLAY',
        `TRIGGER:${a.before}`,
        property('DESCRIPTION', escapeText(a.description)),
        'END:VALARM',
      );
    }
    lines.push('END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return lines.join('\r\n') + '\r\n';
}

/**
 * A name-based UUID (RFC 9562 §5.5, version 5: SHA-1 of a namespace and a name). The same site and
 * item always give the same UID, so a re-exported reminder replaces the earlier one; nothing about
 * the student is readable in it (RFC 7986 §5.3 advises against host names and other identifying
 * data in UIDs).
 */
export function uuidV5(name: string, namespace: string = CALENDAR_NAMESPACE): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  if (ns.length !== 16) throw new RangeError('namespace must be a UUID');
  const hash = createHash('sha1').update(ns).update(name, 'utf8').digest();
  const b = hash.subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** This app's namespace for calendar UIDs (a fixed random UUID). */
const CALENDAR_NAMESPACE = '4f0b7c52-9a0e-4c39-8d6f-2b1e5a7c9d31';
