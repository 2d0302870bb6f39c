/** The plan feature's one public entry: what the shell and the other features may use of it. */
export { CoursePlanBlock } from './CoursePlanBlock';
export { ExpiringPlans } from './ExpiringPlans';
export { PlanSection } from './PlanSection';
