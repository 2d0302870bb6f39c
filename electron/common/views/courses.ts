import type { Unknown } from '../site-values';
import type { IsoDateTime, Page } from './base';

/** Courses: the library, a course with its sections and lectures. */

export type LectureState = 'unread' | 'read' | 'completed';

export interface ContinueWatching {
  readonly lectureId: string;
  readonly lectureTitle: string;
  readonly sectionTitle: string;
  readonly positionSeconds: number;
  readonly durationSeconds: number;
}

/** A lecture named by a prompt ("Up next", "Locked until ..."). */
export interface LectureRef {
  readonly lectureId: string;
  readonly title: string;
  readonly sectionTitle: string;
  readonly durationSeconds: number;
}

/**
 * What the course asks of the student now, decided by the core (db/next-step.ts):
 * - expired: access ended (on endedAt, when known); nothing to continue.
 * - completed: every lecture done; `again` is the first lecture, to watch again.
 * - resume: the last watched lecture, stopped at positionSeconds.
 * - next: the next unlocked lecture (the last one was finished: within its final 5% or 30 s, or
 *   marked completed).
 * - start: nothing watched yet; the first unlocked lecture not completed.
 * - locked: the next lecture is locked until unlockAt (null: no date given).
 * - none: the course has no lectures.
 */
export type CourseNextStep =
  | { readonly kind: 'expired'; readonly endedAt: IsoDateTime | null }
  | { readonly kind: 'completed'; readonly again: LectureRef | null }
  | { readonly kind: 'resume'; readonly lecture: LectureRef; readonly positionSeconds: number }
  | { readonly kind: 'next'; readonly lecture: LectureRef; readonly finished: LectureRef | null }
  | { readonly kind: 'start'; readonly lecture: LectureRef }
  | { readonly kind: 'locked'; readonly lecture: LectureRef; readonly unlockAt: IsoDateTime | null }
  | { readonly kind: 'none' };

export interface LibraryCourse {
  readonly courseId: string;
  readonly slug: string;
  readonly title: string;
  readonly description: string | null;
  readonly coverImageUrl: string | null;
  readonly instructorName: string | null;
  readonly enrolledAt: IsoDateTime;
  readonly expireDate: IsoDateTime | null;
  readonly hasLifetimeAccess: boolean;
  /** Access has ended (expireDate in the past, no lifetime access). */
  readonly isExpired: boolean;
  /** Access ends within 14 days. */
  readonly expiresSoon: boolean;
  readonly totalLectures: number;
  readonly completedLectures: number;
  readonly readLectures: number;
  /** 0..100. */
  readonly percent: number;
  readonly completedAt: IsoDateTime | null;
  readonly continueWatching: ContinueWatching | null;
  /** The site the course comes from (the "All schools" library mixes sites). */
  readonly siteId: string;
  /** Lectures not completed yet, and their length in seconds ("57 min left"). */
  readonly lecturesLeft: number;
  readonly secondsLeft: number;
  /**
   * Lectures the course gained at the syncs since the student last opened it ("new since last
   * sync"); 0 for none.
   */
  readonly newLectures: number;
  /** The one prompt the course shows: continue, up next, locked, completed or access ended. */
  readonly nextStep: CourseNextStep;
}

/**
 * Library filters, applied by the core at read time (expiry is judged against the clock of the
 * call). In progress:
 * started (a lecture read or completed, progress, or a last watched lecture) and not finished; not
 * started: none of that. Both leave out courses whose access has ended.
 */
export const LIBRARY_FILTERS = [
  'all',
  'in-progress',
  'not-started',
  'completed',
  'expiring-soon',
  'expired',
] as const;
export type LibraryFilter = (typeof LIBRARY_FILTERS)[number];

/**
 * Library orders: the school's own, recent activity (last watched, else enrolled), access ending
 * soonest, progress, title.
 */
export const LIBRARY_SORTS = ['service', 'recent', 'ending', 'progress', 'title'] as const;
export type LibrarySort = (typeof LIBRARY_SORTS)[number];

export interface LibraryPage extends Page<LibraryCourse> {
  /** Courses of the site, whatever the filter (the screen tells "no courses" from "none match"). */
  readonly courseCount: number;
}

export interface LectureView {
  readonly lectureId: string;
  readonly title: string;
  readonly position: number;
  /** 'unknown' for a state this version does not know (site-values.ts). */
  readonly state: LectureState | Unknown;
  readonly isLocked: boolean;
  readonly unlockAt: IsoDateTime | null;
  readonly durationSeconds: number;
  /** True for the last watched lecture. */
  readonly isLastWatched: boolean;
}

export interface SectionView {
  readonly sectionId: string;
  readonly title: string;
  readonly position: number;
  readonly lectures: readonly LectureView[];
}

/**
 * A course with its contents, for the course screen. A display-only field the course query asks for
 * (the core's db/course-display.ts) is declared here as `string | null` and filled by the core with
 * no line of mapping; the core fails to compile when the query does not ask for it.
 */
export interface CourseDetail extends LibraryCourse {
  readonly sections: readonly SectionView[];
  readonly lastWatched: {
    readonly lectureId: string;
    readonly positionSeconds: number;
    readonly watchedAt: IsoDateTime | null;
  } | null;
}
