import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  commitSnapshot,
  ensureSite,
  getAllSitesLibraryPage,
  getLibrary,
  getLibraryPage,
  removeSiteData,
} from '../../../electron/core/db';
import { ipcContract } from '../../../electron/common/ipc-contract';
import {
  LIBRARY_FILTERS,
  LIBRARY_SORTS,
  type LibraryFilter,
  type LibrarySort,
} from '../../../electron/common/view-models';
import { course } from './fixtures';
import { closeDatabases, NOW, openDb, withSite, at, day } from './pages-scaffold';

afterEach(closeDatabases);

describe('library pages: filtered by the core at read time', () => {
  const courses = [
    course('c1', { hasLifetimeAccess: true }),
    course('c2', { hasLifetimeAccess: false, expireDate: '2026-06-15T00:00:00.000Z' }),
    course('c3', { hasLifetimeAccess: false, expireDate: '2026-05-01T00:00:00.000Z' }),
    course('c4', {
      detailProgress: {
        totalLectures: 2,
        readLectures: 2,
        completedLectures: 2,
        percent: 100,
        completedAt: day(2),
      },
    }),
    // Same instant as c2's expiry, written in +08:00.
    course('c5', { hasLifetimeAccess: false, expireDate: '2026-06-15T08:00:00+08:00' }),
  ];

  it('pages in the service order, every filter with its own total, the course count whatever the filter', () => {
    const db = withSite({ courses });
    const ids = (p: { items: readonly { courseId: string }[] }) => p.items.map((c) => c.courseId);
    const first = getLibraryPage(db, 's', NOW, { limit: 2 });
    expect(ids(first)).toEqual(['c1', 'c2']);
    expect(first).toMatchObject({ total: 5, nextOffset: 2, courseCount: 5 });
    expect(ids(getLibraryPage(db, 's', NOW, { offset: 4, limit: 2 }))).toEqual(['c5']);
    expect(getLibraryPage(db, 's', NOW, { filter: 'expired' })).toMatchObject({
      total: 1,
      courseCount: 5,
      nextOffset: null,
    });
    expect(ids(getLibraryPage(db, 's', NOW, { filter: 'expired' }))).toEqual(['c3']);
    expect(ids(getLibraryPage(db, 's', NOW, { filter: 'in-progress' }))).toEqual([
      'c1',
      'c2',
      'c5',
    ]);
    expect(ids(getLibraryPage(db, 's', NOW, { filter: 'completed' }))).toEqual(['c4']);
    // Continue watching (joined per page row) on a deep page.
    expect(
      getLibraryPage(db, 's', NOW, { offset: 4, limit: 1 }).items[0]!.continueWatching,
    ).toMatchObject({
      lectureId: 'c5-l2',
      lectureTitle: 'Knife skills',
    });
    expect(getLibraryPage(db, 's', NOW).items).toEqual(getLibrary(db, 's', NOW));
  });

  it('expiry flags and filters flip together at the instant access ends, whatever offset the date was written in', () => {
    const db = withSite({ courses });
    const expiredAt = (iso: string) =>
      getLibraryPage(db, 's', at(iso), { filter: 'expired' }).items.map((c) => c.courseId);
    expect(expiredAt('2026-06-14T23:59:59.999Z')).toEqual(['c3']);
    expect(expiredAt('2026-06-15T00:00:00.000Z')).toEqual(['c2', 'c3', 'c5']);
    const atExpiry = getLibraryPage(db, 's', at('2026-06-15T00:00:00.000Z')).items;
    expect(atExpiry.filter((c) => c.isExpired).map((c) => c.courseId)).toEqual(['c2', 'c3', 'c5']);
    const before = getLibraryPage(db, 's', NOW).items.find((c) => c.courseId === 'c5')!;
    expect(before).toMatchObject({
      isExpired: false,
      expiresSoon: true,
      expireDate: '2026-06-15T08:00:00+08:00',
    });
  });
});

describe('library power tools: filters, orders, time left, every school', () => {
  const unstarted = {
    totalLectures: 2,
    readLectures: 0,
    completedLectures: 0,
    percent: 0,
    completedAt: null,
  };
  const courses = [
    // Started (a lecture read), access ends in 4 days.
    course('a', {
      title: 'beta',
      hasLifetimeAccess: false,
      expireDate: '2026-06-14T00:00:00.000Z',
      lastWatchedLecture: {
        lectureId: 'a-l2',
        positionSeconds: 1,
        watchedAt: '2026-06-09T00:00:00.000Z',
      },
    }),
    // Never started: 0%, nothing watched. Lifetime access.
    course('b', { title: 'Alpha', detailProgress: unstarted, lastWatchedLecture: null }),
    // Finished.
    course('c', {
      title: 'gamma',
      detailProgress: {
        totalLectures: 2,
        readLectures: 2,
        completedLectures: 2,
        percent: 100,
        completedAt: day(2),
      },
      lastWatchedLecture: {
        lectureId: 'c-l2',
        positionSeconds: 1,
        watchedAt: '2026-05-01T00:00:00.000Z',
      },
    }),
    // Ended.
    course('d', {
      title: 'delta',
      hasLifetimeAccess: false,
      expireDate: '2026-05-01T00:00:00.000Z',
    }),
    // Not started, access ends in 30 days.
    course('e', {
      title: 'Epsilon',
      hasLifetimeAccess: false,
      expireDate: '2026-07-10T00:00:00.000Z',
      detailProgress: unstarted,
      lastWatchedLecture: null,
    }),
  ];
  const ids = (p: { items: readonly { courseId: string }[] }) => p.items.map((c) => c.courseId);

  it('in progress means started and not finished (a course at 0% is "not started"); expiring soon is within 14 days', () => {
    const db = withSite({ courses });
    const by = (filter: LibraryFilter) => ids(getLibraryPage(db, 's', NOW, { filter }));
    expect(by('in-progress')).toEqual(['a']);
    expect(by('not-started')).toEqual(['b', 'e']);
    expect(by('completed')).toEqual(['c']);
    expect(by('expiring-soon')).toEqual(['a']);
    expect(by('expired')).toEqual(['d']);
    expect(by('all')).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('orders by recent activity, access ending soonest, progress and title, and pages in that order', () => {
    const db = withSite({ courses });
    const by = (sort: LibrarySort) => ids(getLibraryPage(db, 's', NOW, { sort }));
    // Last watched first (a on 06-09, then the fixtures' 02-01 for d, then c on 05-01...), else the
    // enrolment date.
    expect(by('recent')).toEqual(['a', 'c', 'd', 'b', 'e']);
    // Open access soonest first (a, e), then ended (d), then lifetime in the school's order.
    expect(by('ending')).toEqual(['a', 'e', 'd', 'b', 'c']);
    expect(by('progress')).toEqual(['c', 'a', 'd', 'b', 'e']);
    expect(by('title')).toEqual(['b', 'a', 'd', 'e', 'c']);
    const first = getLibraryPage(db, 's', NOW, { sort: 'title', limit: 2 });
    expect(ids(first)).toEqual(['b', 'a']);
    expect(
      ids(getLibraryPage(db, 's', NOW, { sort: 'title', offset: first.nextOffset!, limit: 2 })),
    ).toEqual(['d', 'e']);
    expect(ids(getLibraryPage(db, 's', NOW, { sort: 'ending', filter: 'not-started' }))).toEqual([
      'e',
      'b',
    ]);
  });

  it('says what is left of each course: lectures not completed and their length', () => {
    const db = withSite({ courses });
    const page = getLibraryPage(db, 's', NOW).items;
    // The fixture's lectures: l1 completed (60 s), l2 read (300 s).
    expect(page.find((c) => c.courseId === 'a')).toMatchObject({
      lecturesLeft: 1,
      secondsLeft: 300,
      siteId: 's',
    });
    expect(getLibrary(db, 's', NOW).map((c) => c.secondsLeft)).toEqual(
      page.map((c) => c.secondsLeft),
    );
  });

  it('lists the courses of every school in one library, each with its site', () => {
    const db = withSite({ courses: courses.slice(0, 2) }, 'one');
    ensureSite(db, 'two', new Date(NOW.getTime() + 1000));
    commitSnapshot(db, 'two', {
      courses: [
        course('z', { title: 'Zeta', detailProgress: unstarted, lastWatchedLecture: null }),
      ],
    });
    const all = getAllSitesLibraryPage(db, NOW);
    expect(all.items.map((c) => [c.siteId, c.courseId])).toEqual([
      ['one', 'a'],
      ['one', 'b'],
      ['two', 'z'],
    ]);
    expect(all).toMatchObject({ total: 3, courseCount: 3 });
    expect(ids(getAllSitesLibraryPage(db, NOW, { filter: 'not-started', sort: 'title' }))).toEqual([
      'b',
      'z',
    ]);
    expect(getAllSitesLibraryPage(db, NOW, { filter: 'not-started' })).toMatchObject({
      total: 2,
      courseCount: 3,
    });
    removeSiteData(db, 'two');
    expect(ids(getAllSitesLibraryPage(db, NOW))).toEqual(['a', 'b']);
  });

  it('the contract accepts every filter and order, and refuses others', () => {
    const input = ipcContract['library:page'].input;
    expect(input.parse({ siteId: 's' })).toMatchObject({ filter: 'all', sort: 'service' });
    expect(input.safeParse({ siteId: 's', filter: 'not-started', sort: 'ending' }).success).toBe(
      true,
    );
    expect(input.safeParse({ siteId: 's', sort: 'price' }).success).toBe(false);
    expect(
      ipcContract['library:all-page'].input.safeParse({ filter: 'expiring-soon', sort: 'recent' })
        .success,
    ).toBe(true);
  });
});

describe('library pages in every order: the pages put together are the whole list', () => {
  // Few distinct values, so most courses tie on the order's first key and only the school's order
  // separates them.
  const shape = fc.record({
    site: fc.constantFrom('one', 'two'),
    title: fc.constantFrom('alpha', 'Alpha', 'beta'),
    percent: fc.constantFrom(0, 50, 100),
    expireDate: fc.constantFrom(
      null,
      '2026-05-01T00:00:00.000Z',
      '2026-06-14T00:00:00.000Z',
      '2026-06-14T02:00:00+02:00',
      'soon',
    ),
    watchedAt: fc.constantFrom(null, '2026-06-01T00:00:00.000Z', 'yesterday'),
  });

  it('for every filter, order and page size, on one school and on all of them', () => {
    fc.assert(
      fc.property(
        fc.array(shape, { minLength: 1, maxLength: 14 }),
        fc.integer({ min: 1, max: 4 }),
        (shapes, size) => {
          const db = openDb();
          ensureSite(db, 'one', NOW);
          ensureSite(db, 'two', new Date(NOW.getTime() + 1000));
          for (const site of ['one', 'two']) {
            const mine = shapes.flatMap((x, i) => (x.site === site ? [{ ...x, id: `c${i}` }] : []));
            const courses = mine.map((x) =>
              course(x.id, {
                title: x.title,
                hasLifetimeAccess: x.expireDate === null,
                expireDate: x.expireDate,
                detailProgress: {
                  totalLectures: 2,
                  readLectures: 0,
                  completedLectures: 0,
                  percent: x.percent,
                  completedAt: null,
                },
                lastWatchedLecture:
                  x.watchedAt === null
                    ? null
                    : { lectureId: `${x.id}-l1`, positionSeconds: 1, watchedAt: x.watchedAt },
              }),
            );
            commitSnapshot(db, site, { courses });
          }
          try {
            const read = [
              (r: { filter: LibraryFilter; sort: LibrarySort; offset?: number; limit?: number }) =>
                getLibraryPage(db, 'one', NOW, r),
              (r: { filter: LibraryFilter; sort: LibrarySort; offset?: number; limit?: number }) =>
                getAllSitesLibraryPage(db, NOW, r),
            ];
            for (const page of read)
              for (const filter of LIBRARY_FILTERS)
                for (const sort of LIBRARY_SORTS) {
                  const whole = page({ filter, sort }).items.map(
                    (c) => `${c.siteId}/${c.courseId}`,
                  );
                  expect(new Set(whole).size).toBe(whole.length);
                  const paged: string[] = [];
                  for (let offset: number | null = 0; offset !== null;) {
                    const next = page({ filter, sort, offset, limit: size });
                    paged.push(...next.items.map((c) => `${c.siteId}/${c.courseId}`));
                    offset = next.nextOffset;
                  }
                  expect(paged, `${filter} ${sort}`).toEqual(whole);
                }
          } finally {
            closeDatabases();
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
