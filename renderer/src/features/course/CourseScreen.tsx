import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { LectureView, SectionView } from '../../../../electron/common/view-models';
import { useApp, useSite } from '../../app/context';
import { useChannel } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { formatDuration } from '../../ui/format';
import { EmptyState, Loading, ProgressBar } from '../../ui/states';
import { VirtualList } from '../../ui/VirtualList';
import { AccessLine } from '../library/AccessLine';
import { LectureRow } from './LectureRow';

type Row = { readonly kind: 'section'; readonly section: SectionView } | { readonly kind: 'lecture'; readonly lecture: LectureView };

export function CourseScreen({ courseId }: { readonly courseId: string }) {
  const { t } = useTranslation();
  const site = useSite();
  const { navigate } = useApp();
  const q = useChannel('course:get', { siteId: site.id, courseId });
  const rows = useMemo<Row[]>(
    () => (q.data?.sections ?? []).flatMap((s) => [{ kind: 'section', section: s } as Row, ...s.lectures.map((l) => ({ kind: 'lecture', lecture: l }) as Row)]),
    [q.data],
  );
  const back = (
    <button type="button" className="button small back" onClick={() => navigate({ screen: 'library' })}>
      <span aria-hidden="true">← </span>
      {t('course.back')}
    </button>
  );

  if (q.isPending) return <Loading />;
  if (q.isError)
    return (
      <div className="screen">
        {back}
        <h1 id="screen-title" tabIndex={-1}>
          {t('course.title')}
        </h1>
        <ErrorState title={t('course.loadFailed')} error={q.error} onRetry={() => void q.refetch()} />
      </div>
    );
  const c = q.data;
  const lastPosition = c.lastWatched?.positionSeconds ?? null;
  const lastLecture = c.lastWatched ? c.sections.flatMap((s) => s.lectures).find((l) => l.lectureId === c.lastWatched?.lectureId) : undefined;
  const totalSeconds = c.sections.reduce((sum, s) => sum + s.lectures.reduce((a, l) => a + l.durationSeconds, 0), 0);

  return (
    <div className="screen course-screen">
      {back}
      <div className="screen-header">
        <h1 id="screen-title" tabIndex={-1}>
          {c.title}
        </h1>
      </div>
      <div className="card course-summary">
        {c.instructorName && <p className="muted">{t('library.instructor', { name: c.instructorName })}</p>}
        {c.description && <p>{c.description}</p>}
        <div className="progress-row">
          <ProgressBar value={c.percent} label={t('library.progressLabel', { title: c.title })} />
          <span className="progress-text">{t('library.progress', { percent: Math.round(c.percent), done: c.completedLectures, count: c.totalLectures })}</span>
        </div>
        <div className="meta-row">
          <AccessLine course={c} />
          <span className="muted">{t('course.totalDuration', { duration: formatDuration(totalSeconds) })}</span>
        </div>
        {lastLecture && lastPosition !== null && (
          <p className="continue" data-testid="continue-watching">
            <span aria-hidden="true">▶ </span>
            {lastPosition > 0
              ? t('library.continue', { lecture: lastLecture.title, time: formatDuration(lastPosition) })
              : t('library.continueStart', { lecture: lastLecture.title })}
          </p>
        )}
      </div>
      {rows.length === 0 ? (
        <EmptyState title={t('course.empty')} />
      ) : (
        <VirtualList
          items={rows}
          estimateSize={52}
          getKey={(r) => (r.kind === 'section' ? `s:${r.section.sectionId}` : `l:${r.lecture.lectureId}`)}
          label={t('course.contents')}
          testId="lecture-list"
          render={(r) =>
            r.kind === 'section' ? (
              <h2 className="section-title">
                {r.section.title} <span className="muted small">{t('course.lectureCount', { count: r.section.lectures.length })}</span>
              </h2>
            ) : (
              <LectureRow lecture={r.lecture} lastPosition={r.lecture.isLastWatched ? lastPosition : null} />
            )
          }
        />
      )}
    </div>
  );
}
