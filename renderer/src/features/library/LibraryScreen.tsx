import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { assertNever } from '../../../../electron/common/result';
import type { LibraryCourse } from '../../../../electron/common/view-models';
import { useSite } from '../../app/context';
import { useChannel } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { EmptyState, Loading, ScreenHeader } from '../../ui/states';
import { VirtualList } from '../../ui/VirtualList';
import { CourseCard } from './CourseCard';

type Filter = 'all' | 'in-progress' | 'completed' | 'expired';
const FILTERS: readonly Filter[] = ['all', 'in-progress', 'completed', 'expired'];

function matches(c: LibraryCourse, f: Filter): boolean {
  switch (f) {
    case 'all':
      return true;
    case 'in-progress':
      return !c.isExpired && c.percent < 100;
    case 'completed':
      return c.percent >= 100 || c.completedAt !== null;
    case 'expired':
      return c.isExpired;
    default:
      return assertNever(f, 'filter');
  }
}

export function LibraryScreen() {
  const { t } = useTranslation();
  const site = useSite();
  const q = useChannel('library:list', { siteId: site.id });
  const [filter, setFilter] = useState<Filter>('all');
  const courses = useMemo(() => (q.data ?? []).filter((c) => matches(c, filter)), [q.data, filter]);

  return (
    <div className="screen">
      <ScreenHeader title={t('library.title')}>
        {q.data && q.data.length > 0 && (
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
        <Loading />
      ) : q.isError ? (
        <ErrorState title={t('library.loadFailed')} error={q.error} onRetry={() => void q.refetch()} />
      ) : q.data.length === 0 ? (
        <EmptyState title={t('library.empty.title')} icon="▦">
          <p className="muted">{t('library.empty.text')}</p>
        </EmptyState>
      ) : courses.length === 0 ? (
        <EmptyState title={t('library.empty.filtered')} />
      ) : (
        <>
          <p className="muted count-line">{t('library.count', { count: courses.length })}</p>
          <VirtualList items={courses} estimateSize={150} gap={12} getKey={(c) => c.courseId} label={t('library.listLabel')} testId="course-list" render={(c) => <CourseCard course={c} />} />
        </>
      )}
    </div>
  );
}
