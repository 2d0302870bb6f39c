/**
 * The reminders feature's one public entry: what the shell and the other features may use of it.
 */
export { ReminderPrompt } from './ReminderPrompt';
export { ReminderSettings } from './ReminderSettings';
export { askBrowserOnce } from './web-permission';
export { ReminderRules } from './ReminderRules';
export { SnoozeButtons } from './SnoozeButtons';
export { focusSnoozeOf } from './snooze-focus';
