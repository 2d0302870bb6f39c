/**
 * The last plan built (Today's, or the feed's own), kept so the calendar feed's study blocks need
 * not plan every course again. The study blocks read of a plan only what changes by the day: each
 * course's pace per study day, whether it is done, its title and end. Those are the same as a plan
 * built now would have while nothing was committed to the saved copy, the preferences are the
 * same, it is the same day in the same zone, and no planned course has ended (an ended course
 * leaves the list, and the next one ending moves up). Today always plans afresh: its days and
 * weeks left follow the clock.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { PlanView } from '../../common/plan-contract';
import { localDay } from '../../common/zoned-time';
import { buildPlanView, type PlanChoices } from '../db/index';

export interface PlanCacheDeps {
  readonly db: Database;
  /** The student's choices now, and their revision (grows with every change). */
  readonly choices: () => PlanChoices;
  readonly revision: () => number;
}

interface Kept {
  readonly view: PlanView;
  readonly stateKey: string;
  readonly timeZone: string;
  readonly builtAt: number;
  readonly day: number;
  /** The first instant a planned course has ended: the list of courses is stale from then. */
  readonly until: number;
}

export class PlanCache {
  #deps: PlanCacheDeps;
  #kept: Kept | null = null;
  #dataVersion: Statement | null = null;
  #totalChanges: Statement | null = null;

  constructor(deps: PlanCacheDeps) {
    this.#deps = deps;
  }

  /**
   * What the saved copy and the preferences are now: `PRAGMA data_version` moves with another
   * connection's commit (https://sqlite.org/pragma.html#pragma_data_version), total_changes() with
   * this one's.
   */
  #stateKey(): string {
    this.#dataVersion ??= this.#deps.db.prepare('PRAGMA data_version').pluck();
    this.#totalChanges ??= this.#deps.db.prepare('SELECT total_changes()').pluck();
    const data = `${String(this.#dataVersion.get())}:${String(this.#totalChanges.get())}`;
    return `${data}:${this.#deps.revision()}`;
  }

  /** A plan built at `now`, kept for the feed. */
  build(now: number, timeZone: string, syncedAt: string | null): PlanView {
    const stateKey = this.#stateKey();
    const view = buildPlanView(this.#deps.db, this.#deps.choices(), now, timeZone, syncedAt);
    let until = Number.POSITIVE_INFINITY;
    for (const c of view.courses) {
      const end = c.expireDate === null ? NaN : Date.parse(c.expireDate);
      if (end < until) until = end;
    }
    this.#kept = { view, stateKey, timeZone, builtAt: now, day: localDay(now, timeZone), until };
    return view;
  }

  /** A plan whose study blocks are those of one built at `now`: the kept one while it is. */
  forStudyBlocks(now: number, timeZone: string): PlanView {
    const k = this.#kept;
    const fresh =
      k !== null &&
      k.timeZone === timeZone &&
      now >= k.builtAt &&
      now < k.until &&
      localDay(now, timeZone) === k.day &&
      k.stateKey === this.#stateKey();
    return fresh ? k.view : this.build(now, timeZone, null);
  }
}
