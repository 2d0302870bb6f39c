import { closedCleanly, forgetViews, openReadConnection, type ReadableDB } from '../db/index';
import { deferWriter } from './deferred-writer';
import type { Logger } from '../log';
import { startWriterWorker, type OpenedWriter } from './writer';

/**
 * The offline database as the app opens it: the writer worker and this thread's read-only
 * connection.
 */
export interface OfflineStore {
  readonly writer: OpenedWriter;
  /** The main process's read-only connection: every view reads here. */
  readonly db: ReadableDB;
}

export async function openOfflineStore(options: {
  readonly file: string;
  readonly logger: Logger;
  readonly sqliteBinding?: string;
}): Promise<OfflineStore> {
  const log = options.logger.child('app');
  // The writer worker owns the one write connection (it opens the file: migrations, recovery of a
  // damaged file); this thread reads through a read-only connection beside it (WAL), so a sync's
  // commit never blocks an IPC call.
  const binding =
    options.sqliteBinding === undefined ? {} : { nativeBinding: options.sqliteBinding };
  // The integrity check reads the whole file (665 ms for eight times the large seed): after a clean
  // exit it runs once the window shows (checkOfflineStore); after a crash or a kill the writer runs
  // it before anything is read.
  const startWriter = () =>
    startWriterWorker({
      file: options.file,
      logger: options.logger.child('db'),
      integrityCheck: 'unless-closed-cleanly',
      ...binding,
    });

  // A file closed cleanly at this version has nothing to migrate or recover: the screens read it at
  // once, and the writer's thread starts at the first write (the startup sync's check, a second
  // after the window shows).
  if (closedCleanly(options.file)) {
    let reader: ReadableDB | null = null;
    try {
      reader = openReadConnection(options.file, binding);
    } catch {
      // Another version, or unreadable: the writer opens it first (migrations, recovery), as below.
    }
    if (reader) {
      const writer = deferWriter(startWriter, (opened) => {
        if (opened.recovered)
          log.warn('the offline database was unreadable and was rebuilt', {
            salvagedOutbox: opened.salvagedOutbox,
          });
      });
      writer.attachReader(reader);
      return { writer, db: reader };
    }
  }

  const writer = await startWriter();
  if (writer.recovered)
    log.warn('the offline database was unreadable and was rebuilt', {
      salvagedOutbox: writer.salvagedOutbox,
    });
  let db: ReadableDB;
  try {
    db = openReadConnection(options.file, binding);
  } catch (error) {
    await writer.close();
    throw error;
  }
  writer.attachReader(db);
  return { writer, db };
}

/**
 * The check left out of the start (open.ts integrityCheck): a file damaged while the app was away
 * (a disk, another program) is found here, kept aside as a copy and rebuilt empty. True when it was
 * rebuilt: the screens are then told their data changed, and the sync that follows fills it again.
 */
export async function checkOfflineStore(
  { writer, db }: OfflineStore,
  log: Logger,
): Promise<boolean> {
  try {
    const checked = await writer.call('db:check', {});
    if (!checked.recovered) return false;
    log.warn('the offline database was damaged and was rebuilt', {
      salvagedOutbox: checked.salvagedOutbox,
    });
    forgetViews(db);
    return true;
  } catch (error) {
    log.error('the offline database could not be checked', { error });
    return false;
  }
}
