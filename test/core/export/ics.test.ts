import { describe, expect, it } from 'vitest';
import {
  courseAccessEndCalendar,
  paymentDeadlineCalendar,
  reminderUid,
} from '../../../electron/core/export/calendar';
import {
  durationMs,
  escapeText,
  foldLine,
  serializeCalendar,
  utcDateTime,
  uuidV5,
} from '../../../electron/core/export/ics';
import { isCoreError } from '../../../electron/core/errors';
import { courseDetail, paymentView } from './fixtures';

const STAMP = new Date('2026-06-01T08:00:00.000Z');
const SITE = { baseUrl: 'https://school.example.com', label: 'Good Food School' };

/** Undoes RFC 5545 §3.1 folding: a CRLF followed by one space or tab joins the lines. */
const unfold = (text: string) => text.replace(/\r\n[ \t]/g, '');
const octets = (s: string) => Buffer.byteLength(s, 'utf8');

describe('iCalendar writer (RFC 5545)', () => {
  it('TEXT escaping (§3.3.11): backslash, semicolon, comma and line breaks; control characters dropped', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf\rg')).toBe('a\\\\b\\;c\\,d\\ne\\nf\\ng');
    expect(escapeText('x\u0000y\u0007z\tw\u007f')).toBe('xyz\tw');
    expect(escapeText('料理，入門；"引號"')).toBe('料理，入門；"引號"');
  });

  it('UTC date-times (§3.3.5 form #2)', () => {
    expect(utcDateTime(new Date('2026-01-19T07:00:00.123Z'))).toBe('20260119T070000Z');
    expect(() => utcDateTime(new Date('not a date'))).toThrow(RangeError);
  });

  it('folds at 75 octets, never inside a UTF-8 character, continuation lines starting with one space (§3.1)', () => {
    const ascii = `SUMMARY:${'a'.repeat(200)}`;
    const folded = foldLine(ascii);
    const parts = folded.split('\r\n');
    expect(parts.map(octets)).toEqual([75, 75, 60]);
    expect(parts.slice(1).every((p) => p.startsWith(' '))).toBe(true);
    expect(unfold(folded)).toBe(ascii);

    // Chinese: 3 octets a character. 'SUMMARY:' is 8 octets, so the first line holds 22 characters
    // (74 octets): a 23rd would make 77. The ics package (75 runes a line) would write 75
    // characters = 233 octets here.
    const chinese = `SUMMARY:${'課'.repeat(60)}`;
    const lines = foldLine(chinese).split('\r\n');
    expect(lines.map(octets)).toEqual([74, 73, 43]);
    expect(lines.every((l) => octets(l) <= 75)).toBe(true);
    // Each physical line is valid UTF-8 on its own: decoding and re-encoding changes nothing.
    for (const l of lines)
      expect(
        Buffer.from(Buffer.from(l, 'utf8').toString('utf8'), 'utf8').equals(Buffer.from(l, 'utf8')),
      ).toBe(true);
    expect(unfold(lines.join('\r\n'))).toBe(chinese);

    // An emoji (4 octets, a surrogate pair in JavaScript) is not split either.
    const emoji = foldLine(`X:${'🍳'.repeat(30)}`).split('\r\n');
    expect(emoji.every((l) => octets(l) <= 75 && !/[\uD800-\uDBFF]$/.test(l))).toBe(true);
    expect(foldLine('SHORT:x')).toBe('SHORT:x');
  });

  it('the required properties, CRLF after every line, and a round trip of the text through escaping and folding', () => {
    const summary = 'Pay NT$1,200: 料理入門; "basics"\nline two \\ end';
    const ics = serializeCalendar(
      [
        {
          uid: 'u-1',
          start: new Date('2026-06-10T15:59:00.000Z'),
          summary,
          description: 'x'.repeat(100),
          url: 'https://school.example.com',
          alarms: [{ before: '-P1D', description: 'Soon' }],
        },
      ],
      { stamp: STAMP },
    );
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = unfold(ics).split('\r\n').slice(0, -1);
    expect(lines).toEqual([
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Learning Desktop//Learning Desktop//EN',
      'CALSCALE:GREGORIAN',
      'METHOD:PUBLISH',
      'BEGIN:VEVENT',
      'UID:u-1',
      'DTSTAMP:20260601T080000Z',
      'DTSTART:20260610T155900Z',
      'SUMMARY:Pay NT$1\\,200: 料理入門\\; "basics"\\nline two \\\\ end',
      `DESCRIPTION:${'x'.repeat(100)}`,
      'URL:https://school.example.com/',
      'TRANSP:TRANSPARENT',
      'BEGIN:VALARM',
      'ACTION:DISPLAY',
      'TRIGGER:-P1D',
      'DESCRIPTION:Soon',
      'END:VALARM',
      'END:VEVENT',
      'END:VCALENDAR',
    ]);
    expect(ics.split('\r\n').every((l) => octets(l) <= 75)).toBe(true);
  });

  it('refuses what would make an invalid file: an end before the start, a bad duration, a non-http URL', () => {
    const base = { uid: 'u', start: new Date('2026-06-10T00:00:00Z'), summary: 's' };
    expect(() =>
      serializeCalendar([{ ...base, end: new Date('2026-06-09T00:00:00Z') }], { stamp: STAMP }),
    ).toThrow(RangeError);
    expect(() =>
      serializeCalendar([{ ...base, alarms: [{ before: '1 day', description: 'd' }] }], {
        stamp: STAMP,
      }),
    ).toThrow(RangeError);
    expect(() =>
      serializeCalendar([{ ...base, url: 'javascript:alert(1)' }], { stamp: STAMP }),
    ).toThrow(RangeError);
    expect(() =>
      serializeCalendar([{ ...base, url: 'https://x.example/\r\nBEGIN:VEVENT' }], { stamp: STAMP }),
    ).not.toThrow();
    // The URL parser drops the line break: no injected line can appear.
    const lines = unfold(
      serializeCalendar([{ ...base, url: 'https://x.example/\r\nBEGIN:VEVENT' }], { stamp: STAMP }),
    ).split('\r\n');
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(1);
    expect(lines).toContain('URL:https://x.example/BEGIN:VEVENT');
  });

  it('UIDs are RFC 9562 version-5 UUIDs: stable for the same site and item, different otherwise', () => {
    // The RFC 9562 Appendix A.4 example: "www.example.com" in the DNS namespace.
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
    const a = reminderUid(SITE, 'payment-deadline', 'p1');
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(
      reminderUid({ ...SITE, baseUrl: 'https://school.example.com/' }, 'payment-deadline', 'p1'),
    ).toBe(a);
    expect(
      reminderUid({ ...SITE, baseUrl: 'https://other.example.com' }, 'payment-deadline', 'p1'),
    ).not.toBe(a);
    expect(reminderUid(SITE, 'course-access-end', 'p1')).not.toBe(a);
    expect(reminderUid(SITE, 'payment-deadline', 'p2')).not.toBe(a);
  });
});

describe('calendar reminders from the offline data', () => {
  const atm = paymentView('p9', {
    tradeNo: 'T-9',
    paymentType: 'atm',
    paymentState: 'not_paid',
    paidAt: null,
    amount: 3600,
    lineItems: [
      {
        id: 'a',
        itemType: 'CurriculumPlan',
        title: '料理入門, 第一期',
        quantity: 1,
        originalAmount: 3600,
        discountAmount: 0,
        finalAmount: 3600,
      },
    ],
    instructions: {
      bankCode: '812',
      bankName: '台新銀行',
      codeNo: '99912345678901',
      expiredAt: '2026-06-10T15:59:59.000Z',
      isExpired: false,
    },
  });

  it('a payment code’s deadline, in Traditional Chinese: the deadline, the code, the bank and two reminders', () => {
    const ics = paymentDeadlineCalendar(atm, SITE, { language: 'zh-TW', stamp: STAMP });
    const lines = unfold(ics).split('\r\n');
    expect(lines).toContain(`UID:${reminderUid(SITE, 'payment-deadline', 'p9')}`);
    expect(lines).toContain('DTSTART:20260610T155959Z');
    expect(lines).toContain('SUMMARY:繳費 $3\\,600：料理入門\\, 第一期');
    expect(lines).toContain(
      'DESCRIPTION:ATM 轉帳：99912345678901\\n銀行：台新銀行 (812)\\n金額：$3\\,600\\n訂單編號：T-9\\n學校：Good Food School\\n超過這個時間，代碼就會失效。',
    );
    expect(lines.filter((l) => l.startsWith('TRIGGER:'))).toEqual([
      'TRIGGER:-P1D',
      'TRIGGER:-PT2H',
    ]);
    expect(ics.split('\r\n').every((l) => octets(l) <= 75)).toBe(true);
    // The same payment exported twice gives the same event (only DTSTAMP follows the clock).
    const again = paymentDeadlineCalendar(atm, SITE, {
      language: 'zh-TW',
      stamp: new Date('2026-06-02T00:00:00Z'),
    });
    expect(again.replace(/DTSTAMP:\S+/, '')).toBe(ics.replace(/DTSTAMP:\S+/, ''));
  });

  it('a course’s access end, in English: reminders 30, 7 and 1 days and an hour before, and what is left to watch', () => {
    const lines = unfold(
      courseAccessEndCalendar(courseDetail(), SITE, { language: 'en', stamp: STAMP }),
    ).split('\r\n');
    expect(lines).toContain('DTSTART:20260930T155959Z');
    expect(lines).toContain('SUMMARY:Access ends: Knife skills');
    expect(lines).toContain(
      'DESCRIPTION:Your access to “Knife skills” ends at this time.\\nProgress: 40%\\nLeft: 6 lectures\\, 1 h\\nSchool: Good Food School',
    );
    expect(lines.filter((l) => l.startsWith('TRIGGER:'))).toEqual([
      'TRIGGER:-P30D',
      'TRIGGER:-P7D',
      'TRIGGER:-P1D',
      'TRIGGER:-PT1H',
    ]);
  });

  it('what is left, in both languages: "3 lectures, 57 min", one lecture, hours and minutes, nothing left', () => {
    // The event's own DESCRIPTION comes first; the alarms' follow.
    const description = (language: 'en' | 'zh-TW', lecturesLeft: number, secondsLeft: number) =>
      unfold(
        courseAccessEndCalendar(courseDetail({ lecturesLeft, secondsLeft }), SITE, {
          language,
          stamp: STAMP,
        }),
      )
        .split('\r\n')
        .find((l) => l.startsWith('DESCRIPTION:'))!;
    expect(description('en', 3, 57 * 60 - 20)).toContain('\\nLeft: 3 lectures\\, 57 min\\n');
    expect(description('en', 1, 30)).toContain('\\nLeft: 1 lecture\\, 1 min\\n');
    expect(description('en', 4, 65 * 60)).toContain('\\nLeft: 4 lectures\\, 1 h 5 min\\n');
    expect(description('en', 0, 0)).toContain('\\nLeft: nothing\\, every lecture is done.\\n');
    expect(description('zh-TW', 3, 57 * 60)).toContain('\\n剩下：3 個單元，57 分鐘\\n');
    expect(description('zh-TW', 2, 120 * 60)).toContain('\\n剩下：2 個單元，2 小時\\n');
  });

  it('never an alarm already past when the file is written: only those still to come are kept', () => {
    const triggers = (ics: string) =>
      unfold(ics)
        .split('\r\n')
        .filter((l) => l.startsWith('TRIGGER:'));
    const endingIn = (ms: number) =>
      courseDetail({ expireDate: new Date(STAMP.getTime() + ms).toISOString() });
    const HOUR = 3_600_000;
    // Three days left: the 30- and 7-day alarms would have gone off already.
    expect(
      triggers(
        courseAccessEndCalendar(endingIn(72 * HOUR), SITE, { language: 'en', stamp: STAMP }),
      ),
    ).toEqual(['TRIGGER:-P1D', 'TRIGGER:-PT1H']);
    // Exactly a day left: the day-before alarm would go off as the file is written: left out too.
    expect(
      triggers(
        courseAccessEndCalendar(endingIn(24 * HOUR), SITE, { language: 'en', stamp: STAMP }),
      ),
    ).toEqual(['TRIGGER:-PT1H']);
    // Half an hour left: no alarm at all, and no empty VALARM.
    const late = courseAccessEndCalendar(endingIn(HOUR / 2), SITE, {
      language: 'en',
      stamp: STAMP,
    });
    expect(triggers(late)).toEqual([]);
    expect(late).not.toContain('VALARM');
    // A payment code due in 10 hours keeps its two-hours-before alarm only.
    const soon = {
      ...atm,
      instructions: {
        ...atm.instructions!,
        expiredAt: new Date(STAMP.getTime() + 10 * HOUR).toISOString(),
      },
    };
    expect(triggers(paymentDeadlineCalendar(soon, SITE, { language: 'en', stamp: STAMP }))).toEqual(
      ['TRIGGER:-PT2H'],
    );
  });

  it('RFC 5545 durations in milliseconds (§3.3.6)', () => {
    expect(durationMs('-P1D')).toBe(-86_400_000);
    expect(durationMs('-PT2H')).toBe(-7_200_000);
    expect(durationMs('P1W')).toBe(7 * 86_400_000);
    expect(durationMs('+P1DT2H3M4S')).toBe(((26 * 60 + 3) * 60 + 4) * 1000);
    expect(() => durationMs('1 day')).toThrow(RangeError);
  });

  it('no reminder without a date: lifetime access, a payment with no code or no deadline', () => {
    const refused = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return isCoreError(e, 'invalid-input');
      }
      return false;
    };
    expect(
      refused(() =>
        courseAccessEndCalendar(courseDetail({ hasLifetimeAccess: true, expireDate: null }), SITE, {
          language: 'en',
          stamp: STAMP,
        }),
      ),
    ).toBe(true);
    expect(
      refused(() =>
        paymentDeadlineCalendar(paymentView('p1'), SITE, { language: 'en', stamp: STAMP }),
      ),
    ).toBe(true);
    expect(
      refused(() =>
        paymentDeadlineCalendar(
          { ...atm, instructions: { ...atm.instructions!, expiredAt: null } },
          SITE,
          { language: 'en', stamp: STAMP },
        ),
      ),
    ).toBe(true);
  });
});
