/**
 * A writer whose thread starts at its first call instead of at the app's start. Used only for a
 * file that was closed cleanly and is at this version (offline-store.ts): there is nothing to
 * migrate or recover, so the screens read it at once, and the thread's start (a Node thread,
 * SQLite, the open: ~200 ms of CPU) stays out of the first paint.
 */
import type { ReadableDB } from '../db/index';
import { CoreError } from '../errors';
import type { OpenedWriter } from './writer';

export interface DeferredWriter extends OpenedWriter {
  /** Starts the thread now (once); resolves with the writer it opened. */
  start(): Promise<OpenedWriter>;
  /** Whether the thread was asked to start. */
  readonly started: boolean;
}

export function deferWriter(
  startWriter: () => Promise<OpenedWriter>,
  onOpened?: (writer: OpenedWriter) => void,
): DeferredWriter {
  let opening: Promise<OpenedWriter> | null = null;
  let opened: OpenedWriter | null = null;
  let reader: ReadableDB | null = null;
  let closed = false;

  function start(): Promise<OpenedWriter> {
    opening ??= startWriter().then(
      (writer) => {
        opened = writer;
        if (reader) writer.attachReader(reader);
        onOpened?.(writer);
        return writer;
      },
      (error: unknown) => {
        // A later call tries again; this one's caller gets the writer's own error (a CoreError).
        opening = null;
        throw error;
      },
    );
    return opening;
  }

  return {
    start,
    get started() {
      return opening !== null || opened !== null;
    },
    // Clean and current (the condition for deferring): the open found nothing to recover.
    get recovered() {
      return opened?.recovered ?? false;
    },
    get movedTo() {
      return opened?.movedTo ?? null;
    },
    get salvagedOutbox() {
      return opened?.salvagedOutbox ?? 0;
    },
    get restarts() {
      return opened?.restarts ?? 0;
    },
    attachReader(db) {
      reader = db;
      opened?.attachReader(db);
    },
    call(call, input) {
      // As the writer itself answers once closed; a closed writer never starts a thread.
      if (closed && opened === null)
        return Promise.reject(new CoreError('storage-error', 'The offline database is closed.'));
      return start().then((writer) => writer.call(call, input));
    },
    async crash() {
      await (await start()).crash();
    },
    async close() {
      closed = true;
      // Never started: the file was not touched and stays closed cleanly.
      if (opening === null) return;
      const writer = await opening.catch(() => null);
      await writer?.close();
    },
  };
}
