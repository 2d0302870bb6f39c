/** The progress feature's one public entry: what the shell and the other features may use of it. */
export { ProgressSection, WeeklyProgress } from './ProgressSummary';
