/**
 * The database worker: the one write connection in a worker thread (writer.ts starts it,
 * writer-worker.ts is its entry), the handlers it runs (writes, staged page fetches, the purchase
 * CSV) and their typed message contract.
 */
export {
  createInProcessWriter,
  startWriterWorker,
  type DbWriter,
  type OpenedWriter,
  type WriterWorkerOptions,
} from './writer';
export type * from './worker-contract';
