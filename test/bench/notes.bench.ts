/**
 * `npm run bench notes`: the student's notes at eight times the large seed (LD_BENCH_NOTES_SCALE to
 * change it) with 10,000 notes spread over its lectures. p95 of each page read the screens make:
 * the notes view (newest first, every school, one school, one course, a page deep in the list), a
 * course's notes in the course's order, and search (words of 3+ characters through the trigram
 * index, short ones and CJK, a word in every note). Target:
 * the views' goal, p95 <= 5 ms for a page read. The scaled server runs in its own process, as in
 * startup.bench.ts.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openOfflineDatabase, openReadConnection } from '../../electron/core/db';
import { readWrite } from '../helpers/db';
import { getCourseNotes, getNotesPage, searchNotes } from '../../electron/core/db/notes';
import { addNote } from '../../electron/core/db/notes-write';
import { createSyncService } from '../../electron/core/sync';
import { siteClient } from '../core/sync/helpers/member-token';
import { collectGarbage, percentile, type BenchResult } from './types';

const SCALE = Number(process.env.LD_BENCH_NOTES_SCALE ?? 8);
const NOTES = 10_000;
const RUNS = 40;
const SERVER = join(import.meta.dirname, 'startup', 'scaled-server.ts');
const WORDS = ['pivot', 'chart', 'grouping', 'median', '資料', '圖表', 'regression', 'lecture'];

function startServer(): Promise<{ child: ChildProcess; url: string; token: string }> {
  return new Promise((resolve, reject) => {
    const child = fork(SERVER, [String(SCALE)], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.once('message', (m: { url: string; token: string }) =>
      resolve({ child, url: m.url, token: m.token }),
    );
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`scaled server exited with ${code}`)));
  });
}

function p95(fn: () => unknown): { p95: number; median: number } {
  fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return { p95: percentile(times, 95), median: percentile(times, 50) };
}

/**
 * 10,000 notes over the lectures, a minute apart, each with a few words of WORDS and a paragraph of
 * text.
 */
function writeNotes(file: string): { courseId: string; lectures: number } {
  const { db } = openOfflineDatabase(file);
  const lectures = db
    .prepare('SELECT course_id AS courseId, id FROM lectures ORDER BY rowid')
    .all() as { courseId: string; id: string }[];
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  db.transaction(() => {
    for (let i = 0; i < NOTES; i++) {
      // One note in 20 on the first 50 lectures (a course a student writes a lot in), the rest
      // spread out.
      const l = lectures[i % 20 === 0 ? i % 50 : (i * 7919) % lectures.length]!;
      const w = (k: number) => WORDS[(i + k) % WORDS.length]!;
      addNote(db, {
        siteId: 'site-1',
        courseId: l.courseId,
        lectureId: l.id,
        kind: i % 5 === 0 ? 'bookmark' : 'note',
        positionSeconds: (i * 37) % 3600,
        title: `Note ${i} on ${w(0)}`,
        body: `The ${w(1)} step, then the ${w(2)}. ${'Some words of the student about this moment. '.repeat(4)}`,
        school: 'Bench School',
        siteUrl: 'https://school.example',
        now: new Date(start + i * 60_000).toISOString(),
      });
    }
  })();
  db.close();
  return { courseId: lectures[0]!.courseId, lectures: lectures.length };
}

export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'ld-bench-notes-'));
  const server = await startServer();
  try {
    const file = join(dir, 'offline.db');
    {
      const db = readWrite(openOfflineDatabase(file).db);
      const sync = createSyncService({ db, clientFor: () => siteClient(server.url, server.token) });
      const summary = await sync.syncNow('site-1');
      await sync.close();
      db.close();
      if (summary.outcome !== 'completed')
        throw new Error(`sync ${summary.outcome}: ${summary.error?.message}`);
    }
    const { courseId, lectures } = writeNotes(file);
    const db = openReadConnection(file);
    collectGarbage();
    const figures: [string, { p95: number; median: number }][] = [
      ['notes view: first page, every school', p95(() => getNotesPage(db, {}, { limit: 50 }))],
      [
        'notes view: first page, one school',
        p95(() => getNotesPage(db, { siteId: 'site-1' }, { limit: 50 })),
      ],
      [
        'notes view: first page, one course',
        p95(() => getNotesPage(db, { siteId: 'site-1', courseId }, { limit: 50 })),
      ],
      ['notes view: page at 5,000', p95(() => getNotesPage(db, {}, { offset: 5000, limit: 50 }))],
      ['course notes, course order', p95(() => getCourseNotes(db, 'site-1', courseId))],
      ...WORDS.map((word): [string, { p95: number; median: number }] => [
        `notes search: "${word}"`,
        p95(() => searchNotes(db, word, { limit: 25 })),
      ]),
      ['notes search: "pi" (short)', p95(() => searchNotes(db, 'pi', { limit: 25 }))],
      ['notes search: "zzz" (none)', p95(() => searchNotes(db, 'zzzq', { limit: 25 }))],
    ];
    const courseNotes = getCourseNotes(db, 'site-1', courseId).length;
    db.close();
    return figures.map(([name, f]) => ({
      name: `${name} p95 (${SCALE}x)`,
      value: f.p95,
      unit: 'ms',
      note: `median ${f.median.toFixed(2)} ms; ${NOTES} notes over ${lectures} lectures, ${courseNotes} in the course; target <= 5 ms`,
    }));
  } finally {
    server.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}
