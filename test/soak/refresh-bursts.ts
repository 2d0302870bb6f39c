/**
 * Soak (a): bursts of concurrent API calls that all need the same refresh (spec, token pair
 * lifecycle). Real embedded server on 127.0.0.1, real site manager with the Node key-file cipher; a
 * shared test clock jumps past the access token's lifetime before each burst. Counts refresh
 * requests per burst (must be exactly 1) and spurious sign-outs (a call refused with
 * sign-in-needed, or the site leaving 'ready').
 */
import { createEmbeddedServer } from '../../embedded-server/index';
import { isCoreError } from '../../electron/core/errors';
import { createHarness } from '../core/auth/helpers/harness';
import { soakResult, type SoakResult } from './common';

export async function refreshBursts(
  bursts: number,
  concurrency: number,
  timeLimitMs: number,
): Promise<SoakResult> {
  const clock = {
    ms: Date.now(),
    now(): number {
      return this.ms;
    },
  };
  const server = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo', clock });
  const h = await createHarness({ clock });
  const started = Date.now();
  let done = 0;
  let notOne = 0;
  let minRefreshes = Infinity;
  let maxRefreshes = 0;
  let signOuts = 0;
  let failedCalls = 0;
  try {
    const site = await h.manager.add({ baseUrl: server.url, clientId: 'demo-desktop' });
    await h.manager.signIn(site.id);
    const call = h.manager.fetchFor(site.id);
    for (; done < bursts && Date.now() - started < timeLimitMs; done++) {
      clock.ms += 2 * 60 * 60 * 1000 + 1000; // past the 2 h access token lifetime
      const before = h.refreshRequests().length;
      const outcomes = await Promise.allSettled(
        Array.from({ length: concurrency }, async () => {
          const res = await call('/member/graphql', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query: '{ viewer { id } }' }),
          });
          const body = (await res.json()) as { data?: { viewer?: { id?: string } } };
          if (res.status !== 200 || !body.data?.viewer?.id) throw new Error(`HTTP ${res.status}`);
        }),
      );
      const refreshes = h.refreshRequests().length - before;
      minRefreshes = Math.min(minRefreshes, refreshes);
      maxRefreshes = Math.max(maxRefreshes, refreshes);
      if (refreshes !== 1) notOne++;
      for (const o of outcomes) {
        if (o.status === 'rejected') {
          failedCalls++;
          if (isCoreError(o.reason, 'sign-in-needed')) signOuts++;
        }
      }
      if (h.manager.getSite(site.id)?.status !== 'ready') {
        signOuts++;
        await h.manager.signIn(site.id);
      }
    }
  } finally {
    await h.close();
    await server.close();
  }
  return soakResult(
    '(a) refresh bursts',
    {
      bursts: done,
      'calls per burst': concurrency,
      'refreshes per burst (min-max)': done ? `${minRefreshes}-${maxRefreshes}` : '-',
      'bursts with != 1 refresh': notOne,
      'failed calls': failedCalls,
      'spurious sign-outs': signOuts,
    },
    ['bursts with != 1 refresh', 'failed calls', 'spurious sign-outs'],
    { done, wanted: bursts, started },
  );
}
