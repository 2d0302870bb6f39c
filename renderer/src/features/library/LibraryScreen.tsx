import { ExpiringPlans } from '../plan/index';
import { LibraryBig, SearchX } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  LIBRARY_FILTERS,
  LIBRARY_SORTS,
  type LibraryCourse,
  type LibraryFilter,
  type LibrarySort,
} from '../../../../electron/common/view-models';
import { useApp, useSite } from '../../state/context';
import { LIBRARY_FIRST_PAGE, LIBRARY_OPENING_CHOICES } from '../../state/opening';
import { useChannelPages } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { EmptyState, Loading, ScreenHeader } from '../../ui/states';
import { PagedList } from '../../ui/PagedList';
import { CourseCard } from './CourseCard';

type Scope = 'site' | 'all';
/**
 * The last choices, kept while the app runs: coming back to the library finds it as it was left.
 */
const remembered: { filter: LibraryFilter; sort: LibrarySort; scope: Scope } = {
  ...LIBRARY_OPENING_CHOICES,
  scope: 'site',
};
const courseKey = (c: LibraryCourse) => `${c.siteId}\u0000${c.courseId}`;
// Its first page may already be on its way (state/opening.ts prefetchOpeningScreen: same key, same
// page).
const pageOptions = {
  getKey: courseKey,
  keepPrevious: true,
  pageSize: LIBRARY_FIRST_PAGE,
} as const;

/**
 * The courses a page at a time, filtered and ordered by the core at read time; with more than one
 * school, "All schools" lists every school's courses together, each card naming its school. The
 * choices last while the app runs.
 */
export function LibraryScreen() {
  const { t } = useTranslation();
  const site = useSite();
  const { sites } = useApp();
  const ids = { filter: useId(), sort: useId() };
  const [filter, setFilter] = useState<LibraryFilter>(remembered.filter);
  const [sort, setSort] = useState<LibrarySort>(remembered.sort);
  const [scope, setScope] = useState<Scope>(remembered.scope);
  useEffect(() => {
    Object.assign(remembered, { filter, sort, scope });
  }, [filter, sort, scope]);
  const several = sites.length > 1;
  const allSchools = several && scope === 'all';
  // The previous choice's courses stay on screen while the next one's first page loads (no flash,
  // no lost header).
  const one = useChannelPages(
    'library:page',
    { siteId: site.id, filter, sort },
    { ...pageOptions, enabled: !allSchools },
  );
  const every = useChannelPages(
    'library:all-page',
    { filter, sort },
    { ...pageOptions, enabled: allSchools },
  );
  const courses = allSchools ? every : one;
  const q = courses.query;
  const courseCount = courses.first?.courseCount ?? 0;

  return (
    <div className="screen">
      <ScreenHeader title={t('library.title')}>
        {several && (
          <div
            className="segmented"
            role="group"
            aria-label={t('library.scopeLabel')}
            data-testid="library-scope"
          >
            {(['site', 'all'] as const).map((s) => (
              <button key={s} type="button" aria-pressed={scope === s} onClick={() => setScope(s)}>
                {s === 'site' ? site.label : t('library.allSchools')}
              </button>
            ))}
          </div>
        )}
      </ScreenHeader>
      <div className="library-tools">
        <div className="field inline">
          <label htmlFor={ids.filter}>{t('library.filterLabel')}</label>
          <select
            id={ids.filter}
            value={filter}
            onChange={(e) => setFilter(e.target.value as LibraryFilter)}
            data-testid="library-filter"
          >
            {LIBRARY_FILTERS.map((f) => (
              <option key={f} value={f}>
                {t(`library.filter.${f}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field inline">
          <label htmlFor={ids.sort}>{t('library.sortLabel')}</label>
          <select
            id={ids.sort}
            value={sort}
            onChange={(e) => setSort(e.target.value as LibrarySort)}
            data-testid="library-sort"
          >
            {LIBRARY_SORTS.map((s) => (
              <option key={s} value={s}>
                {t(`library.sort.${s}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      {filter === 'expiring-soon' && <ExpiringPlans />}
      {q.isPending ? (
        <Loading shape="cards" />
      ) : q.isError ? (
        <ErrorState
          title={t('library.loadFailed')}
          error={q.error}
          onRetry={() => void q.refetch()}
        />
      ) : courseCount === 0 ? (
        <EmptyState title={t('library.empty.title')} icon={LibraryBig}>
          <p className="muted">{t('library.empty.text')}</p>
        </EmptyState>
      ) : courses.items.length === 0 ? (
        <EmptyState title={t('library.empty.filtered')} icon={SearchX} />
      ) : (
        <>
          <p className="muted count-line" data-testid="library-count">
            {t('library.count', { count: courses.total })}
          </p>
          <PagedList
            pages={courses}
            estimateSize={150}
            gap={12}
            getKey={courseKey}
            label={t('library.listLabel')}
            testId="course-list"
            render={(c) => <CourseCard course={c} showSite={allSchools} />}
          />
        </>
      )}
    </div>
  );
}
