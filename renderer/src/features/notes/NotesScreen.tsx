import { NotebookPen } from 'lucide-react';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { NoteView } from '../../../../electron/common/view-models';
import { useApp } from '../../state/context';
import type { Route } from '../../state/routes';
import { useChannel, useChannelPages } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { EmptyState, Loading, ScreenHeader } from '../../ui/states';
import { VirtualList } from '../../ui/VirtualList';
import { NoteItem } from './NoteItem';
import { useNoteList } from './use-note-list';
import './notes.css';

type NotesRoute = Extract<Route, { screen: 'notes' }>;
const keyOf = (n: NoteView) => String(n.id);

/** The filters: a school, then one of its courses; part of the route, so Back returns to them. */
function Filters({ route }: { readonly route: NotesRoute }) {
  const { t } = useTranslation();
  const { navigate } = useApp();
  const options = useChannel('notes:filters', undefined);
  const schoolId = useId();
  const courseId = useId();
  const schools = useMemo(() => {
    const by = new Map<string, string>();
    for (const o of options.data ?? []) by.set(o.siteId, o.school);
    return [...by];
  }, [options.data]);
  const courses = (options.data ?? []).filter((o) => o.siteId === route.siteId);
  const go = (siteId?: string, course?: string) =>
    navigate({
      screen: 'notes',
      ...(siteId ? { siteId } : {}),
      ...(siteId && course ? { courseId: course } : {}),
    });
  return (
    <div className="notes-filters" role="group" aria-label={t('notes.filters')}>
      <label htmlFor={schoolId}>
        {t('notes.school')}
        <select
          id={schoolId}
          value={route.siteId ?? ''}
          onChange={(e) => go(e.target.value || undefined)}
          data-testid="notes-school"
        >
          <option value="">{t('notes.allSchools')}</option>
          {schools.map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
      </label>
      {route.siteId && (
        <label htmlFor={courseId}>
          {t('notes.course')}
          <select
            id={courseId}
            value={route.courseId ?? ''}
            onChange={(e) => go(route.siteId, e.target.value || undefined)}
            data-testid="notes-course"
          >
            <option value="">{t('notes.allCourses')}</option>
            {courses.map((c) => (
              <option key={c.courseId} value={c.courseId}>
                {c.courseTitle}
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );
}

/** Every note of every school, newest first, read a page at a time. */
export function NotesScreen({ route }: { readonly route: NotesRoute }) {
  const { t } = useTranslation();
  const list = useNoteList();
  const pages = useChannelPages(
    'notes:page',
    {
      ...(route.siteId ? { siteId: route.siteId } : {}),
      ...(route.siteId && route.courseId ? { courseId: route.courseId } : {}),
    },
    { getKey: keyOf, keepPrevious: true },
  );
  const q = pages.query;
  return (
    <div className="screen notes-screen">
      <ScreenHeader title={t('notes.title')} icon={NotebookPen} />
      <Filters route={route} />
      {list.extras}
      {q.isPending ? (
        <Loading shape="rows" />
      ) : q.isError ? (
        <ErrorState
          title={t('notes.loadFailed')}
          error={q.error}
          onRetry={() => void q.refetch()}
        />
      ) : pages.items.length === 0 ? (
        <EmptyState title={t('notes.empty')} icon={NotebookPen}>
          <p>{t('notes.emptyHint')}</p>
        </EmptyState>
      ) : (
        <>
          <p className="muted count-line" role="status">
            {t('notes.count', { count: pages.total })}
          </p>
          <VirtualList
            items={pages.items}
            estimateSize={120}
            gap={8}
            getKey={keyOf}
            label={t('notes.listLabel')}
            testId="notes-list"
            onEndReached={pages.loadMore}
            total={pages.total}
            render={(n) => (
              <NoteItem note={n} showContext onEdit={list.onEdit} onDelete={list.onDelete} />
            )}
          />
        </>
      )}
    </div>
  );
}
