import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GoalUnit, WeeklyGoal } from '../../../../electron/common/plan';
import { ErrorState } from '../../ui/ErrorState';
import { setGoal, usePlanChange } from './usePlan';

/**
 * A weekly goal in minutes or lectures, for one course (siteId and courseId) or for every course.
 */
export function GoalEditor({
  goal,
  course,
}: {
  readonly goal: WeeklyGoal | null;
  readonly course?: { readonly siteId: string; readonly courseId: string };
}) {
  const { t } = useTranslation();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [unit, setUnit] = useState<GoalUnit>(goal?.unit ?? 'minutes');
  const [amount, setAmount] = useState(String(goal?.amount ?? (unit === 'minutes' ? 120 : 3)));
  const change = usePlanChange(setGoal);
  const save = (next: WeeklyGoal | null) =>
    change.mutate({ ...(course ?? {}), goal: next }, { onSuccess: () => setOpen(false) });
  if (!open)
    return (
      <button
        type="button"
        className="button small"
        onClick={() => setOpen(true)}
        data-testid="plan-goal-open"
      >
        {goal ? t('plan.goal.change') : t(course ? 'plan.goal.set' : 'plan.goal.setOverall')}
      </button>
    );
  const value = Number(amount);
  const valid = Number.isInteger(value) && value >= 1 && value <= 10080;
  return (
    <form
      className="plan-goal"
      data-testid="plan-goal"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) save({ unit, amount: value });
      }}
    >
      <label htmlFor={`${id}-amount`}>{t('plan.goal.amount')}</label>
      <input
        id={`${id}-amount`}
        type="number"
        min={1}
        max={10080}
        inputMode="numeric"
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
        data-testid="plan-goal-amount"
      />
      <select
        aria-label={t('plan.goal.unit')}
        value={unit}
        onChange={(e) => setUnit(e.target.value as GoalUnit)}
        data-testid="plan-goal-unit"
      >
        <option value="minutes">{t('plan.goal.minutes')}</option>
        <option value="lectures">{t('plan.goal.lectures')}</option>
      </select>
      <button type="submit" className="button small primary" disabled={!valid || change.isPending}>
        {t('plan.goal.save')}
      </button>
      {goal && (
        <button type="button" className="button small" onClick={() => save(null)}>
          {t('plan.goal.remove')}
        </button>
      )}
      <button type="button" className="button small" onClick={() => setOpen(false)}>
        {t('plan.goal.cancel')}
      </button>
      {change.error && <ErrorState error={change.error} compact />}
    </form>
  );
}
