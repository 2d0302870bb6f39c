import { useTranslation } from 'react-i18next';
import { useApp } from '../../state/context';
import { PlanStatus } from './PlanLines';
import { PlanSource } from './PlanSection';
import { usePlan } from './usePlan';
import './plan.css';

/** The library's "Expiring soon": each course's verdict beside its title, before the cards. */
export function ExpiringPlans() {
  const { t } = useTranslation();
  const { navigate, selectSite } = useApp();
  const q = usePlan();
  const courses = q.data?.courses ?? [];
  if (courses.length === 0) return null;
  return (
    <section className="card plan-course" aria-label={t('plan.title')} data-testid="expiring-plans">
      <ul className="plain plan-details">
        {courses.slice(0, 10).map((c) => (
          <li
            key={`${c.siteId}/${c.courseId}`}
            data-testid="plan-course"
            data-course-id={c.courseId}
          >
            <button
              type="button"
              className="link-button"
              onClick={() => {
                selectSite(c.siteId);
                navigate({ screen: 'course', courseId: c.courseId });
              }}
            >
              {c.title}
            </button>
            <PlanStatus plan={c.plan} />
          </li>
        ))}
      </ul>
      <PlanSource syncedAt={q.data?.syncedAt ?? null} />
    </section>
  );
}
