import type { Database } from 'better-sqlite3';
import {
  commitSnapshot,
  ensureSite,
  getLibrary,
  getOrdersPage,
  pendingEntries,
  recordSyncRun,
  type ReadableDB,
  type ReadWriteDB,
  type WritableDB,
} from '../../../electron/core/db';
import type { AppServices } from '../../../electron/core/handlers/services';
import { createInProcessWriter } from '../../../electron/core/worker';
import { createWriterHandlers } from '../../../electron/core/worker/writer-handlers';
import { createSyncService } from '../../../electron/core/sync';
import type { SyncRunSummary } from '../../../electron/common/view-models';

// Type tests of the two database handles (electron/core/db/handles.ts), checked by `npm run
// typecheck` (tsc includes test/) and never run: each @ts-expect-error must meet the error it
// names, or tsc fails with "Unused '@ts-expect-error' directive". The calls without one are the
// right handles, which must compile.

const now = new Date();
declare const summary: SyncRunSummary;
declare const clientFor: Parameters<typeof createSyncService>[0]['clientFor'];

export function viewsReadOnTheReadOnlyConnection(reader: ReadableDB, writer: WritableDB): void {
  getLibrary(reader, 's', now);
  // @ts-expect-error a view can't be handed the writer's handle
  getLibrary(writer, 's', now);
  const services: Pick<AppServices, 'db'> = { db: reader };
  // @ts-expect-error the handlers' db is the main process's read-only connection
  const wrong: Pick<AppServices, 'db'> = { db: writer };
  void [services, wrong];
}

export function writesRunOnTheWriter(reader: ReadableDB, writer: WritableDB): void {
  ensureSite(writer, 's', now);
  commitSnapshot(writer, 's', {});
  recordSyncRun(writer, summary);
  createWriterHandlers(writer);
  // @ts-expect-error a write can't get the read-only handle
  ensureSite(reader, 's', now);
  // @ts-expect-error nor a commit
  commitSnapshot(reader, 's', {});
  // @ts-expect-error the writer's handlers run on the write connection only
  createWriterHandlers(reader);
  // @ts-expect-error the in-process writer too
  createInProcessWriter(reader);
}

export function readsBothConnectionsRun(reader: ReadableDB, writer: WritableDB): void {
  // The purchase CSV is built in the worker, and the replay reads the outbox: either handle.
  getOrdersPage(reader, 's', now);
  getOrdersPage(writer, 's', now);
  pendingEntries(reader, 's');
  pendingEntries(writer, 's');
}

export function aPlainConnectionIsNeither(raw: Database): void {
  // @ts-expect-error an unbranded connection is no view's
  getLibrary(raw, 's', now);
  // @ts-expect-error and no write's
  ensureSite(raw, 's', now);
}

export function theSyncServiceWritesSomewhere(reader: ReadableDB, both: ReadWriteDB): void {
  // In the app: the read-only connection and the writer worker. In tests and tools: one connection
  // doing both.
  createSyncService({ db: reader, writer: createInProcessWriter(both), clientFor });
  createSyncService({ db: both, clientFor });
  // @ts-expect-error without a writer, the read-only connection has nowhere to write
  createSyncService({ db: reader, clientFor });
}
