import type { NotificationChannel, NotificationKind, NotificationTopic } from '../../../../electron/common/view-models';
import { assertNever } from '../../../../electron/common/result';

export const TOPICS: readonly NotificationTopic[] = ['announcements', 'course_updates', 'payments', 'events', 'marketing'];
export const CHANNELS: readonly NotificationChannel[] = ['email', 'in_app', 'push'];

export function kindIcon(kind: NotificationKind): string {
  switch (kind) {
    case 'announcement':
      return '📣';
    case 'course_update':
      return '📘';
    case 'payment':
      return '💳';
    case 'event':
      return '📅';
    case 'consulting':
      return '💬';
    default:
      return assertNever(kind, 'notification kind');
  }
}
