import type { NotificationChannel, NotificationTopic } from '../../common/view-models';

/**
 * A change queued in the outbox (outbox.ts). Its own module because the notifications table applies
 * it locally (notifications.ts) and the outbox stores it: each imports this, not the other.
 */
export type OutboxChange =
  | { readonly kind: 'mark-notification-read'; readonly notificationId: string }
  | { readonly kind: 'mark-all-notifications-read' }
  | {
      readonly kind: 'update-notification-subscription';
      readonly topic: NotificationTopic;
      readonly channel: NotificationChannel;
      readonly enabled: boolean;
    };
