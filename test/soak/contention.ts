/**
 * Soak (d), two races:
 * - (d1) the member signs in again while a refresh is on the wire, and that refresh then fails with
 *   invalid_grant (the new sign-in revoked its grant). Counts new sign-ins the failing refresh
 *   wiped.
 * - (d2) two app processes started at once on one data dir, each syncing with a clock 3 h ahead
 *   (every sync needs a refresh). Counts rounds where both held the folder and rounds that ended
 *   signed out.
 */
import { join } from 'node:path';
import { createEmbeddedServer } from '../../embedded-server/index';
import { createVault } from '../../electron/core/vault/vault';
import { createHarness } from '../core/auth/helpers/harness';
import { signedInDataDir, soakResult, startChild, type SoakResult } from './common';

export async function resignInDuringRefresh(
  rounds: number,
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
  let wiped = 0;
  let refreshFailed = 0;
  try {
    const site = await h.manager.add({ baseUrl: server.url, clientId: 'demo-desktop' });
    await h.manager.signIn(site.id);
    const vault = createVault({ dir: join(h.dir, 'vault'), cipher: h.cipher });
    for (; done < rounds && Date.now() - started < timeLimitMs; done++) {
      clock.ms += 2 * 60 * 60 * 1000 + 1000;
      const held = h.holdNextRequest((r) => r.form?.get('grant_type') === 'refresh_token');
      const refreshing = h.manager.getAccessToken(site.id).then(
        (token) => ({ token }),
        () => ({ token: null }),
      );
      await held.reached;
      await h.manager.signIn(site.id);
      const fresh = await vault.get(site.id);
      for (let i = 0; i < 500 && (await vault.listPendingRevocations()).length > 0; i++)
        await new Promise((r) => setTimeout(r, 10));
      held.release();
      const outcome = await refreshing;
      if (outcome.token !== fresh?.accessToken) refreshFailed++;
      const after = await vault.get(site.id);
      if (
        after?.refreshToken !== fresh?.refreshToken ||
        h.manager.getSite(site.id)?.status !== 'ready'
      ) {
        wiped++;
        await h.manager.signIn(site.id);
      }
    }
  } finally {
    await h.close();
    await server.close();
  }
  return soakResult(
    '(d1) re-sign-in during a failing refresh',
    {
      rounds: done,
      'new sign-ins wiped': wiped,
      'refresh callers not given the new token': refreshFailed,
    },
    ['new sign-ins wiped', 'refresh callers not given the new token'],
    { done, wanted: rounds, started },
  );
}

type Outcome = { type: 'locked'; pid: number } | { type: 'refused'; holder: number };

export async function twoProcessesOneDataDir(
  rounds: number,
  script: string,
  timeLimitMs: number,
): Promise<SoakResult> {
  const server = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' });
  const started = Date.now();
  let data = await signedInDataDir(server.url);
  let done = 0;
  let bothHeld = 0;
  let noneHeld = 0;
  let wrongHolder = 0;
  let signedOut = 0;
  let syncErrors = 0;
  let overlapping = 0;
  try {
    for (; done < rounds && Date.now() - started < timeLimitMs; done++) {
      const children = [
        startChild(script, [data.dataDir, data.siteId, 'contend']),
        startChild(script, [data.dataDir, data.siteId, 'contend']),
      ];
      const outcomes = await Promise.all(
        children.map((c) =>
          Promise.race([c.next<Outcome>('locked', 120_000), c.next<Outcome>('refused', 120_000)]),
        ),
      );
      const winners = outcomes.filter((o) => o.type === 'locked');
      if (winners.length === 2) bothHeld++;
      if (winners.length === 0) noneHeld++;
      const loser = outcomes.find(
        (o): o is Extract<Outcome, { type: 'refused' }> => o.type === 'refused',
      );
      if (
        loser &&
        winners.length === 1 &&
        loser.holder !== (winners[0] as Extract<Outcome, { type: 'locked' }>).pid
      )
        wrongHolder++;
      if (loser) overlapping++;
      for (const [i, o] of outcomes.entries())
        if (o.type === 'locked') children[i]!.process.send({ type: 'go' });
      for (const [i, o] of outcomes.entries()) {
        if (o.type !== 'locked') continue;
        const result = await children[i]!.next<{ errors: (string | null)[]; status: string }>(
          'done',
          300_000,
        );
        if (result.errors.some((e) => e !== null)) syncErrors++;
        if (result.status !== 'ready') signedOut++;
      }
      await Promise.all(children.map((c) => c.exited));
      if (signedOut > 0 && done < rounds - 1) {
        // Continue the count on a fresh sign-in (the failure is already counted).
        data.dispose();
        data = await signedInDataDir(server.url);
      }
    }
  } finally {
    await server.close();
    data.dispose();
  }
  return soakResult(
    '(d2) two processes on one data dir',
    {
      rounds: done,
      'rounds with one refused': overlapping,
      'both held the folder': bothHeld,
      'neither held it': noneHeld,
      'refusal named the wrong PID': wrongHolder,
      'sync errors': syncErrors,
      'signed out': signedOut,
    },
    [
      'both held the folder',
      'neither held it',
      'refusal named the wrong PID',
      'sync errors',
      'signed out',
    ],
    { done, wanted: rounds, started },
  );
}
