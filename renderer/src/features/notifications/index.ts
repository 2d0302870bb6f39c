/**
 * The notifications feature's one public entry: what the shell and the other features may use of
 * it.
 */
export { NotificationsScreen } from './NotificationsScreen';
export { UnreadBadge } from './UnreadBadge';
