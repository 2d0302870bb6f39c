import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { GoalEditor } from './GoalEditor';
import { PlanDetails, PlanStatus } from './PlanLines';
import { PlanSource } from './PlanSection';
import { useCoursePlan } from './usePlan';
import './plan.css';

/**
 * The course screen's plan: what is left, the pace, this week against the course's goal; the goal's
 * editor.
 */
export function CoursePlanBlock({
  siteId,
  courseId,
  syncedAt,
}: {
  readonly siteId: string;
  readonly courseId: string;
  readonly syncedAt: string | null;
}) {
  const { t } = useTranslation();
  const id = useId();
  const q = useCoursePlan(siteId, courseId);
  const view = q.data;
  if (!view || view.plan.status === 'done') return null;
  return (
    <section className="card plan-course" aria-labelledby={`${id}-title`} data-testid="course-plan">
      <h2 id={`${id}-title`}>{t('plan.courseTitle')}</h2>
      <PlanStatus plan={view.plan} />
      <PlanDetails plan={view.plan} />
      <GoalEditor goal={view.goal} course={{ siteId, courseId }} />
      <PlanSource syncedAt={syncedAt} />
    </section>
  );
}
