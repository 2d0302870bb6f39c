/**
 * The weekly digest: one OS notification a week summing up the change record (db/change-record.ts)
 * by school and kind ("3 new lectures, 1 course ended"), sent while the app runs, through the same
 * notification path as the reminders. When it was last sent is kept in `dataDir/digest.json`, so a
 * restart within the week sends nothing again. A week with no change sends nothing (and the week
 * is not used up: the first change after it is told at once). Switched off in Settings, nothing is
 * sent or remembered.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type {
  DesktopNotification,
  DigestItem,
  DigestSchool,
} from '../../common/desktop-notifications';
import type { ChangeKind, ChangeView } from '../../common/view-models';
import { writeFileAtomic } from '../fs/atomic-file';

export const DIGEST_WEEK_MS = 7 * 24 * 60 * 60 * 1000;
/** Schools named in the text; the rest are counted ("and 2 more schools"). */
export const DIGEST_SCHOOLS_NAMED = 3;

const memorySchema = z
  .object({ sentAt: z.string().nullable().catch(null) })
  .catch({ sentAt: null });

const ITEM_OF: Record<ChangeKind, DigestItem> = {
  'lectures-new': 'lecturesNew',
  'lectures-unlocked': 'lecturesUnlocked',
  'access-ended': 'coursesEnded',
  'access-moved': 'accessMoved',
  'course-added': 'coursesAdded',
  'course-gone': 'coursesGone',
  'payment-paid': 'paymentsPaid',
  'payment-expired': 'paymentsExpired',
  'payment-refunded': 'paymentsRefunded',
  'product-new': 'productsNew',
  'event-new': 'eventsNew',
};

/** The changes, counted by school (most changes first) and kind; lectures count one by one. */
export function digestOf(
  changes: readonly ChangeView[],
  siteLabel: (siteId: string) => string,
): (DigestSchool & { readonly siteId: string })[] {
  const bySite = new Map<string, Partial<Record<DigestItem, number>>>();
  for (const c of changes) {
    let counts = bySite.get(c.siteId);
    if (!counts) bySite.set(c.siteId, (counts = {}));
    const item = ITEM_OF[c.kind];
    const n = item === 'lecturesNew' || item === 'lecturesUnlocked' ? (c.count ?? 1) : 1;
    counts[item] = (counts[item] ?? 0) + n;
  }
  const total = (c: Partial<Record<DigestItem, number>>) =>
    Object.values(c).reduce((a, b) => a + b, 0);
  return [...bySite]
    .map(([siteId, counts]) => ({ siteId, label: siteLabel(siteId), counts }))
    .sort((a, b) => total(b.counts) - total(a.counts));
}

export interface WeeklyDigestDeps {
  readonly file: string;
  readonly now: () => number;
  readonly enabled: () => boolean;
  /** The change record since an ISO time, every school (db getChangesSince). */
  readonly changesSince: (since: string) => readonly ChangeView[];
  readonly siteLabel: (siteId: string) => string;
  readonly notify: (notification: DesktopNotification) => void;
}

export class WeeklyDigest {
  readonly #deps: WeeklyDigestDeps;
  #sentAt: string | null;
  #running: Promise<unknown> = Promise.resolve();

  private constructor(deps: WeeklyDigestDeps, sentAt: string | null) {
    this.#deps = deps;
    this.#sentAt = sentAt;
  }

  /** Reads when the digest was last sent; a missing or unreadable file is "never". */
  static async open(deps: WeeklyDigestDeps): Promise<WeeklyDigest> {
    let sentAt: string | null = null;
    try {
      sentAt = memorySchema.parse(JSON.parse(await readFile(deps.file, 'utf8'))).sentAt;
    } catch {
      // Never sent, or a file the app did not write whole: the digest is due.
    }
    return new WeeklyDigest(deps, sentAt);
  }

  /** Sends the digest if a week has passed and something changed; true when it was sent. */
  run(): Promise<boolean> {
    const next = this.#running.then(() => this.#run());
    this.#running = next.catch(() => undefined);
    return next;
  }

  async #run(): Promise<boolean> {
    const deps = this.#deps;
    if (!deps.enabled()) return false;
    const now = deps.now();
    const last = this.#sentAt === null ? Number.NaN : Date.parse(this.#sentAt);
    // A clock set back before the last digest counts as a week not yet over.
    if (Number.isFinite(last) && now - last < DIGEST_WEEK_MS && now >= last) return false;
    const since = new Date(now - DIGEST_WEEK_MS).toISOString();
    const schools = digestOf(deps.changesSince(since), deps.siteLabel);
    if (schools.length === 0) return false;
    const sentAt = new Date(now).toISOString();
    // Remembered before it is shown: a crash between the two loses one digest, never repeats one.
    await writeFileAtomic(deps.file, JSON.stringify({ sentAt }));
    this.#sentAt = sentAt;
    deps.notify({
      id: `weekly-digest:${sentAt}`,
      kind: 'weekly-digest',
      siteId: schools[0]!.siteId,
      siteLabel: schools[0]!.label,
      count: schools.length,
      noticeTitle: null,
      digest: schools
        .slice(0, DIGEST_SCHOOLS_NAMED)
        .map((s) => ({ label: s.label, counts: s.counts })),
      screen: 'today',
    });
    return true;
  }
}
