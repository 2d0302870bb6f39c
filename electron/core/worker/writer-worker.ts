/**
 * The database writer's thread (writer.ts starts it): opens the offline database (migrations,
 * recovery of a damaged file), then answers the contract's calls one at a time, in the order they
 * came, on its one write connection (a sync page it requests, `stage:fetch`, is staged when its
 * answer arrives; the calls after it run meanwhile). Every failure goes back as the core's
 * `{ code, message }`; nothing here throws across the boundary.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { closeOfflineDatabase, openOfflineDatabase } from '../db/index';
import { toWireError } from './writer-errors';
import { createWriterHandlers } from './writer-handlers';
import {
  DETACHED,
  type WireResult,
  type WriterInit,
  type WriterMessage,
  type WriterRequest,
} from './worker-contract';

const port = parentPort;
if (!port) throw new Error('writer-worker.ts runs as a worker thread (writer.ts starts it)');
const init = workerData as WriterInit;
const post = (message: WriterMessage) => port.postMessage(message);

try {
  const opened = openOfflineDatabase(init.file, {
    ...(init.nativeBinding === undefined ? {} : { nativeBinding: init.nativeBinding }),
    ...(init.integrityCheck === undefined ? {} : { integrityCheck: init.integrityCheck }),
  });
  const db = opened.db;
  const handlers = createWriterHandlers(db);
  port.on('message', (request: WriterRequest) => {
    let result: WireResult;
    try {
      // The handlers name every channel of the contract (their type says so): a message naming
      // anything else is refused.
      if (!Object.hasOwn(handlers, request.call))
        throw Object.assign(new Error('unknown call'), { code: 'WRITER_UNKNOWN_CALL' });
      const handler = handlers[request.call] as (input: unknown) => unknown;
      const value = handler(request.input);
      if (DETACHED.has(request.call)) {
        // Answered when its promise settles; the calls sent after it run meanwhile
        // (worker-contract.ts DETACHED).
        void (value as Promise<unknown>).then(
          (v) => post({ type: 'result', id: request.id, result: { ok: true, value: v } }),
          (error: unknown) =>
            post({
              type: 'result',
              id: request.id,
              result: { ok: false, error: toWireError(error) },
            }),
        );
        return;
      }
      result = { ok: true, value };
    } catch (error) {
      result = { ok: false, error: toWireError(error) };
    }
    if (request.call === 'writer:close' && result.ok) {
      try {
        // checkpoints the WAL into the file; a clean close (open.ts integrityCheck)
        closeOfflineDatabase(db);
      } catch (error) {
        result = { ok: false, error: toWireError(error) };
      }
      post({ type: 'result', id: request.id, result });
      port.close(); // nothing keeps the thread alive: it ends
      return;
    }
    post({ type: 'result', id: request.id, result });
  });
  post({
    type: 'opened',
    recovered: opened.recovered,
    movedTo: opened.movedTo,
    salvagedOutbox: opened.salvagedOutbox,
  });
} catch (error) {
  post({ type: 'open-failed', error: toWireError(error) });
}
