/**
 * The Web Notifications permission (browser host only): asked for at most once at a time, only on
 * the student's action.
 */
let asking: Promise<NotificationPermission> | null = null;

export function webNotificationsPermission(): NotificationPermission | null {
  return typeof Notification === 'undefined' ? null : Notification.permission;
}

/**
 * Asks the browser if it has not been asked yet; resolves with what it says (or null where there is
 * no such API).
 */
export function askBrowserOnce(): Promise<NotificationPermission | null> {
  const now = webNotificationsPermission();
  if (now !== 'default') return Promise.resolve(now);
  asking ??= Notification.requestPermission().finally(() => (asking = null));
  return asking;
}
