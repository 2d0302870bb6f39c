import { LibraryBig, SearchX } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LibraryCourse, LibraryFilter } from '../../../../electron/common/view-models';
import { useSite } from '../../state/context';
import { LIBRARY_FIRST_PAGE } from '../../state/opening';
import { useChannelPages } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { EmptyState, Loading, ScreenHeader } from '../../ui/states';
import { PagedList } from '../../ui/PagedList';
import { CourseCard } from './CourseCard';

const FILTERS: readonly LibraryFilter[] = ['all', 'in-progress', 'completed', 'expired'];
const courseKey = (c: LibraryCourse) => c.courseId;

/** The courses a page at a time, in the service's order; the filter is applied by the core at read time (issue 6). */
export function LibraryScreen() {
  const { t } = useTranslation();
  const site = useSite();
  const [filter, setFilter] = useState<LibraryFilter>('all');
  // The previous filter's courses stay on screen while the next filter's first page loads (no flash, no lost header).
  // Its first page may already be on its way (state/opening.ts prefetchOpeningScreen: same key, same page).
  const courses = useChannelPages('library:page', { siteId: site.id, filter }, { getKey: courseKey, keepPrevious: true, pageSize: LIBRARY_FIRST_PAGE });
  const q = courses.query;
  const courseCount = courses.first?.courseCount ?? 0;

  return (
    <div className="screen">
      <ScreenHeader title={t('library.title')}>
        {courseCount > 0 && (
          <div className="segmented" role="group" aria-label={t('library.filterLabel')}>
            {FILTERS.map((f) => (
              <button key={f} type="button" aria-pressed={filter === f} onClick={() => setFilter(f)}>
                {t(`library.filter.${f}`)}
              </button>
            ))}
          </div>
        )}
      </ScreenHeader>
      {q.isPending ? (
        <Loading shape="cards" />
      ) : q.isError ? (
        <ErrorState title={t('library.loadFailed')} error={q.error} onRetry={() => void q.refetch()} />
      ) : courseCount === 0 ? (
        <EmptyState title={t('library.empty.title')} icon={LibraryBig}>
          <p className="muted">{t('library.empty.text')}</p>
        </EmptyState>
      ) : courses.items.length === 0 ? (
        <EmptyState title={t('library.empty.filtered')} icon={SearchX} />
      ) : (
        <>
          <p className="muted count-line">{t('library.count', { count: courses.total })}</p>
          <PagedList
            pages={courses}
            estimateSize={150}
            gap={12}
            getKey={courseKey}
            label={t('library.listLabel')}
            testId="course-list"
            render={(c) => <CourseCard course={c} />}
          />
        </>
      )}
    </div>
  );
}
