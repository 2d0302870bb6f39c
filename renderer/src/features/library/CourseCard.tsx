import { ChevronRight, CircleCheck, Hourglass, School, Sparkles, UserRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { LibraryCourse } from '../../../../electron/common/view-models';
import { useApp } from '../../state/context';
import { CourseCover } from '../../ui/CourseCover';
import { dailyPace, formatLength } from '../../ui/format';
import { useNow } from '../../ui/useNow';
import { ProgressBar } from '../../ui/states';
import { AccessLine, nextStepIcon, nextStepLine } from '../course/index';
import { OpenOnSite } from '../site-pages/index';

/**
 * One course as a card. The whole card opens the course, but there is one control: the title's
 * button, whose ::after covers the card (the "stretched link" pattern). Assistive technology sees a
 * heading with one button, not a button holding a heading, a progressbar and several sentences;
 * keyboard focus rings the whole card.
 */
export function CourseCard({
  course,
  showSite = false,
}: {
  readonly course: LibraryCourse;
  readonly showSite?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const { navigate, selectSite, site, sites } = useApp();
  // A course of another school ("All schools") opens with that school selected, as every screen
  // reads one site.
  const open = () => {
    if (site?.id !== course.siteId) selectSite(course.siteId);
    navigate({ screen: 'course', courseId: course.courseId });
  };
  const siteLabel = showSite ? (sites.find((s) => s.id === course.siteId)?.label ?? null) : null;
  const step = course.nextStep;
  const line = nextStepLine(step, t, i18n.language);
  const StepIcon = nextStepIcon(step);
  const watchable = step.kind === 'resume' || step.kind === 'next' || step.kind === 'start';
  return (
    <article
      className={course.isExpired ? 'course-card expired' : 'course-card'}
      data-testid="course-card"
      data-course-id={course.courseId}
    >
      <CourseCover
        id={course.courseId}
        siteId={course.siteId}
        title={course.title}
        src={course.coverImageUrl}
      />
      <div className="course-body">
        <h2 className="course-title">
          <button type="button" className="card-link" onClick={open}>
            {course.title}
          </button>
        </h2>
        {course.newLectures > 0 && (
          <p className="course-news">
            <span
              className="state-badge new"
              data-testid="new-lectures"
              title={t('library.newLecturesHint')}
            >
              <Sparkles aria-hidden="true" />
              {t('library.newLectures', { count: course.newLectures })}
            </span>
          </p>
        )}
        {siteLabel && (
          <p className="course-teacher" data-testid="course-site">
            <School aria-hidden="true" />
            {siteLabel}
          </p>
        )}
        {course.instructorName && (
          <p className="course-teacher">
            <UserRound aria-hidden="true" />
            {t('library.instructor', { name: course.instructorName })}
          </p>
        )}
        <div className="progress-row">
          <ProgressBar
            value={course.percent}
            label={t('library.progressLabel', { title: course.title })}
          />
          <span className="progress-text" data-testid="course-progress">
            {t('library.progress', {
              percent: Math.round(course.percent),
              done: course.completedLectures,
              count: course.totalLectures,
            })}
          </span>
        </div>
        <div className="meta-row">
          <AccessLine course={course} />
          <TimeLeft course={course} />
          {course.completedAt && (
            <span className="access done">
              <CircleCheck aria-hidden="true" />
              {t('library.completed')}
            </span>
          )}
        </div>
        {line && (
          <div
            className={`continue next-${step.kind}`}
            data-testid={step.kind === 'resume' ? 'continue-watching' : 'next-step'}
            data-next-step={step.kind}
          >
            <StepIcon aria-hidden="true" />
            <span>{line}</span>
            {watchable && (
              <OpenOnSite
                siteId={course.siteId}
                page={{
                  kind: 'lecture',
                  courseId: course.courseId,
                  lectureId: step.lecture.lectureId,
                }}
                label={t('course.next.watch')}
                what={`${t('course.next.watch')}: ${step.lecture.title}`}
                small
                quietReason
                testId="card-open-lecture"
              />
            )}
          </div>
        )}
      </div>
      <ChevronRight className="card-chevron" aria-hidden="true" />
    </article>
  );
}

/**
 * The pace is offered only while the end is near enough to plan for: a year away, "1 min a day"
 * says nothing.
 */
const PACE_WITHIN_MS = 30 * 86_400_000;

/** "57 min left · about 19 min a day" (the pace only when access ends within 30 days). */
function TimeLeft({ course }: { readonly course: LibraryCourse }) {
  const { t, i18n } = useTranslation();
  const now = useNow(60_000);
  if (course.completedAt || course.lecturesLeft === 0 || course.isExpired) return null;
  const left =
    course.secondsLeft > 0
      ? t('library.timeLeft', { length: formatLength(course.secondsLeft, i18n.language) })
      : t('library.lecturesLeft', { count: course.lecturesLeft });
  const endsSoon =
    !course.hasLifetimeAccess &&
    course.expireDate !== null &&
    new Date(course.expireDate).getTime() - now <= PACE_WITHIN_MS;
  const pace = endsSoon ? dailyPace(course.secondsLeft, course.expireDate!, now) : null;
  return (
    <span className="access ok" data-testid="time-left">
      <Hourglass aria-hidden="true" />
      {pace === null
        ? left
        : t('library.timeLeftPace', { left, pace: formatLength(pace, i18n.language) })}
    </span>
  );
}
