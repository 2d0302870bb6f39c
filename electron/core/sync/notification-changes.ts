import type {
  NotificationChannel,
  NotificationSubscriptionView,
  NotificationTopic,
} from '../../common/view-models';
import type { CoreError } from '../errors';
import type { Logger, ReadableDB } from '../db/index';
import { getSubscription } from '../db/index';
import type { OutboxChange } from '../db/index';
import type { DbWriter } from '../worker/writer';
import type { ReplayReport } from './outbox-replay';

export interface NotificationChangesDeps {
  readonly db: ReadableDB;
  readonly writer: DbWriter;
  readonly now: () => Date;
  readonly logger: Logger;
  /** The site's offline data changed (the change is queued and shown as made). */
  readonly dataChanged: (siteId: string) => void;
  /** Sends the site's queued changes (SyncService.replayOutbox). */
  readonly replay: (siteId: string) => Promise<ReplayReport>;
  /** The background replay of a change stopped early (see SyncServiceOptions.onReplayStopped). */
  readonly onReplayStopped?: (siteId: string, reason: CoreError) => void;
}

/**
 * The student's changes to notifications: queued in the outbox, shown at once, sent in the
 * background.
 */
export class NotificationChanges {
  readonly #deps: NotificationChangesDeps;

  constructor(deps: NotificationChangesDeps) {
    this.#deps = deps;
  }

  markRead(siteId: string, notificationId: string): Promise<void> {
    return this.#enqueue(siteId, { kind: 'mark-notification-read', notificationId });
  }

  markAllRead(siteId: string): Promise<void> {
    return this.#enqueue(siteId, { kind: 'mark-all-notifications-read' });
  }

  async updateSubscription(
    siteId: string,
    topic: NotificationTopic,
    channel: NotificationChannel,
    enabled: boolean,
  ): Promise<NotificationSubscriptionView> {
    await this.#enqueue(siteId, {
      kind: 'update-notification-subscription',
      topic,
      channel,
      enabled,
    });
    return (
      getSubscription(this.#deps.db, siteId, topic, channel) ?? {
        topic,
        channel,
        enabled,
        pendingSync: true,
      }
    );
  }

  async #enqueue(siteId: string, change: OutboxChange): Promise<void> {
    const { writer, now, dataChanged, replay, onReplayStopped, logger } = this.#deps;
    await writer.call('outbox:enqueue', { siteId, change, now: now().toISOString() });
    dataChanged(siteId);
    // Sent in the background; a failure keeps it queued for the next sync.
    void replay(siteId)
      .then((report) => {
        if (report.stoppedBy) onReplayStopped?.(siteId, report.stoppedBy);
      })
      .catch((error: unknown) =>
        logger.warn('outbox replay failed', { siteId, error: String(error) }),
      );
  }
}
