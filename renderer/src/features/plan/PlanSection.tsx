import { Target } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { isBehind } from '../../../../electron/common/plan';
import type { CoursePlanView, PlanView } from '../../../../electron/common/plan-contract';
import { useApp } from '../../state/context';
import { ErrorState } from '../../ui/ErrorState';
import { formatDate, formatDateTime } from '../../ui/format';
import { SnoozeButtons } from '../reminders/index';
import { GoalEditor } from './GoalEditor';
import { PlanDetails, PlanStatus, useAmount } from './PlanLines';
import { StudyDays } from './StudyDays';
import { usePlan } from './usePlan';
import './plan.css';

/** Where the week's numbers come from, and how fresh they are. */
export function PlanSource({ syncedAt }: { readonly syncedAt: string | null }) {
  const { t, i18n } = useTranslation();
  return (
    <p className="muted small" data-testid="plan-source">
      {syncedAt
        ? t('plan.source', { date: formatDateTime(syncedAt, i18n.language) })
        : t('plan.sourceNever')}
    </p>
  );
}

function CourseRow({ course, many }: { readonly course: CoursePlanView; readonly many: boolean }) {
  const { t, i18n } = useTranslation();
  const { navigate, selectSite } = useApp();
  return (
    <li className="today-row plan-row" data-testid="plan-course" data-course-id={course.courseId}>
      <Target className="today-row-icon" aria-hidden="true" />
      <div className="today-row-text">
        <p>
          <strong>{course.title}</strong>
          {course.expireDate &&
            ` · ${t('plan.ends', { date: formatDate(course.expireDate, i18n.language) })}`}
          {many && <span className="muted small"> · {course.siteId}</span>}
        </p>
        <PlanStatus plan={course.plan} />
        <PlanDetails plan={course.plan} />
      </div>
      <div className="today-row-action">
        {course.plan.status === 'behind' && (
          <SnoozeButtons kind="plan-behind" siteId={course.siteId} subjectId={course.courseId} />
        )}
        <button
          type="button"
          className="button small"
          onClick={() => {
            selectSite(course.siteId);
            navigate({ screen: 'course', courseId: course.courseId });
          }}
        >
          {t('today.openCourse')}
        </button>
      </div>
    </li>
  );
}

function Overall({ view }: { readonly view: PlanView }) {
  const { t } = useTranslation();
  const amount = useAmount();
  const o = view.overall;
  return (
    <div className="plan-overall" data-testid="plan-overall">
      {o ? (
        <p>
          {t('plan.overall', {
            done: amount({ ...o.target, amount: o.done }),
            target: amount(o.target),
          })}
          {isBehind(o)
            ? ` · ${t('plan.status.behind', { amount: amount({ ...o.target, amount: o.behindBy }) })}`
            : ` · ${t('plan.status.on-track')}`}
        </p>
      ) : (
        <p className="muted">{t('plan.noOverall')}</p>
      )}
      <GoalEditor goal={view.overallGoal} />
    </div>
  );
}

/**
 * Today's plan: the week across every course against the overall goal, and each course with an end
 * date ahead ("behind by 40 min this week", "on track", or plainly that it cannot be finished), at
 * most `limit` of them.
 */
export function PlanSection({ limit = 5 }: { readonly limit?: number }) {
  const { t } = useTranslation();
  const id = useId();
  const q = usePlan();
  return (
    <section aria-labelledby={`${id}-title`} className="today-section" data-testid="plan-section">
      <h2 id={`${id}-title`}>{t('plan.title')}</h2>
      {q.isError ? (
        <ErrorState error={q.error} compact onRetry={() => void q.refetch()} />
      ) : q.data ? (
        <>
          <Overall view={q.data} />
          {q.data.courses.length === 0 ? (
            <p className="muted">{t('plan.noCourses')}</p>
          ) : (
            <ul className="plain today-rows">
              {q.data.courses.slice(0, limit).map((c) => (
                <CourseRow
                  key={`${c.siteId}/${c.courseId}`}
                  course={c}
                  many={new Set(q.data.courses.map((x) => x.siteId)).size > 1}
                />
              ))}
            </ul>
          )}
          <StudyDays days={q.data.studyDays} />
          <PlanSource syncedAt={q.data.syncedAt} />
        </>
      ) : null}
    </section>
  );
}
