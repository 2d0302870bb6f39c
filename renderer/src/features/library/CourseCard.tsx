import { ChevronRight, CircleCheck, CirclePlay, UserRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { LibraryCourse } from '../../../../electron/common/view-models';
import { useApp } from '../../state/context';
import { CourseCover } from '../../ui/CourseCover';
import { formatDuration } from '../../ui/format';
import { ProgressBar } from '../../ui/states';
import { AccessLine } from './AccessLine';

/**
 * One course as a card. The whole card opens the course, but there is one control: the title's button, whose
 * ::after covers the card (the "stretched link" pattern). Assistive technology sees a heading with one button, not
 * a button holding a heading, a progressbar and several sentences; keyboard focus rings the whole card.
 */
export function CourseCard({ course }: { readonly course: LibraryCourse }) {
  const { t } = useTranslation();
  const { navigate } = useApp();
  const open = () => navigate({ screen: 'course', courseId: course.courseId });
  const cw = course.continueWatching;
  return (
    <article className={course.isExpired ? 'course-card expired' : 'course-card'} data-testid="course-card" data-course-id={course.courseId}>
      <CourseCover id={course.courseId} title={course.title} src={course.coverImageUrl} />
      <div className="course-body">
        <h2 className="course-title">
          <button type="button" className="card-link" onClick={open}>
            {course.title}
          </button>
        </h2>
        {course.instructorName && (
          <p className="course-teacher">
            <UserRound aria-hidden="true" />
            {t('library.instructor', { name: course.instructorName })}
          </p>
        )}
        <div className="progress-row">
          <ProgressBar value={course.percent} label={t('library.progressLabel', { title: course.title })} />
          <span className="progress-text" data-testid="course-progress">
            {t('library.progress', { percent: Math.round(course.percent), done: course.completedLectures, count: course.totalLectures })}
          </span>
        </div>
        <div className="meta-row">
          <AccessLine course={course} />
          {course.completedAt && (
            <span className="access done">
              <CircleCheck aria-hidden="true" />
              {t('library.completed')}
            </span>
          )}
        </div>
        {cw && (
          <p className="continue" data-testid="continue-watching">
            <CirclePlay aria-hidden="true" />
            <span>
              {cw.positionSeconds > 0
                ? t('library.continue', { lecture: cw.lectureTitle, time: formatDuration(cw.positionSeconds) })
                : t('library.continueStart', { lecture: cw.lectureTitle })}
            </span>
          </p>
        )}
      </div>
      <ChevronRight className="card-chevron" aria-hidden="true" />
    </article>
  );
}
