import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { searchEverything } from '../../../electron/core/db';
import { siteText } from '../../../electron/common/site-values';
import { STATE_WORDS } from '../../../electron/core/db/search/words';
import { createSyncService } from '../../../electron/core/sync';
import { openTempDb, startSite } from '../sync/helpers/setup';
import { course, notification, payment } from './fixtures';
import { closeDatabases, NOW, withSite } from './pages-scaffold';

afterEach(closeDatabases);

type Billing = {
  billing: Record<'paymentState' | 'refundState' | 'itemType', Record<string, string>>;
};
const en = JSON.parse(readFileSync('renderer/src/i18n/en.json', 'utf8')) as Billing;
const zhTW = JSON.parse(readFileSync('renderer/src/i18n/zh-TW.json', 'utf8')) as Billing;

/**
 * The index and the query in one form (db/search/normalize.ts): a title is found by itself, typed
 * or pasted, whatever widths of punctuation either side used. And an order is found by the words of
 * its states and kinds in both languages and by its tickets' names.
 */

/** Punctuation of both languages, in the widths a school's title or a student's typing may use. */
const PUNCTUATION = [
  '：',
  ':',
  '，',
  ',',
  '（',
  '(',
  '）',
  ')',
  '！',
  '!',
  '？',
  '?',
  '；',
  ';',
  '「',
  '」',
  '、',
  '。',
  '／',
  '/',
  '－',
  '-',
  '～',
  '~',
  '＆',
  '&',
  '　',
  ' ',
];
const WORDS = [
  '線上問答',
  '資料職涯',
  '程式設計',
  'Python',
  'Data',
  'Careers',
  'Ｐｙｔｈｏｎ',
  '１０１',
  'Q&A',
];
/** ASCII to full width (U+FF01-FF5E) and back: the two ways one title is typed. */
const wide = (s: string) =>
  s.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).replace(/ /g, '\u3000');
const narrow = (s: string) =>
  s
    .replace(/[\uff01-\uff5e]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(/\u3000/g, ' ');

const titleArb = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...PUNCTUATION)), {
    minLength: 1,
    maxLength: 4,
  })
  .map((parts) => parts.map(([w, p]) => `${w}${p}`).join(''));

describe('search: the query and the index in one form (NFKC)', () => {
  it('a course is found by its own title, as written, in full width and in half width', () => {
    fc.assert(
      fc.property(titleArb, fc.constantFrom('as-is', 'wide', 'narrow'), (title, typed) => {
        const db = withSite({
          courses: [course('c1', { title }), course('c2', { title: 'Something else entirely' })],
        });
        const query = typed === 'wide' ? wide(title) : typed === 'narrow' ? narrow(title) : title;
        const hits = searchEverything(db, query, { siteIds: ['s'], kinds: ['course'] }, NOW);
        db.close();
        expect(
          hits.map((h) => h.id),
          `${title} searched as ${query}`,
        ).toContain('c1');
      }),
      { numRuns: 50 },
    );
  });

  it('線上問答：資料職涯 is found by its own title, with the full-width colon or an ASCII one', () => {
    const db = withSite({
      courses: [course('c1', { title: 'Live Q&A: Data Careers 線上問答：資料職涯' })],
    });
    for (const query of [
      '線上問答：資料職涯',
      '線上問答:資料職涯',
      'Live Q&A: Data Careers 線上問答：資料職涯',
    ])
      expect(
        searchEverything(db, query, { siteIds: ['s'] }, NOW).map((h) => h.id),
        query,
      ).toContain('c1');
  });

  it('a hit’s title and snippet are the school’s own text, whatever widths the title and the query use', () => {
    fc.assert(
      fc.property(titleArb, fc.constantFrom('as-is', 'wide', 'narrow'), (title, typed) => {
        const db = withSite({ courses: [course('c1', { title: `${title}㈱ﬁ`.repeat(3) })] });
        const query = typed === 'wide' ? wide(title) : typed === 'narrow' ? narrow(title) : title;
        const hit = searchEverything(db, query, { siteIds: ['s'], kinds: ['course'] }, NOW).find(
          (h) => h.id === 'c1',
        );
        db.close();
        expect(hit?.title, query).toBe(siteText(`${title}㈱ﬁ`.repeat(3)));
        const plain = hit!.snippet.replace(/\[\[|\]\]/g, '').replace(/^…|…$/g, '');
        expect(siteText(`${title}㈱ﬁ`.repeat(3)), `${query}: ${hit!.snippet}`).toContain(plain);
      }),
      { numRuns: 50 },
    );
  });

  it('a hit shows the school’s own title, full-width colon and digit kept, however the query was typed', () => {
    // The index matches in NFKC ("：" is ":" there, "１" is "1"); the title the student reads is the
    // school's.
    const title = '線上問答：資料職涯（第１期）';
    const db = withSite({
      courses: [course('c1', { title }), course('c2', { title: 'Something else entirely' })],
    });
    for (const query of [
      title,
      '線上問答:資料職涯(第1期)',
      '線上問答：資料職涯',
      '第1期',
      '第１期',
    ]) {
      const hits = searchEverything(db, query, { siteIds: ['s'] }, NOW).filter(
        (h) => h.id === 'c1',
      );
      expect(hits.length, query).toBe(1);
      expect(hits[0]!.title, query).toBe(siteText(title));
      expect(hits[0]!.title, query).toBe(title);
      // Its snippet is of the same text, the match marked.
      expect(hits[0]!.snippet, query).toContain('[[');
      expect(hits[0]!.snippet.replace(/\[\[|\]\]/g, ''), query).toBe(title);
    }
  });
});

describe('search: the school’s own text of every kind', () => {
  it('a notice and an order show their titles as the school wrote them', () => {
    const title = '線上問答：資料職涯（第１期）';
    const item = {
      id: 'li',
      itemType: 'Ticket',
      title,
      quantity: 1,
      originalAmount: 1000,
      discountAmount: 0,
      finalAmount: 1000,
    };
    const db = withSite({
      notifications: [notification('n1', { title })],
      payments: [payment('p1', { lineitems: [item] })],
    });
    for (const query of ['線上問答:資料職涯', '第1期']) {
      const hits = searchEverything(
        db,
        query,
        { siteIds: ['s'], kinds: ['notification', 'order'] },
        NOW,
      );
      expect(hits.map((h) => [h.kind, h.title]).sort(), query).toEqual([
        ['notification', title],
        ['order', title],
      ]);
    }
  });
});

describe('search: a snippet of the body in the school’s own text', () => {
  it('a notice’s body and an instructor’s name keep their full-width punctuation in the snippet', () => {
    const body = '講座時間：週六（第２場）。請準時入場！';
    const db = withSite({
      notifications: [notification('n1', { title: 'Schedule', body })],
      courses: [course('c1', { title: 'Design', instructorName: '王小明（講師）' })],
    });
    for (const query of ['週六(第2場)', '週六（第２場）', '第2場']) {
      const hit = searchEverything(db, query, { siteIds: ['s'], kinds: ['notification'] }, NOW)[0];
      expect(hit?.id, query).toBe('n1');
      expect(hit!.snippet, query).toContain('[[');
      const plain = hit!.snippet.replace(/\[\[|\]\]/g, '').replace(/^…|…$/g, '');
      expect(body, `${query}: ${hit!.snippet}`).toContain(plain);
      expect(hit!.snippet, query).toContain('（');
    }
    const teacher = searchEverything(db, '講師', { siteIds: ['s'], kinds: ['course'] }, NOW)[0];
    expect(teacher?.id).toBe('c1');
    expect(teacher!.snippet.replace(/\[\[|\]\]/g, '')).toBe('王小明（講師）');
  });
});

describe('search: an order by its states, its kinds and its tickets', () => {
  it('the words are the Purchases screen’s own, in both languages', () => {
    for (const table of ['paymentState', 'refundState', 'itemType'] as const) {
      const enWords = en.billing[table];
      const zhWords = zhTW.billing[table];
      const expected = Object.fromEntries(
        Object.keys(enWords)
          .filter((k) => !(table === 'refundState' && k === 'none'))
          .map((k) => [k, `${enWords[k]} ${zhWords[k]}`]),
      );
      expect(STATE_WORDS[table], table).toEqual(expected);
    }
  });

  it('"refund" and 「退款」 find the refunded orders; a ticket name finds the order that bought it (demo school over HTTP)', async () => {
    const site = await startSite();
    const { db } = openTempDb();
    const sync = createSyncService({ db, clientFor: () => site.client });
    expect((await sync.syncNow('demo')).outcome).toBe('completed');
    await sync.close();
    const refunded = db
      .prepare(
        "SELECT DISTINCT trade_no FROM payments WHERE site_id = 'demo' AND (payment_state = 'refunded' OR refunding_state = 'refunded')",
      )
      .pluck()
      .all() as string[];
    expect(refunded.length).toBeGreaterThan(0);
    for (const query of ['refund', 'Refunded', '退款', '已退款']) {
      const found = searchEverything(db, query, { siteIds: ['demo'], kinds: ['order'] }, NOW).map(
        (h) => h.id,
      );
      for (const tradeNo of refunded) expect(found, query).toContain(tradeNo);
    }
    // The demo's Q&A ticket is "General 一般票"; its order holds a Ticket item named after the event.
    const ticketOrders = db
      .prepare(
        `SELECT DISTINCT p.trade_no FROM payments p, json_each(p.line_items) li JOIN event_registrations e
           ON e.site_id = p.site_id AND e.title = json_extract(li.value, '$.title')
         WHERE p.site_id = 'demo' AND json_extract(li.value, '$.itemType') = 'Ticket' AND e.ticket_name LIKE 'General%'`,
      )
      .pluck()
      .all() as string[];
    expect(ticketOrders.length).toBeGreaterThan(0);
    for (const query of ['General', '一般票'])
      expect(
        searchEverything(db, query, { siteIds: ['demo'], kinds: ['order'] }, NOW).map((h) => h.id),
        query,
      ).toEqual(expect.arrayContaining(ticketOrders));
    // Kinds: "ticket" and 「票券」 find the orders of tickets.
    for (const query of ['ticket', '票券'])
      expect(
        searchEverything(db, query, { siteIds: ['demo'], kinds: ['order'] }, NOW).map((h) => h.id),
        query,
      ).toEqual(expect.arrayContaining(ticketOrders));
  });
});

describe('search: a title one typo away', () => {
  const db = () =>
    withSite({
      courses: [
        course('py', { title: 'Python for Data Analysis' }),
        course('js', { title: 'JavaScript basics' }),
        course('zh', { title: '資料分析入門 Intro to Statistics' }),
      ],
    });
  const ids = (d: ReturnType<typeof db>, q: string) =>
    searchEverything(d, q, { siteIds: ['s'], kinds: ['course'] }, NOW).map((h) => h.id);

  it('"pyhton" (swapped), "pyton" (missing), "pythom" (wrong) and "pythonn" (extra) find Python', () => {
    const d = db();
    for (const q of ['pyhton', 'pyton', 'pytohn', 'pythom', 'pythonn', 'PYHTON', 'Pyhton data'])
      expect(ids(d, q), q).toEqual(['py']);
    expect(ids(d, 'javsacript'), 'javsacript').toEqual(['js']);
    expect(ids(d, 'Statsitics'), 'Statsitics').toEqual(['zh']);
  });

  it('an exact hit is never crowded out, and two typos or a short word find nothing', () => {
    const d = db();
    expect(ids(d, 'Python')).toEqual(['py']);
    expect(ids(d, 'pyhtno')).toEqual([]); // two edits
    expect(ids(d, 'jva')).toEqual([]); // too short to guess
    expect(ids(d, 'jvaa')).toEqual(['js']); // four letters: one swap from "java"
    expect(ids(d, 'pyhton zzzzzz')).toEqual([]); // every term must match
  });
});
