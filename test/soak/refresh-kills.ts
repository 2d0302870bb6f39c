/**
 * Soak (b): kill -9 of a child process at random moments while it refreshes tokens in a loop. Each
 * next child opens the same data dir like a host would (lock, cipher, vault, site manager) and
 * reports what the kill left: a vault that cannot be read, or a site signed out (no pair, status
 * not 'ready', or its refresh refused). A final child checks the state after the last kill.
 */
import { createEmbeddedServer } from '../../embedded-server/index';
import { signedInDataDir, sleep, soakResult, startChild, type SoakResult } from './common';

interface Ready {
  readable: boolean;
  hasPair: boolean;
  status: string;
  tempFiles: number;
  keyReplaced: boolean;
  first: { ok: boolean; code: string | null };
}

export async function refreshKills(
  kills: number,
  script: string,
  timeLimitMs: number,
): Promise<SoakResult> {
  const server = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' });
  const started = Date.now();
  let done = 0;
  let unreadable = 0;
  let signedOut = 0;
  let keyReplaced = 0;
  let tempFilesSeen = 0;
  const data = await signedInDataDir(server.url);
  const check = (r: Ready): void => {
    if (!r.readable) unreadable++;
    if (r.keyReplaced) keyReplaced++;
    if (!r.hasPair || r.status !== 'ready' || !r.first.ok) signedOut++;
    tempFilesSeen += r.tempFiles;
  };
  try {
    for (; done < kills && Date.now() - started < timeLimitMs; done++) {
      const child = startChild(script, [data.dataDir, data.siteId]);
      check(await child.next<Ready>('ready'));
      await child.next('refreshing');
      // A random moment of the refresh loop: one refresh takes a few tens of ms here.
      await sleep(Math.random() * 250);
      await child.kill9();
    }
    const last = startChild(script, [data.dataDir, data.siteId, 'once']);
    check(await last.next<Ready>('ready'));
    await last.exited;
  } finally {
    await server.close();
    data.dispose();
  }
  return soakResult(
    '(b) kill -9 during refresh',
    {
      kills: done,
      'unreadable vaults': unreadable,
      'signed out': signedOut,
      'key replaced': keyReplaced,
      'temp files found at open (removed)': tempFilesSeen,
    },
    ['unreadable vaults', 'signed out', 'key replaced'],
    { done, wanted: kills, started },
  );
}
