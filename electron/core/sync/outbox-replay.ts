import type { Database } from 'better-sqlite3';
import { CoreError, isCoreError } from '../errors';
import { redactString } from '../log';
import {
  acceptAllNotificationsRead,
  acceptNotificationRead,
  acceptSubscription,
} from '../db/notifications';
import { markFailed, pendingEntries, recordAttempt, removeEntry, type OutboxEntry } from '../db/outbox';
import {
  MarkAllNotificationsReadMutation,
  MarkNotificationReadMutation,
  UpdateNotificationSubscriptionMutation,
} from './graphql/documents';
import { isNotFound, missingScopesOf, type GraphQLErrorLike, type Transport } from './transport';

export interface ReplayReport {
  /** Accepted by the site and removed from the queue. */
  readonly replayed: number;
  /** Refused by the site for good: kept as failed changes to report. */
  readonly failed: number;
  /** Still queued (the site could not be reached, or sign-in is needed). */
  readonly pending: number;
  /** Scopes the site said were missing (account:write). */
  readonly missingScopes: readonly string[];
  /** Why replay stopped early, if it did. */
  readonly stoppedBy: CoreError | null;
}

/**
 * Replays a site's pending outbox entries in order. Each mutation is idempotent on the site (marking a read
 * notification again changes nothing; subscriptions are set, not toggled), so an entry replayed twice after a
 * crash between the site's answer and our delete is harmless.
 * - accepted: the site's answer becomes the server-side value and the entry leaves the queue;
 * - refused (NOT_FOUND, missing scope, invalid input): kept as 'failed' and reported, never retried;
 * - unreachable / sign-in needed: replay stops, the entry and those after it stay queued in order.
 */
export async function replayPending(db: Database, siteId: string, transport: Transport, now: () => Date): Promise<ReplayReport> {
  let replayed = 0;
  let failed = 0;
  const missing = new Set<string>();
  const entries = pendingEntries(db, siteId);
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    let errors: readonly GraphQLErrorLike[];
    try {
      errors = await send(db, siteId, entry, transport);
    } catch (error) {
      const failure = isCoreError(error) ? error : new CoreError('sync-failed', 'A queued change could not be sent.', undefined, { cause: error });
      recordAttempt(db, entry, failure.code, now());
      return { replayed, failed, pending: entries.length - i, missingScopes: [...missing], stoppedBy: failure };
    }
    if (errors.length > 0) {
      const scopes = errors.flatMap(missingScopesOf);
      scopes.forEach((s) => missing.add(s));
      const reason = errors.some(isNotFound)
        ? 'The site no longer has this item.'
        : scopes.length > 0
          ? `This sign-in does not allow changes (${[...new Set(scopes)].join(', ')} needed).`
          : // The site's own words help the user, but a site may echo a credential in them; the reason is stored
            // at rest (outbox.last_error), so it is redacted like a log line.
            redactString(errors[0]!.message).slice(0, 200);
      markFailed(db, entry, reason, now());
      failed += 1;
    } else {
      replayed += 1;
    }
  }
  return { replayed, failed, pending: 0, missingScopes: [...missing], stoppedBy: null };
}

/** Sends one entry; on success applies the site's answer and removes the entry in one transaction. */
async function send(db: Database, siteId: string, entry: OutboxEntry, transport: Transport): Promise<readonly GraphQLErrorLike[]> {
  const change = entry.change;
  switch (change.kind) {
    case 'mark-notification-read': {
      const { data, errors } = await transport.execute(MarkNotificationReadMutation, { id: change.notificationId });
      if (errors.length > 0 || !data) return errors.length > 0 ? errors : [{ message: 'empty answer' }];
      db.transaction(() => {
        acceptNotificationRead(db, siteId, data.markNotificationRead.id, data.markNotificationRead.readAt);
        removeEntry(db, entry);
      })();
      return [];
    }
    case 'mark-all-notifications-read': {
      const { data, errors } = await transport.execute(MarkAllNotificationsReadMutation);
      if (errors.length > 0 || !data) return errors.length > 0 ? errors : [{ message: 'empty answer' }];
      db.transaction(() => {
        acceptAllNotificationsRead(db, siteId);
        removeEntry(db, entry);
      })();
      return [];
    }
    case 'update-notification-subscription': {
      const { data, errors } = await transport.execute(UpdateNotificationSubscriptionMutation, {
        input: { topic: change.topic, channel: change.channel, enabled: change.enabled },
      });
      if (errors.length > 0 || !data) return errors.length > 0 ? errors : [{ message: 'empty answer' }];
      db.transaction(() => {
        acceptSubscription(db, siteId, data.updateNotificationSubscription);
        removeEntry(db, entry);
      })();
      return [];
    }
  }
}
