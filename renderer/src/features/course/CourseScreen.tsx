import { ArrowLeft, Clock, ListVideo, UserRound } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LectureView, SectionView } from '../../../../electron/common/view-models';
import { useApp, useSite } from '../../state/context';
import { useLoadedScreenTitle } from '../../state/window-title';
import { useChannel, useChannelMutation } from '../../query';
import { CourseCover } from '../../ui/CourseCover';
import { ErrorState } from '../../ui/ErrorState';
import { formatDuration } from '../../ui/format';
import { ProgressRing } from '../../ui/ProgressRing';
import { EmptyState, Loading } from '../../ui/states';
import { VirtualList } from '../../ui/VirtualList';
import { CourseAccessCalendarButton } from '../export/index';
import { AccessLine } from './AccessLine';
import { LectureRow } from './LectureRow';
import { NextStepBlock } from './NextStep';
import { OpenOnSite } from '../site-pages/index';
import { CourseNotes, NoteEditor } from '../notes/index';
import { CoursePlanBlock } from '../plan/index';

type Row =
  | { readonly kind: 'section'; readonly section: SectionView }
  | { readonly kind: 'lecture'; readonly lecture: LectureView };

/**
 * `highlight`: the row key (`l:` lecture, `s:` section) to scroll into view and mark, as a search
 * hit opened it.
 */
export function CourseScreen({
  courseId,
  highlight,
}: {
  readonly courseId: string;
  readonly highlight?: string | undefined;
}) {
  const { t } = useTranslation();
  const site = useSite();
  const { navigate } = useApp();
  const q = useChannel('course:get', { siteId: site.id, courseId });
  useLoadedScreenTitle(q.data?.title);
  // Opened: the lectures it gained at the last syncs are seen, and its "new" badge in the library
  // goes.
  const { mutate: markSeen } = useChannelMutation('course:mark-seen');
  const [noteOn, setNoteOn] = useState<LectureView | null>(null);
  const news = q.data?.newLectures ?? 0;
  useEffect(() => {
    if (news > 0) markSeen({ siteId: site.id, courseId });
  }, [news, markSeen, site.id, courseId]);
  const rows = useMemo<Row[]>(
    () =>
      (q.data?.sections ?? []).flatMap((s) => [
        { kind: 'section', section: s } as Row,
        ...s.lectures.map((l) => ({ kind: 'lecture', lecture: l }) as Row),
      ]),
    [q.data],
  );
  const back = (
    <button
      type="button"
      className="button small ghost back"
      onClick={() => navigate({ screen: 'library' })}
    >
      <ArrowLeft aria-hidden="true" />
      {t('course.back')}
    </button>
  );

  if (q.isPending)
    return (
      <div className="screen course-screen">
        {back}
        <Loading shape="header" />
        <Loading shape="rows" />
      </div>
    );
  if (q.isError)
    return (
      <div className="screen">
        {back}
        <h1 id="screen-title" tabIndex={-1}>
          {t('course.title')}
        </h1>
        <ErrorState
          title={t('course.loadFailed')}
          error={q.error}
          onRetry={() => void q.refetch()}
        />
      </div>
    );
  const c = q.data;
  const lastPosition = c.lastWatched?.positionSeconds ?? null;
  const totalSeconds = c.sections.reduce(
    (sum, s) => sum + s.lectures.reduce((a, l) => a + l.durationSeconds, 0),
    0,
  );

  return (
    <div className="screen course-screen">
      {back}
      <header className="course-hero" data-testid="course-header">
        <CourseCover
          id={c.courseId}
          siteId={c.siteId}
          title={c.title}
          src={c.coverImageUrl}
          className="hero-cover"
        />
        <div className="hero-body">
          <h1 id="screen-title" tabIndex={-1}>
            {c.title}
          </h1>
          {c.instructorName && (
            <p className="course-teacher">
              <UserRound aria-hidden="true" />
              {t('library.instructor', { name: c.instructorName })}
            </p>
          )}
          {c.description && <p className="hero-description">{c.description}</p>}
          <div className="meta-row">
            <AccessLine course={c} />
            {!c.hasLifetimeAccess && c.expireDate !== null && !c.isExpired && (
              <CourseAccessCalendarButton siteId={site.id} courseId={c.courseId} title={c.title} />
            )}
            <span className="access ok">
              <ListVideo aria-hidden="true" />
              {t('course.lectureCount', { count: c.totalLectures })}
            </span>
            <span className="access ok">
              <Clock aria-hidden="true" />
              {t('course.totalDuration', { duration: formatDuration(totalSeconds) })}
            </span>
            <OpenOnSite
              siteId={site.id}
              page={{ kind: 'course', courseId: c.courseId }}
              label={t('course.next.coursePage')}
              what={`${t('course.next.coursePage')}: ${c.title}`}
              small
              testId="open-course-page"
            />
          </div>
        </div>
        <div className="hero-progress">
          <ProgressRing
            value={c.percent}
            label={t('library.progressLabel', { title: c.title })}
            size={88}
            stroke={8}
          />
          <p className="progress-text">
            {t('course.doneCount', { done: c.completedLectures, count: c.totalLectures })}
          </p>
        </div>
        <NextStepBlock siteId={site.id} course={c} />
      </header>
      <CourseNotes siteId={site.id} courseId={c.courseId} />
      {noteOn && (
        <NoteEditor
          open
          onClose={() => setNoteOn(null)}
          target={{
            siteId: site.id,
            courseId: c.courseId,
            lectureId: noteOn.lectureId,
            lectureTitle: noteOn.title,
          }}
        />
      )}
      <CoursePlanBlock siteId={site.id} courseId={courseId} syncedAt={site.lastSyncedAt} />
      {rows.length === 0 ? (
        <EmptyState title={t('course.empty')} icon={ListVideo} />
      ) : (
        <VirtualList
          items={rows}
          estimateSize={52}
          getKey={(r) =>
            r.kind === 'section' ? `s:${r.section.sectionId}` : `l:${r.lecture.lectureId}`
          }
          label={t('course.contents')}
          testId="lecture-list"
          scrollToKey={highlight}
          render={(r) =>
            r.kind === 'section' ? (
              <h2
                className={`section-title${highlight === `s:${r.section.sectionId}` ? ' highlighted' : ''}`}
                data-testid="section-title"
                data-section-id={r.section.sectionId}
                data-highlighted={highlight === `s:${r.section.sectionId}` ? 'true' : undefined}
              >
                {r.section.title}{' '}
                <span className="muted small">
                  {t('course.lectureCount', { count: r.section.lectures.length })}
                </span>
              </h2>
            ) : (
              <LectureRow
                lecture={r.lecture}
                lastPosition={r.lecture.isLastWatched ? lastPosition : null}
                siteId={site.id}
                courseId={c.courseId}
                canOpen={!c.isExpired}
                highlighted={highlight === `l:${r.lecture.lectureId}`}
                onAddNote={() => setNoteOn(r.lecture)}
              />
            )
          }
        />
      )}
    </div>
  );
}
