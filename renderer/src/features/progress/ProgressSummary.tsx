import { Download, Flame, Printer } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type {
  CoursePace,
  ProgressSummary,
  WeekProgress,
} from '../../../../electron/common/view-models';
import { call } from '../../api';
import { useChannel } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { dailyPace, daysUntil, formatDate, formatLength } from '../../ui/format';
import { useNow } from '../../ui/useNow';
import { FileActionButton, fileLanguage } from '../export/index';
import './progress.css';

/** The student's time zone: their week is counted in it (Monday start). */
const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

function useProgress(siteId: string) {
  return useChannel('progress:summary', { siteId, timeZone: zone() });
}

/** "3 lectures · 42 min" (or "No lectures completed"). */
function useWeekText() {
  const { t, i18n } = useTranslation();
  return (w: WeekProgress) =>
    w.lectures === 0
      ? t('progress.noLectures')
      : t('progress.weekWork', {
          lectures: t('progress.lectures', { count: w.lectures }),
          minutes: formatLength(w.seconds, i18n.language),
        });
}

function Streak({ summary }: { readonly summary: ProgressSummary }) {
  const { t } = useTranslation();
  return (
    <p className="progress-streak" data-testid="progress-streak" data-weeks={summary.streakWeeks}>
      <Flame aria-hidden="true" size={16} />{' '}
      {summary.streakWeeks === 0
        ? t('progress.noStreak')
        : t('progress.streak', { count: summary.streakWeeks })}
    </p>
  );
}

/** "57 min left, access ends in 3 days: about 19 min a day" for one course with an end date. */
function PaceLine({ course }: { readonly course: CoursePace }) {
  const { t, i18n } = useTranslation();
  const now = useNow(60_000);
  const lng = i18n.language;
  const left =
    course.secondsLeft > 0
      ? formatLength(course.secondsLeft, lng)
      : t('progress.lectures', { count: course.lecturesLeft });
  const days = daysUntil(course.expireDate, now);
  const pace = dailyPace(course.secondsLeft, course.expireDate, now);
  const ends =
    days === null
      ? t('common.unknown')
      : days <= 1
        ? t('progress.endsTomorrow')
        : t('progress.endsIn', { count: days });
  return (
    <li data-testid="progress-pace" data-course-id={course.courseId}>
      <strong>{course.title}</strong>{' '}
      <span>
        {pace === null
          ? t('progress.paceNoRate', { left, ends })
          : t('progress.pace', { left, ends, pace: formatLength(pace, lng) })}
      </span>{' '}
      <span className="muted small">({formatDate(course.expireDate, lng)})</span>
    </li>
  );
}

/** Today: this week per school, with the streak; one row per school kept on this computer. */
export function WeeklyProgress({
  sites,
}: {
  readonly sites: readonly { readonly siteId: string; readonly label: string }[];
}) {
  const { t } = useTranslation();
  if (sites.length === 0) return null;
  return (
    <section
      aria-labelledby="weekly-progress-title"
      className="today-section weekly-progress"
      data-testid="weekly-progress"
    >
      <h2 id="weekly-progress-title">{t('progress.thisWeekTitle')}</h2>
      <ul className="plain progress-rows">
        {sites.map((s) => (
          <SchoolWeek key={s.siteId} siteId={s.siteId} label={s.label} />
        ))}
      </ul>
    </section>
  );
}

function SchoolWeek({ siteId, label }: { readonly siteId: string; readonly label: string }) {
  const q = useProgress(siteId);
  const week = useWeekText();
  if (q.isError) return null;
  return (
    <li className="progress-row" data-testid="school-week" data-site-id={siteId}>
      <span className="progress-school">{label}</span>
      {q.data && (
        <>
          <span data-testid="week-work" data-lectures={q.data.thisWeek.lectures}>
            {week(q.data.thisWeek)}
          </span>
          <Streak summary={q.data} />
        </>
      )}
    </li>
  );
}

/**
 * Profile: the school's week, last week, the streak, each course's pace, and the progress export.
 */
export function ProgressSection({ siteId }: { readonly siteId: string }) {
  const { t, i18n } = useTranslation();
  const q = useProgress(siteId);
  const week = useWeekText();
  return (
    <section
      aria-labelledby="progress-title"
      className="card progress-card"
      data-testid="progress-section"
    >
      <h2 id="progress-title">{t('progress.title')}</h2>
      {q.isError ? (
        <ErrorState title={t('progress.loadFailed')} error={q.error} compact />
      ) : !q.data ? null : (
        <>
          <dl className="kv">
            <dt>
              {t('progress.thisWeek', {
                date: formatDate(`${q.data.thisWeek.weekStart}T12:00:00Z`, i18n.language),
              })}
            </dt>
            <dd data-testid="week-work" data-lectures={q.data.thisWeek.lectures}>
              {week(q.data.thisWeek)}
            </dd>
            <dt>{t('progress.lastWeek')}</dt>
            <dd>{week(q.data.lastWeek)}</dd>
          </dl>
          <Streak summary={q.data} />
          <p className="muted small">{t('progress.howCounted')}</p>
          {q.data.pace.length > 0 && (
            <>
              <h3>{t('progress.paceTitle')}</h3>
              <ul className="plain progress-paces">
                {q.data.pace.map((c) => (
                  <PaceLine key={c.courseId} course={c} />
                ))}
              </ul>
            </>
          )}
          <div className="row progress-export">
            <FileActionButton
              run={() =>
                call('export:progress-csv', { siteId, language: fileLanguage(i18n.language) })
              }
              label={t('progress.exportCsv')}
              icon={<Download aria-hidden="true" size={14} className="icon" />}
              small
              testId="export-progress-csv"
            />
            <FileActionButton
              run={() =>
                call('export:progress-report', { siteId, language: fileLanguage(i18n.language) })
              }
              label={t('progress.exportReport')}
              icon={<Printer aria-hidden="true" size={14} className="icon" />}
              small
              testId="export-progress-report"
            />
          </div>
        </>
      )}
    </section>
  );
}
