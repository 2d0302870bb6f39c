import { useTranslation } from 'react-i18next';
import type { LibraryCourse } from '../../../../electron/common/view-models';
import { useApp } from '../../app/context';
import { formatDuration } from '../../ui/format';
import { Picture } from '../../ui/Picture';
import { ProgressBar } from '../../ui/states';
import { AccessLine } from './AccessLine';

export function CourseCard({ course }: { readonly course: LibraryCourse }) {
  const { t } = useTranslation();
  const { navigate } = useApp();
  const open = () => navigate({ screen: 'course', courseId: course.courseId });
  const cw = course.continueWatching;
  return (
    <article className={course.isExpired ? 'course-card card expired' : 'course-card card'} data-testid="course-card" data-course-id={course.courseId}>
      <Picture className="cover" src={course.coverImageUrl} fallback={course.title.slice(0, 1)} />
      <div className="course-body">
        <h2 className="course-title">
          <button type="button" className="link-button" onClick={open}>
            {course.title}
          </button>
        </h2>
        {course.instructorName && <p className="muted">{t('library.instructor', { name: course.instructorName })}</p>}
        <div className="progress-row">
          <ProgressBar value={course.percent} label={t('library.progressLabel', { title: course.title })} />
          <span className="progress-text" data-testid="course-progress">
            {t('library.progress', { percent: Math.round(course.percent), done: course.completedLectures, count: course.totalLectures })}
          </span>
        </div>
        <div className="meta-row">
          <AccessLine course={course} />
          {course.completedAt && <span className="access ok">✓ {t('library.completed')}</span>}
        </div>
        {cw && (
          <p className="continue" data-testid="continue-watching">
            <span aria-hidden="true">▶ </span>
            {cw.positionSeconds > 0
              ? t('library.continue', { lecture: cw.lectureTitle, time: formatDuration(cw.positionSeconds) })
              : t('library.continueStart', { lecture: cw.lectureTitle })}
          </p>
        )}
      </div>
    </article>
  );
}
