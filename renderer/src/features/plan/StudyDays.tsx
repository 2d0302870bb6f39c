import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { setStudyDays, usePlanChange } from './usePlan';

/** 2024-01-01 was a Monday: weekday names in the page's language without a table of our own. */
function weekdayName(isoDay: number, lng: string): string {
  return new Intl.DateTimeFormat(lng, { weekday: 'short', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2024, 0, isoDay)),
  );
}

/**
 * The days the student studies on: the pace per study day counts only these (none ticked: every
 * day).
 */
export function StudyDays({ days }: { readonly days: readonly number[] }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const change = usePlanChange(setStudyDays);
  return (
    <fieldset className="plan-days" data-testid="plan-study-days">
      <legend>{t('plan.studyDays')}</legend>
      {[1, 2, 3, 4, 5, 6, 7].map((d) => (
        <span className="plan-day" key={d}>
          <input
            id={`${id}-${d}`}
            type="checkbox"
            checked={days.includes(d)}
            disabled={change.isPending}
            onChange={(e) =>
              change.mutate(e.target.checked ? [...days, d] : days.filter((x) => x !== d))
            }
          />
          <label htmlFor={`${id}-${d}`}>{weekdayName(d, i18n.language)}</label>
        </span>
      ))}
      <p className="muted small">{t('plan.studyDaysHint')}</p>
    </fieldset>
  );
}
