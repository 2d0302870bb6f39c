import { CoreError, isCoreError } from '../errors';
import { redactString } from '../log';
import { type OutboxEntry, pendingEntries, type ReadableDB } from '../db/index';
import type { OutboxAnswer } from '../worker/worker-contract';
import type { DbWriter } from '../worker/writer';
import {
  MarkAllNotificationsReadMutation,
  MarkNotificationReadMutation,
  UpdateNotificationSubscriptionMutation,
} from '../graphql/documents';
import {
  isNotFound,
  missingScopesOf,
  type GraphQLErrorLike,
  type Transport,
} from './transport-contract';

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
 * Replays a site's pending outbox entries in order. Each mutation is idempotent on the site
 * (marking a read notification again changes nothing; subscriptions are set, not toggled), so an
 * entry replayed twice after a crash between the site's answer and our delete is harmless.
 * - accepted: the site's answer becomes the server-side value and the entry leaves the queue;
 * - refused (NOT_FOUND, missing scope, invalid input): kept as 'failed' and reported, never
 *   retried;
 * - unreachable / sign-in needed: replay stops, the entry and those after it stay queued in order.
 */
export async function replayPending(
  db: ReadableDB,
  writer: DbWriter,
  siteId: string,
  transport: Transport,
  now: () => Date,
): Promise<ReplayReport> {
  let replayed = 0;
  let failed = 0;
  const missing = new Set<string>();
  const entries = pendingEntries(db, siteId);
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    let answer: OutboxAnswer | readonly GraphQLErrorLike[];
    try {
      answer = await send(entry, transport);
    } catch (error) {
      const failure = isCoreError(error)
        ? error
        : new CoreError('sync-failed', 'A queued change could not be sent.', undefined, {
            cause: error,
          });
      await writer.call('outbox:attempt', { entry, error: failure.code, now: now().toISOString() });
      return {
        replayed,
        failed,
        pending: entries.length - i,
        missingScopes: [...missing],
        stoppedBy: failure,
      };
    }
    if (Array.isArray(answer)) {
      const errors = answer as readonly GraphQLErrorLike[];
      const scopes = errors.flatMap(missingScopesOf);
      scopes.forEach((s) => missing.add(s));
      const reason = errors.some(isNotFound)
        ? 'The site no longer has this item.'
        : scopes.length > 0
          ? `This sign-in does not allow changes (${[...new Set(scopes)].join(', ')} needed).`
          : // The site's own words help the user, but a site may echo a credential in them; the
            // reason is stored
            // at rest (outbox.last_error), so it is redacted like a log line.
            redactString(errors[0]!.message).slice(0, 200);
      await writer.call('outbox:fail', { entry, error: reason, now: now().toISOString() });
      failed += 1;
    } else {
      // The site's answer becomes the server-side value and the entry leaves the queue, in one
      // transaction.
      await writer.call('outbox:accept', { siteId, entry, answer: answer as OutboxAnswer });
      replayed += 1;
    }
  }
  return { replayed, failed, pending: 0, missingScopes: [...missing], stoppedBy: null };
}

/** Sends one entry: the site's answer, or the errors it refused the change with. */
async function send(
  entry: OutboxEntry,
  transport: Transport,
): Promise<OutboxAnswer | readonly GraphQLErrorLike[]> {
  const change = entry.change;
  switch (change.kind) {
    case 'mark-notification-read': {
      const { data, errors } = await transport.execute(MarkNotificationReadMutation, {
        id: change.notificationId,
      });
      if (errors.length > 0 || !data)
        return errors.length > 0 ? errors : [{ message: 'empty answer' }];
      return {
        kind: 'notification-read',
        id: data.markNotificationRead.id,
        readAt: data.markNotificationRead.readAt,
      };
    }
    case 'mark-all-notifications-read': {
      const { data, errors } = await transport.execute(MarkAllNotificationsReadMutation);
      if (errors.length > 0 || !data)
        return errors.length > 0 ? errors : [{ message: 'empty answer' }];
      return { kind: 'all-notifications-read' };
    }
    case 'update-notification-subscription': {
      const { data, errors } = await transport.execute(UpdateNotificationSubscriptionMutation, {
        input: { topic: change.topic, channel: change.channel, enabled: change.enabled },
      });
      if (errors.length > 0 || !data)
        return errors.length > 0 ? errors : [{ message: 'empty answer' }];
      return { kind: 'subscription', record: data.updateNotificationSubscription };
    }
  }
}
