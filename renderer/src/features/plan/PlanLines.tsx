import { useTranslation } from 'react-i18next';
import type { CoursePlan, WeeklyGoal } from '../../../../electron/common/plan';

/** "90 min" or "3 lectures": an amount in its unit. */
export function useAmount() {
  const { t } = useTranslation();
  return (goal: WeeklyGoal) =>
    goal.unit === 'minutes'
      ? t('plan.amount.minutes', { count: goal.amount })
      : t('plan.amount.lectures', { count: goal.amount });
}

/** The one-line verdict: behind by how much this week, on track, or cannot be finished. */
export function PlanStatus({ plan }: { readonly plan: CoursePlan }) {
  const { t } = useTranslation();
  const amount = useAmount();
  const week = plan.week;
  const text =
    plan.status === 'behind' && week
      ? t('plan.status.behind', { amount: amount({ ...week.target, amount: week.behindBy }) })
      : t(`plan.status.${plan.status}`);
  return (
    <p
      className={`plan-status plan-${plan.status}`}
      data-testid="plan-status"
      data-status={plan.status}
    >
      {text}
    </p>
  );
}

/** What is left, the pace that fits, this week's work, and what the numbers cannot count. */
export function PlanDetails({ plan }: { readonly plan: CoursePlan }) {
  const { t } = useTranslation();
  const amount = useAmount();
  const week = plan.week;
  return (
    <ul className="plain plan-details">
      {plan.status !== 'ended' && plan.status !== 'done' && (
        <li>
          {t('plan.left', { minutes: plan.minutesLeft, count: plan.lecturesLeft })}
          {plan.daysLeft !== null && ` · ${t('plan.daysLeft', { count: plan.daysLeft })}`}
        </li>
      )}
      {plan.pace && (
        <li data-testid="plan-pace">
          {t('plan.pace', {
            week: plan.pace.minutesPerWeek,
            day: plan.pace.minutesPerStudyDay,
            count: plan.pace.lecturesPerWeek,
          })}
        </li>
      )}
      {plan.pace && plan.pace.peakMinutesPerStudyDay > plan.pace.minutesPerStudyDay && (
        <li>{t('plan.peak', { minutes: plan.pace.peakMinutesPerStudyDay })}</li>
      )}
      {week && (
        <li data-testid="plan-week">
          {t(week.source === 'goal' ? 'plan.weekGoal' : 'plan.weekPace', {
            done: amount({ ...week.target, amount: week.done }),
            target: amount(week.target),
          })}
        </li>
      )}
      {plan.goalBelowPace && <li className="plan-warn">{t('plan.goalBelowPace')}</li>}
      {plan.lecturesWithoutDuration > 0 && (
        <li className="muted">{t('plan.noDuration', { count: plan.lecturesWithoutDuration })}</li>
      )}
      {plan.lecturesNeverOpen > 0 && (
        <li className="plan-warn">{t('plan.neverOpen', { count: plan.lecturesNeverOpen })}</li>
      )}
    </ul>
  );
}
