/** The course feature's one public entry: what the shell and the other features may use of it. */
export { AccessLine } from './AccessLine';
export { CourseScreen } from './CourseScreen';
export { nextStepIcon, nextStepLine } from './NextStep';
