import type { Logger } from '../db/index';
import type { StageFetchInput } from '../worker/worker-contract';
import type { DbWriter } from '../worker/writer';
import type { ClientFor, RetryPolicy, Sleep, Transport } from './transport-contract';

export interface SiteTransportsDeps {
  readonly clientFor: ClientFor;
  readonly writer: DbWriter;
  readonly sleep: Sleep;
  readonly logger: Logger;
  /** The retry policy of a sync run (transport.ts's default when absent). */
  readonly retry?: RetryPolicy;
  /** How long one request may take, start to last byte. */
  readonly requestDeadlineMs?: number;
}

export interface TransportRequest {
  readonly signal?: AbortSignal;
  /** Overrides the sync run's retry policy (a replay or a probe gives up sooner). */
  readonly retry?: RetryPolicy;
  /**
   * The writer's stage a run's pages are requested by and staged in (see `stage` in transport.ts).
   */
  readonly stageId?: string;
}

/** Makes the transport each contact with a site goes through. */
export class SiteTransports {
  readonly #deps: SiteTransportsDeps;

  constructor(deps: SiteTransportsDeps) {
    this.#deps = deps;
  }

  async for(siteId: string, request: TransportRequest = {}): Promise<Transport> {
    const { clientFor, writer, sleep, logger, requestDeadlineMs } = this.#deps;
    const { signal, stageId } = request;
    const retry = request.retry ?? this.#deps.retry;
    const client = await clientFor(siteId);
    // Loaded at the first sync, not at the app's start: the transport brings graphql-request and
    // graphql-js.
    const { createTransport } = await import('./transport');
    return createTransport(client, {
      sleep,
      ...(signal ? { signal } : {}),
      // The run's pages are requested by the writer and staged where they arrive (client.sendWith
      // keeps the token rules).
      ...(stageId === undefined
        ? {}
        : {
            stage: (input: Omit<StageFetchInput, 'stageId'>) =>
              writer.call('stage:fetch', { stageId, ...input }),
          }),
      ...(retry ? { retry } : {}),
      ...(requestDeadlineMs === undefined ? {} : { deadlineMs: requestDeadlineMs }),
      onRetry: (error, attempt, delayMs) =>
        logger.info('sync request retrying', { siteId, code: error.code, attempt, delayMs }),
    });
  }
}
