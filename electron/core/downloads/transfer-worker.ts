/**
 * The transfer thread (worker_threads): downloads run here, so the main thread, which carries every
 * IPC call and window event, never reads a socket, hashes a chunk or writes a file for them; it
 * gets a progress message now and then. Each request to the site's origin asks the main thread for
 * the token (its token manager's rules: one refresh on 401), and the answer's validator is recorded
 * there before a byte is written.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import type { AuthorizedSend, SentAnswer } from '../auth/token-manager';
import { CoreError } from '../errors';
import { transfer } from './transfer';
import { fromWireFailure, toWireFailure } from './transfer-failure';
import type { FromThread, StartInfo, ToThread, TransferJob } from './transfer-protocol';

const port = parentPort!;
const post = (message: FromThread) => port.postMessage(message);

interface Job {
  readonly controller: AbortController;
  /** The thread's requests waiting on the token manager, by ask id. */
  readonly asks: Map<
    number,
    {
      token(token: string, url: string): void;
      settle(failure: ReturnType<typeof toWireFailure> | null): void;
    }
  >;
  started: ((failure: ReturnType<typeof toWireFailure> | null) => void) | null;
}
const jobs = new Map<number, Job>();
const stopped = () => new CoreError('sync-cancelled', 'Stopped.');

port.on('message', (message: ToThread) => {
  switch (message.type) {
    case 'transfer':
      return run(message.id, message.job);
    case 'abort':
      return jobs.get(message.id)?.controller.abort(stopped());
    case 'token':
      return jobs.get(message.id)?.asks.get(message.askId)?.token(message.token, message.url);
    case 'sent':
      return jobs.get(message.id)?.asks.get(message.askId)?.settle(message.failure);
    case 'started':
      return jobs.get(message.id)?.started?.(message.failure);
    case 'hash':
      return void sha256Of(message.file).then((sha256) =>
        post({ type: 'hashed', id: message.id, sha256 }),
      );
  }
});

function run(id: number, job: TransferJob): void {
  const entry: Job = { controller: new AbortController(), asks: new Map(), started: null };
  jobs.set(id, entry);
  let askIds = 0;
  // The token manager's rules, kept by the main thread: it sends a token for each try (a second
  // after a refresh), this thread sends the request and answers with its status; the last answer
  // stands once the main thread says so.
  const send: AuthorizedSend = <R extends SentAnswer>(
    target: string,
    attempt: (token: string, url: string) => Promise<R>,
  ) =>
    new Promise<R>((resolve, reject) => {
      const askId = ++askIds;
      let last: R | null = null;
      entry.asks.set(askId, {
        token(token, url) {
          attempt(token, url).then(
            (answer) => {
              last = answer;
              post({
                type: 'answered',
                id,
                askId,
                status: answer.status,
                wwwAuthenticate: answer.wwwAuthenticate,
              });
            },
            (error: unknown) =>
              post({
                type: 'answer-failed',
                id,
                askId,
                failure: toWireFailure(error, entry.controller.signal.aborted),
              }),
          );
        },
        settle(failure) {
          entry.asks.delete(askId);
          if (failure === null && last !== null) resolve(last);
          else
            reject(
              fromWireFailure(
                failure ?? { kind: 'core', error: { code: 'internal', message: 'No answer.' } },
                stopped,
              ),
            );
        },
      });
      post({ type: 'send', id, askId, url: target });
    });
  let lastProgress = 0;
  void transfer({
    ...job,
    send,
    signal: entry.controller.signal,
    onStart: (info: StartInfo) =>
      new Promise<void>((resolve, reject) => {
        entry.started = (failure) => {
          entry.started = null;
          if (failure === null) resolve();
          else reject(fromWireFailure(failure, stopped));
        };
        post({ type: 'start', id, info });
      }),
    onBytes: (bytes) => {
      const now = performance.now();
      if (now - lastProgress < job.progressEveryMs) return;
      lastProgress = now;
      post({ type: 'bytes', id, bytes });
    },
    onDurable: (bytes) => post({ type: 'durable', id, bytes }),
  })
    .then(
      (result) => post({ type: 'done', id, result }),
      (error: unknown) =>
        post({
          type: 'failed',
          id,
          failure: toWireFailure(error, entry.controller.signal.aborted),
        }),
    )
    .finally(() => jobs.delete(id));
}

/** The SHA-256 of a saved file (hex), or null when it cannot be read. */
async function sha256Of(file: string): Promise<string | null> {
  try {
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 }))
      hash.update(chunk as Buffer);
    return hash.digest('hex');
  } catch {
    return null;
  }
}
