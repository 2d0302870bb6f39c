/**
 * The writes of the contract (worker-contract.ts), run on one connection: the worker runs them
 * on its own, and the in-process writer (tests, tools) on the connection it was given. They are
 * the plain db functions and the sync's stages (sync-stages.ts); nothing here knows which thread
 * it is on.
 */
import { purchaseHistoryCsv } from '../export/csv';
import {
  acceptAllNotificationsRead,
  acceptNotificationRead,
  acceptSubscription,
  changingViews,
  checkOfflineDatabase,
  commitSnapshotIfChanged,
  decideReminders,
  decideRuleReminders,
  snoozeReminder,
  dismissFailed,
  enqueueChange,
  ensureSite,
  indexShortTerms,
  markCourseSeen,
  markFailed,
  recordAttempt,
  recordSyncRun,
  removeEntry,
  removeSiteData,
  type WritableDB,
} from '../db/index';
import { changeWriterHandlers } from './changes-calls';
import { noteWriterHandlers } from './notes-calls';
import { SyncStages } from './sync-stages';
import type { OutboxAnswer, WriterCall, WriterHandlers } from './worker-contract';

type StageCall = Extract<WriterCall, `stage:${string}`>;

export function createWriterHandlers(db: WritableDB): WriterHandlers {
  const stages = new SyncStages({ db });
  return { ...stageHandlers(stages), ...storeHandlers(db, stages) };
}

/** The `stage:` calls: a sync's snapshot, staged and committed by SyncStages. */
function stageHandlers(stages: SyncStages): Pick<WriterHandlers, StageCall> {
  return {
    'stage:begin': (input) => stages.begin(input),
    'stage:page': (input) => stages.page(input),
    'stage:text': (input) => stages.text(input),
    'stage:fetch': (input) => stages.fetch(input),
    'stage:cancel': ({ stageId }) => stages.cancel(stageId),
    'stage:adopt': (input) => stages.adopt(input),
    'stage:whole': (input) => stages.whole(input),
    'stage:restart': (input) => stages.restart(input),
    'stage:drop': (input) => stages.drop(input),
    'stage:commit': (input) => stages.commit(input),
    'stage:discard': ({ stageId }) => stages.discard(stageId),
  };
}

/** Every other call: one db function each. */
function storeHandlers(db: WritableDB, stages: SyncStages): Omit<WriterHandlers, StageCall> {
  return {
    'site:ensure': ({ siteId, now }) => ensureSite(db, siteId, new Date(now)),
    'site:remove': ({ siteId }) => {
      stages.discardSite(siteId);
      removeSiteData(db, siteId);
    },
    'snapshot:commit': ({ siteId, snapshot }) => commitSnapshotIfChanged(db, siteId, snapshot),
    'outbox:enqueue': ({ siteId, change, now }) => enqueueChange(db, siteId, change, new Date(now)),
    'outbox:accept': ({ siteId, entry, answer }) =>
      db.transaction(() => {
        applyAnswer(db, siteId, answer);
        removeEntry(db, entry);
      })(),
    'outbox:attempt': ({ entry, error, now }) => recordAttempt(db, entry, error, new Date(now)),
    'outbox:fail': ({ entry, error, now }) => markFailed(db, entry, error, new Date(now)),
    'outbox:dismiss': ({ siteId, id }) => dismissFailed(db, siteId, id),
    'course:mark-seen': ({ siteId, courseId }) => markCourseSeen(db, siteId, courseId),
    ...noteWriterHandlers(db),
    ...changeWriterHandlers(db),
    'sync:record-run': ({ summary }) => recordSyncRun(db, summary),
    // No view reads the search tables: the memo is kept. The last step of the pass after a commit
    // (fewer rows than asked) ends that commit's writes: the WAL is folded into the file and
    // truncated then (truncateWal).
    'search:index-step': ({ maxRows }) => {
      const indexed = changingViews(db, '', [], () => indexShortTerms(db, maxRows));
      if (indexed < maxRows) truncateWal(db);
      return indexed;
    },
    'reminders:run': ({ now, syncedSiteId, enabled }) =>
      decideReminders(db, { now: Date.parse(now), syncedSiteId, enabled }),
    'reminders:rules-run': (input) => decideRuleReminders(db, input),
    'reminders:snooze': (input) => snoozeReminder(db, input),
    'export:orders-csv': ({ siteId, now, language, timeZone }) =>
      purchaseHistoryCsv(db, siteId, new Date(now), { language, timeZone }),
    'db:check': () => checkOfflineDatabase(db),
    // The worker closes its own connection (writer-worker.ts); in process the connection belongs
    // to the caller.
    'writer:close': () => stages.discardAll(),
  };
}

/**
 * A sync's commit and its search index pass leave a WAL as large as what they wrote (the first
 * sync: as large as the database), and SQLite's automatic checkpoints copy it back but never shrink
 * the file (https://sqlite.org/wal.html#avoiding_excessively_large_wal_files). TRUNCATE copies
 * every frame into the database and truncates the WAL to zero bytes
 * (https://sqlite.org/pragma.html#pragma_wal_checkpoint); it waits (busy_timeout) for readers still
 * on an older snapshot, and the main thread's reads are short. Best effort: a checkpoint that
 * cannot finish leaves the WAL for the next one, and SQLite's own.
 */
function truncateWal(db: WritableDB): void {
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // Busy or an I/O error: nothing is lost, the frames stay in the WAL.
  }
}

function applyAnswer(db: WritableDB, siteId: string, answer: OutboxAnswer): void {
  switch (answer.kind) {
    case 'notification-read':
      return acceptNotificationRead(db, siteId, answer.id, answer.readAt);
    case 'all-notifications-read':
      return acceptAllNotificationsRead(db, siteId);
    case 'subscription':
      return acceptSubscription(db, siteId, answer.record);
  }
}
