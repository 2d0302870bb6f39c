/**
 * Soak (c): kill -9 of a child during a large-seed sync with a queued outbox change. The child is
 * the real app core driven through its handlers: it marks one unread notification read (queued in
 * the outbox, sent by the sync) and syncs; it is killed at a random moment of that sync. Before
 * each run the server's data moves to a new generation: every course and notification title carries
 * the generation's tag, so the offline copy must show one tag only (old snapshot or new, never a
 * mix). After each kill the database file must pass PRAGMA integrity_check. At the end a last clean
 * sync runs: every change the core acknowledged must have reached the server.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { createEmbeddedServer } from '../../embedded-server/index';
import { signedInDataDir, sleep, soakResult, startChild, type SoakResult } from './common';
import { createTestCore } from '../helpers/test-core';

/**
 * The large seed, sized so that 200 runs fit in minutes on a 2-core machine (the default is 30,000
 * lectures).
 */
export const SOAK_LARGE_SEED = {
  courses: 120,
  lecturesPerCourse: 25,
  payments: 1500,
  notifications: 600,
};

const TAG = / #g(\d+)$/;

export async function syncKills(
  kills: number,
  script: string,
  timeLimitMs: number,
): Promise<SoakResult> {
  const server = await createEmbeddedServer({
    port: 0,
    seed: 'large',
    site: 'demo',
    seedOptions: { large: SOAK_LARGE_SEED },
  });
  const started = Date.now();
  const data = await signedInDataDir(server.url);
  const db = server.db;
  db.prepare("UPDATE courses SET title = title || ' #g0'").run();
  db.prepare("UPDATE notifications SET title = title || ' #g0'").run();
  const setGeneration = (g: number): void => {
    for (const table of ['courses', 'notifications']) {
      db.prepare(
        `UPDATE ${table} SET title = substr(title, 1, instr(title, ' #g') - 1) || ' #g' || ?`,
      ).run(String(g));
    }
  };
  const unread = (
    db
      .prepare(
        "SELECT id FROM notifications WHERE user_id = 'usr_student' AND read_at IS NULL ORDER BY id",
      )
      .all() as { id: string }[]
  ).map((r) => r.id);
  const acknowledged: string[] = [];
  let done = 0;
  let integrityFailures = 0;
  let mixed = 0;
  let killedBeforeAck = 0;
  let finishedBeforeKill = 0;
  let syncMs = 0;
  let lost = 0;

  const checkFile = (): void => {
    const file = new Database(join(data.dataDir, 'offline.db'));
    try {
      if (file.pragma('integrity_check', { simple: true }) !== 'ok') integrityFailures++;
    } finally {
      file.close();
    }
  };
  const checkSnapshot = async (): Promise<Set<string>> => {
    const core = await createTestCore({
      dataDir: data.dataDir,
      version: '0.0.0-soak',
      openExternal: async () => undefined,
    });
    try {
      const library = await core.handlers['library:list']({ siteId: data.siteId });
      const notes = await core.handlers['notifications:list']({ siteId: data.siteId });
      if (!library.ok || !notes.ok) throw new Error('the offline views could not be read');
      const titles = [
        ...library.value.map((c) => c.title),
        ...notes.value.items.map((n) => n.title),
      ];
      return new Set(titles.map((t) => TAG.exec(t)?.[1] ?? 'untagged'));
    } finally {
      await core.close();
    }
  };

  try {
    // A first complete sync (timed: the kills fall at random moments within one sync's length).
    const first = startChild(script, [data.dataDir, data.siteId, 'sync', unread[0]!]);
    if ((await first.next<{ ok: boolean }>('queued', 120_000)).ok) acknowledged.push(unread[0]!);
    const t0 = Date.now();
    await first.next('synced', 300_000);
    syncMs = Date.now() - t0;
    await first.exited;

    for (; done < kills && Date.now() - started < timeLimitMs; done++) {
      setGeneration(done + 1);
      const id = unread[(done + 1) % unread.length]!;
      const child = startChild(script, [data.dataDir, data.siteId, 'sync', id]);
      // The change is queued (acknowledged by the core), then the sync is killed at a random moment
      // of its length.
      const ack = await child.next<{ ok: boolean }>('queued', 300_000).then(
        (m) => m.ok,
        () => false,
      );
      if (ack) acknowledged.push(id);
      else killedBeforeAck++;
      await sleep(Math.random() * syncMs);
      await child.kill9();
      if ((await child.exited) === 0) finishedBeforeKill++;
      checkFile();
      const tags = await checkSnapshot();
      if (tags.size !== 1 || tags.has('untagged')) mixed++;
    }
    // The last clean sync sends whatever is still queued.
    const last = startChild(script, [data.dataDir, data.siteId, 'sync', unread[0]!]);
    await last.next('synced', 300_000);
    await last.exited;
    checkFile();
    const readAt = db.prepare('SELECT read_at AS readAt FROM notifications WHERE id = ?');
    lost =
      new Set(acknowledged).size -
      [...new Set(acknowledged)].filter(
        (id) => (readAt.get(id) as { readAt: number | null }).readAt !== null,
      ).length;
  } finally {
    await server.close();
    data.dispose();
  }
  return soakResult(
    '(c) kill -9 during large sync',
    {
      kills: done,
      'sync length (ms)': syncMs,
      'change refused by the core': killedBeforeAck,
      'finished before the kill': finishedBeforeKill,
      'failed integrity_check': integrityFailures,
      'mixed snapshots': mixed,
      'acknowledged changes': new Set(acknowledged).size,
      'lost outbox changes': lost,
    },
    [
      'change refused by the core',
      'failed integrity_check',
      'mixed snapshots',
      'lost outbox changes',
    ],
    { done, wanted: kills, started },
  );
}
