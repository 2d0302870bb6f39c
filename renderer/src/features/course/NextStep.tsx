import { CircleCheck, CirclePlay, Lock, TimerOff, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CourseNextStep, LibraryCourse } from '../../../../electron/common/view-models';
import { assertNever } from '../../../../electron/common/result';
import { formatDate, formatDateTime, formatDuration } from '../../ui/format';
import { OpenOnSite } from '../site-pages/index';

function iconOf(step: CourseNextStep): LucideIcon {
  switch (step.kind) {
    case 'resume':
    case 'next':
    case 'start':
    case 'none':
      return CirclePlay;
    case 'locked':
      return Lock;
    case 'completed':
      return CircleCheck;
    case 'expired':
      return TimerOff;
    default:
      return assertNever(step, 'next step');
  }
}

/**
 * The course page's one prompt, as the core decided it (db/next-step.ts): continue at the position,
 * the next lecture, "Locked until ...", completed with "Watch again", or "Access ended on ...". Its
 * button opens the lecture on the school's site.
 */
export function NextStepBlock({
  siteId,
  course,
}: {
  readonly siteId: string;
  readonly course: LibraryCourse;
}) {
  const { t, i18n } = useTranslation();
  const step = course.nextStep;
  if (step.kind === 'none') return null;
  const Icon = iconOf(step);
  const lng = i18n.language;
  const lecturePage = (lectureId: string) => ({
    kind: 'lecture' as const,
    courseId: course.courseId,
    lectureId,
  });
  let label: string;
  let lecture: string | null = null;
  let detail: string | null = null;
  let action: ReactNode = null;
  let meter: number | null = null;
  switch (step.kind) {
    case 'resume':
      label = t('course.next.resumeTitle');
      lecture = step.lecture.title;
      detail = t('course.resumeAt', {
        time: formatDuration(step.positionSeconds),
        duration: formatDuration(step.lecture.durationSeconds),
      });
      meter =
        step.lecture.durationSeconds > 0
          ? Math.min(100, (step.positionSeconds / step.lecture.durationSeconds) * 100)
          : null;
      action = (
        <OpenOnSite
          siteId={siteId}
          page={lecturePage(step.lecture.lectureId)}
          label={t('course.next.resume', { time: formatDuration(step.positionSeconds) })}
          what={`${t('course.next.resume', { time: formatDuration(step.positionSeconds) })}: ${step.lecture.title}`}
          primary
          testId="next-step-open"
        />
      );
      break;
    case 'next':
    case 'start':
      label = step.kind === 'next' ? t('course.next.nextTitle') : t('course.next.startTitle');
      lecture = step.lecture.title;
      detail =
        step.kind === 'next' && step.finished
          ? t('course.next.finished', { lecture: step.finished.title })
          : formatDuration(step.lecture.durationSeconds);
      action = (
        <OpenOnSite
          siteId={siteId}
          page={lecturePage(step.lecture.lectureId)}
          label={t('course.next.watch')}
          what={`${t('course.next.watch')}: ${step.lecture.title}`}
          primary
          testId="next-step-open"
        />
      );
      break;
    case 'locked':
      label = t('course.next.lockedTitle');
      lecture = step.lecture.title;
      detail = step.unlockAt
        ? t('course.next.lockedUntil', { date: formatDateTime(step.unlockAt, lng) })
        : t('course.next.lockedNoDate');
      break;
    case 'completed':
      label = t('course.next.completedTitle');
      detail = t('course.next.completedText');
      if (step.again)
        action = (
          <OpenOnSite
            siteId={siteId}
            page={lecturePage(step.again.lectureId)}
            label={t('course.next.watchAgain')}
            what={`${t('course.next.watchAgain')}: ${step.again.title}`}
            testId="next-step-open"
          />
        );
      break;
    case 'expired':
      label = step.endedAt
        ? t('course.next.expiredOn', { date: formatDate(step.endedAt, lng) })
        : t('course.next.expiredTitle');
      detail = t('course.next.expiredText');
      // The member API gives no link to buy or extend a course, so the way there is the course's
      // own page on the school's site, where the school sells it.
      action = (
        <OpenOnSite
          siteId={siteId}
          page={{ kind: 'course', courseId: course.courseId }}
          label={t('course.next.extend')}
          what={`${t('course.next.extend')}: ${course.title}`}
          testId="next-step-extend"
        />
      );
      break;
    default:
      return assertNever(step, 'next step');
  }
  // "continue-watching" stays the block's test id whatever it says: it is the course page's prompt.
  return (
    <div
      className={`continue-block next-${step.kind}`}
      data-testid="continue-watching"
      data-next-step={step.kind}
    >
      <Icon className="continue-icon" aria-hidden="true" />
      <div className="continue-text">
        <p className="continue-label">{label}</p>
        {lecture && <p className="continue-lecture">{lecture}</p>}
        {detail && <p className="continue-position">{detail}</p>}
      </div>
      {action && <div className="continue-action">{action}</div>}
      {meter !== null && (
        <div className="continue-meter" aria-hidden="true">
          <span style={{ width: `${meter}%` }} />
        </div>
      )}
    </div>
  );
}

/** The library card's one line for the same prompt. */
export function nextStepLine(
  step: CourseNextStep,
  t: (key: string, vars?: Record<string, unknown>) => string,
  lng: string,
): string | null {
  switch (step.kind) {
    case 'resume':
      return t('library.nextResume', {
        lecture: step.lecture.title,
        time: formatDuration(step.positionSeconds),
      });
    case 'next':
      return t('library.nextNext', { lecture: step.lecture.title });
    case 'start':
      return t('library.nextStart', { lecture: step.lecture.title });
    case 'locked':
      return step.unlockAt
        ? t('library.nextLocked', { date: formatDateTime(step.unlockAt, lng) })
        : t('library.nextLockedNoDate');
    case 'completed':
      return t('library.nextCompleted');
    case 'expired':
      return step.endedAt
        ? t('library.nextExpired', { date: formatDate(step.endedAt, lng) })
        : t('library.nextExpiredNoDate');
    case 'none':
      return null;
    default:
      return assertNever(step, 'next step');
  }
}

export { iconOf as nextStepIcon };
