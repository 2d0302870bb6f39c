/**
 * An archive of one school the student keeps (archive-write.ts writes it): `index.html`, a page
 * that opens offline in any browser, with no script, no image and no request (its CSP says so);
 * `archive.json`, the same for programs; `notes/<course>.md`, each course's notes as Markdown;
 * `receipts/<order>.html`, each paid order's receipt. Built from the saved copy's views only: no
 * token, no cookie, nothing of the vault ever reaches it, and every text is escaped, so what the
 * site sent as markup shows as text.
 */
import type {
  CourseDetail,
  EntitlementsView,
  NoteView,
  NotificationView,
  OrderView,
} from '../../common/view-models';
import {
  getBilling,
  getCourseDetail,
  getEntitlements,
  getLibraryPage,
  getNotifications,
} from '../db/index';
import { getCourseNotes, type ReadableDB } from '../db/index';
import { courseNotesMarkdown, clock } from './notes-markdown';
import { escapeHtml, receiptHtml } from './receipt';
import { safeFileName } from './service';
import { label } from './safe';
import { stringsFor, type ExportLanguage } from './strings';

export interface ArchiveFile {
  /** Relative, forward slashes, names from safeFileName only. */
  readonly path: string;
  readonly body: string;
}

export interface ArchiveOptions {
  readonly language: ExportLanguage;
  readonly timeZone: string;
  readonly site: { readonly label: string; readonly baseUrl: string };
  readonly now: Date;
  /** Told after each course is read (a large school has thousands). */
  readonly onProgress?: (done: number, total: number) => void;
}

interface ArchiveData {
  readonly school: { readonly name: string; readonly address: string };
  readonly madeAt: string;
  readonly courses: readonly (CourseDetail & { readonly notes: readonly NoteView[] })[];
  readonly orders: readonly OrderView[];
  readonly entitlements: EntitlementsView;
  readonly notices: readonly NotificationView[];
}

const WORDS = {
  en: {
    title: 'Archive',
    made: 'Made by Learning Desktop on',
    offline:
      'Everything here is a copy kept on this computer; it opens without the app or a network.',
    courses: 'Courses',
    progress: 'done',
    access: 'Access ends',
    lifetime: 'Lifetime access',
    notes: 'Notes',
    purchases: 'Purchases',
    receipt: 'Receipt',
    products: 'Products',
    events: 'Events',
    notices: 'Notices',
    none: 'None',
    completed: 'Completed',
    read: 'Started',
    unread: 'Not started',
  },
  'zh-TW': {
    title: '封存',
    made: '由 Learning Desktop 製作於',
    offline: '這裡的內容都是保存在這台電腦上的副本，不需要 App 或網路就能開啟。',
    courses: '課程',
    progress: '已完成',
    access: '觀看期限',
    lifetime: '永久觀看',
    notes: '筆記',
    purchases: '購買紀錄',
    receipt: '收據',
    products: '商品',
    events: '活動',
    notices: '通知',
    none: '無',
    completed: '已完成',
    read: '已開始',
    unread: '未開始',
  },
} as const;

/** Reads everything the archive holds, a course at a time. */
function readArchive(db: ReadableDB, siteId: string, options: ArchiveOptions): ArchiveData {
  const { now } = options;
  const list = getLibraryPage(db, siteId, now).items;
  const courses = list.map((c, i) => {
    const detail = getCourseDetail(db, siteId, c.courseId, now);
    options.onProgress?.(i + 1, list.length);
    return { ...detail, notes: getCourseNotes(db, siteId, c.courseId) };
  });
  return {
    school: { name: options.site.label, address: options.site.baseUrl },
    madeAt: now.toISOString(),
    courses,
    orders: getBilling(db, siteId, now).orders,
    entitlements: getEntitlements(db, siteId, now),
    notices: getNotifications(db, siteId).items,
  };
}

const e = (v: unknown) => escapeHtml(typeof v === 'string' ? v : v == null ? '' : String(v));
const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '');

type Words = Readonly<Record<keyof (typeof WORDS)['en'], string>>;

function courseHtml(c: ArchiveData['courses'][number], w: Words): string {
  const access = c.hasLifetimeAccess ? w.lifetime : `${w.access} ${day(c.expireDate)}`;
  const sections = c.sections
    .map(
      (s) =>
        `<h4>${e(s.title)}</h4><ol>${s.lectures
          .map(
            (l) =>
              `<li>${e(l.title)} <small>${e(clock(l.durationSeconds))} · ${e(label(w, l.state))}</small></li>`,
          )
          .join('')}</ol>`,
    )
    .join('');
  const notes = c.notes
    .map(
      (n) =>
        `<li><b>${e(clock(n.positionSeconds))}</b> ${e(n.lectureTitle)}${n.title ? ` — <b>${e(n.title)}</b>` : ''}${n.body ? `<pre>${e(n.body)}</pre>` : ''}</li>`,
    )
    .join('');
  return `<section><h3>${e(c.title)}</h3>
<p>${e(Math.round(c.percent))}% ${e(w.progress)} (${e(c.completedLectures)}/${e(c.totalLectures)}) · ${e(access)}</p>
${c.description ? `<p>${e(c.description)}</p>` : ''}${sections}${notes ? `<h4>${e(w.notes)}</h4><ul>${notes}</ul>` : ''}</section>`;
}

function indexHtml(data: ArchiveData, receipts: ReadonlyMap<string, string>, lang: ExportLanguage) {
  const w = WORDS[lang];
  const s = stringsFor(lang);
  const list = (items: string[]) =>
    items.length === 0 ? `<p>${e(w.none)}</p>` : `<ul>${items.join('')}</ul>`;
  const orders = data.orders.map((o) => {
    const receipt = receipts.get(o.tradeNo);
    const payments = o.payments
      .map(
        (p) =>
          `${e(label(s.paymentState, p.paymentState))} ${e(p.amount)} ${e(p.currency)} ${e(day(p.createdAt))}`,
      )
      .join('; ');
    return `<li>${e(day(o.createdAt))} · ${e(o.tradeNo)} · ${e(o.title)} · ${e(o.totalAmount)} ${e(o.currency)} · ${e(label(s.orderState, o.summaryState))}<br><small>${payments}</small>${receipt ? ` · <a href="${e(receipt)}">${e(w.receipt)}</a>` : ''}</li>`;
  });
  return `<!doctype html>
<html lang="${e(lang)}"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(data.school.name)} · ${e(w.title)}</title>
<style>body{font-family:system-ui,"Noto Sans TC","PingFang TC","Microsoft JhengHei",sans-serif;max-width:900px;margin:0 auto;padding:24px;line-height:1.5;color:#111;background:#fff}pre{white-space:pre-wrap;background:#f4f4f5;padding:8px;border-radius:6px}small{color:#555}section{border-top:1px solid #ddd;padding-top:8px}</style>
</head><body>
<h1>${e(data.school.name)} · ${e(w.title)}</h1>
<p>${e(w.made)} ${e(day(data.madeAt))} · ${e(data.school.address)}</p>
<p>${e(w.offline)}</p>
<h2>${e(w.courses)}</h2>
${data.courses.map((c) => courseHtml(c, w)).join('\n') || `<p>${e(w.none)}</p>`}
<h2>${e(w.purchases)}</h2>
${list(orders)}
<h2>${e(w.products)}</h2>
${list(data.entitlements.digitalProducts.map((p) => `<li>${e(p.title)} · ${e(p.format)} · ${e(day(p.deliveredAt))}</li>`))}
<h2>${e(w.events)}</h2>
${list(data.entitlements.eventRegistrations.map((r) => `<li>${e(r.title)} · ${e(day(r.startsAt))} · ${e(r.ticketName)}</li>`))}
<h2>${e(w.notices)}</h2>
${list(data.notices.map((n) => `<li><b>${e(n.title)}</b> <small>${e(day(n.createdAt))}</small><pre>${e(n.body)}</pre></li>`))}
</body></html>
`;
}

/** Every file of the archive, index.html last (the writer writes them in this order). */
export function buildArchive(
  db: ReadableDB,
  siteId: string,
  options: ArchiveOptions,
): ArchiveFile[] {
  const data = readArchive(db, siteId, options);
  const files: ArchiveFile[] = [];
  const receipts = new Map<string, string>();
  const names = new Set<string>();
  const unique = (name: string) => {
    let n = name;
    for (let i = 2; names.has(n); i++) n = name.replace(/(\.\w+)$/, `-${i}$1`);
    names.add(n);
    return n;
  };
  for (const o of data.orders) {
    if (o.paidAmount <= 0) continue;
    const path = `receipts/${unique(safeFileName(`receipt-${o.tradeNo}`, 'html'))}`;
    receipts.set(o.tradeNo, path);
    files.push({
      path,
      body: receiptHtml(o, {
        language: options.language,
        timeZone: options.timeZone,
        site: options.site,
        generatedAt: options.now,
      }),
    });
  }
  for (const c of data.courses)
    if (c.notes.length > 0)
      files.push({
        path: `notes/${unique(safeFileName(`notes-${c.slug}`, 'md'))}`,
        body: courseNotesMarkdown(c.notes, {
          language: options.language,
          siteUrl: options.site.baseUrl,
          courseSlug: c.slug,
          generatedAt: options.now,
        }),
      });
  files.push({ path: 'archive.json', body: `${JSON.stringify(data, null, 2)}\n` });
  files.push({ path: 'index.html', body: indexHtml(data, receipts, options.language) });
  return files;
}
