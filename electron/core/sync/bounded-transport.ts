import type { Transport } from './transport-contract';

/**
 * At most `limit` requests in flight; the others wait their turn in order. The connections still
 * page side by side, each on its own cursor, but a site is never asked for more than a handful of
 * pages at once.
 */
export function boundedTransport(transport: Transport, limit: number): Transport {
  let active = 0;
  const waiting: (() => void)[] = [];
  const slot = async <T>(request: () => Promise<T>): Promise<T> => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else active += 1;
    try {
      return await request();
    } finally {
      const next = waiting.shift();
      if (next)
        next(); // the slot passes on
      else active -= 1;
    }
  };
  const body = transport.executeBody?.bind(transport);
  const remote = transport.executeStaged?.bind(transport);
  return {
    execute: (document, variables) => slot(() => transport.execute(document, variables)),
    ...(body
      ? { executeBody: (document, variables) => slot(() => body(document, variables)) }
      : {}),
    ...(remote
      ? {
          executeStaged: (document, variables, into) =>
            slot(() => remote(document, variables, into)),
        }
      : {}),
  };
}
