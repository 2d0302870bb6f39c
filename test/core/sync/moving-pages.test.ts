import type Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createSyncService } from '../../../electron/core/sync';
import { fetchSnapshot, MAX_WALKS } from '../../../electron/core/sync/fetch-snapshot';
import {
  createTransport,
  defaultSleep,
  type SiteClient,
} from '../../../electron/core/sync/transport';
import { PAGE_SIZE } from '../../../electron/core/graphql/documents';
import type { EmbeddedServer } from '../../../embedded-server/index';
import { STUDENT } from '../../../embedded-server/seed/content-demo';
import { fetchOnlyClient, queryServer } from './helpers/member-token';
import { contents, openWorkerDb, startSite } from './helpers/setup';

/**
 * A course whose enrolment time changes while `enrolledCourses` is paged moves across its pages
 * (the connection is ordered newest enrolment first, with keyset cursors): moved to the top it is
 * skipped, moved to the bottom it comes twice. Against the real embedded server, changed between
 * two pages of one walk: the sync walks the connection again and stores exactly the school's
 * courses; a school that keeps changing fails the run and keeps the old copy.
 */

type Move = 'top' | 'bottom';

/**
 * Moves one of the student's enrolments to the top (the newest) or the bottom (the oldest) of the
 * connection.
 */
function moveEnrolment(server: EmbeddedServer, to: Move): void {
  const db = server.db;
  const school = server.site.schoolId;
  const edge = db
    .prepare<{ school: string; user: string }, { id: string; lo: number; hi: number }>(
      `SELECT id, (SELECT min(enrolled_at) FROM enrollments WHERE school_id = :school AND user_id = :user) AS lo,
              (SELECT max(enrolled_at) FROM enrollments WHERE school_id = :school AND user_id = :user) AS hi
         FROM enrollments WHERE school_id = :school AND user_id = :user
        ORDER BY enrolled_at ${to === 'top' ? 'ASC, id ASC' : 'DESC, id DESC'} LIMIT 1`,
    )
    .get({ school, user: STUDENT })!;
  db.prepare('UPDATE enrollments SET enrolled_at = ? WHERE id = ?').run(
    to === 'top' ? edge.hi + 60_000 : edge.lo - 60_000,
    edge.id,
  );
}

/**
 * A client whose course pages after the first (a request with `after`) first change the school:
 * once (`times`) or on every such page. A page asked for ahead (a re-sync at the last sync's
 * cursors) waits until the walk's first page has been answered, so the change always falls between
 * two pages the site answers. Its pages go through this thread's fetch, so the test sees each
 * request's variables.
 */
function changingClient(
  site: { server: EmbeddedServer; accessToken: string },
  to: Move,
  times = 1,
): SiteClient & { moved(): number } {
  const inner = fetchOnlyClient(site.server.url, site.accessToken);
  let moved = 0;
  let firstPage: Promise<unknown> = Promise.resolve();
  return {
    endpoint: inner.endpoint,
    moved: () => moved,
    fetch: async (input, init) => {
      const body =
        typeof init?.body === 'string'
          ? (JSON.parse(init.body) as { query: string; variables?: { after?: unknown } })
          : null;
      if (!body || !/query SyncCourses\b/.test(body.query)) return inner.fetch(input, init);
      if (typeof body.variables?.after !== 'string') {
        const answer = inner.fetch(input, init);
        firstPage = answer.catch(() => undefined);
        return answer;
      }
      await firstPage;
      if (moved < times) {
        moved += 1;
        moveEnrolment(site.server, to);
      }
      return inner.fetch(input, init);
    },
  };
}

const COURSE_IDS = /* GraphQL */ `
  query Ids($after: String) {
    viewer {
      enrolledCourses(first: 100, after: $after) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          id
        }
      }
    }
  }
`;

/** The school's course ids, read at rest once the sync is over. */
async function schoolCourseIds(site: {
  server: EmbeddedServer;
  accessToken: string;
}): Promise<string[]> {
  const ids: string[] = [];
  let after: string | null = null;
  for (;;) {
    type Page = {
      viewer: {
        enrolledCourses: {
          pageInfo: { hasNextPage: boolean; endCursor: string };
          nodes: { id: string }[];
        };
      };
    };
    const data: Page = await queryServer<Page>(site.server.url, site.accessToken, COURSE_IDS, {
      after,
    });
    ids.push(...data.viewer.enrolledCourses.nodes.map((n) => n.id));
    if (!data.viewer.enrolledCourses.pageInfo.hasNextPage) return ids.sort();
    after = data.viewer.enrolledCourses.pageInfo.endCursor;
  }
}

const storedCourseIds = (db: Database.Database) =>
  (
    db
      .prepare("SELECT id FROM courses WHERE site_id = 'demo' ORDER BY id")
      .pluck()
      .all() as string[]
  ).sort();

/** Three pages of courses and more. */
const SEED = {
  seed: 'large' as const,
  seedOptions: {
    large: {
      courses: 3 * PAGE_SIZE.courses + 5,
      lecturesPerCourse: 2,
      payments: 10,
      notifications: 10,
    },
  },
};

/**
 * The writer worker, its read-only connection and a sync service whose client the test can swap
 * between syncs.
 */
async function workerSync(first: SiteClient) {
  const { writer, db } = await openWorkerDb();
  let client = first;
  const sync = createSyncService({ db, writer, clientFor: () => client });
  onTestFinished(() => sync.close());
  return { db, sync, use: (next: SiteClient) => (client = next) };
}

describe('a course moved across the pages while they are read', () => {
  for (const to of ['top', 'bottom'] as const) {
    it(`moved to the ${to} mid-sync: the walk is done again and every course is stored once (writer worker)`, async () => {
      const site = await startSite(SEED);
      const client = changingClient(site, to);
      const { db, sync } = await workerSync(client);
      const summary = await sync.syncNow('demo');
      expect(client.moved()).toBe(1);
      expect(summary).toMatchObject({ outcome: 'completed', error: null });
      const school = await schoolCourseIds(site);
      expect(school.length).toBeGreaterThan(3 * PAGE_SIZE.courses);
      expect(storedCourseIds(db)).toEqual(school);
      expect(summary.counts.courses).toBe(school.length);
    });

    it(`moved to the ${to} during a re-sync at the last sync's cursors: every course is stored once`, async () => {
      const site = await startSite(SEED);
      const { db, sync, use } = await workerSync(
        fetchOnlyClient(site.server.url, site.accessToken),
      );
      expect((await sync.syncNow('demo')).outcome).toBe('completed');
      // The stored cursors are the hint: the second sync asks for the pages ahead, where the course
      // has moved.
      const client = changingClient(site, to);
      use(client);
      const summary = await sync.syncNow('demo');
      expect(client.moved()).toBe(1);
      expect(summary).toMatchObject({ outcome: 'completed', error: null });
      expect(storedCourseIds(db)).toEqual(await schoolCourseIds(site));
    });

    it(`moved to the ${to} between two pages without the writer (pages parsed here, a memory sink)`, async () => {
      const site = await startSite(SEED);
      const client = changingClient(site, to);
      const fetched = await fetchSnapshot(createTransport(client, { sleep: defaultSleep }), {});
      expect(client.moved()).toBe(1);
      const ids = (fetched.snapshot.courses ?? []).map((c) => c.id).sort();
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(await schoolCourseIds(site));
    });
  }

  it('a school that keeps changing: the run fails as data changing at the school and the saved copy is kept', async () => {
    const site = await startSite(SEED);
    const { db, sync, use } = await workerSync(fetchOnlyClient(site.server.url, site.accessToken));
    expect((await sync.syncNow('demo')).outcome).toBe('completed');
    const before = contents(db);
    const storedBefore = storedCourseIds(db);
    // Every page after the first of every walk finds a course moved since the page before.
    const client = changingClient(site, 'top', Number.POSITIVE_INFINITY);
    use(client);
    const summary = await sync.syncNow('demo');
    expect(client.moved()).toBeGreaterThanOrEqual(MAX_WALKS);
    expect(summary.outcome).toBe('failed');
    expect(summary.error?.code).toBe('site-data-changing');
    expect(summary.error?.message).toMatch(
      /courses changed at the school while this sync read them/,
    );
    expect(contents(db)).toBe(before);
    expect(storedCourseIds(db)).toEqual(storedBefore);
    expect(sync.status('demo').lastError?.code).toBe('site-data-changing');
  });
});
