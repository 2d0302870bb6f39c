import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ArchiveProgress } from '../../../electron/common/archive-contract';
import { commitSnapshot, ensureSite } from '../../../electron/core/db';
import { createArchiveHandlers } from '../../../electron/core/handlers/archive';
import { course, payment } from '../db/fixtures';
import { closeDatabases, NOW, openDb } from '../db/pages-scaffold';

const dirs: string[] = [];
afterEach(() => {
  closeDatabases();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A large school: many courses, and a receipt for each of many paid orders. */
const RECEIPTS = 1500;

function largeSchool() {
  const db = openDb();
  ensureSite(db, 's', NOW);
  commitSnapshot(db, 's', {
    courses: Array.from({ length: 300 }, (_, i) => course(`c${i}`)),
    payments: Array.from({ length: RECEIPTS }, (_, i) => payment(`p${i}`)),
  });
  const parent = mkdtempSync(join(tmpdir(), 'ld-archive-progress-'));
  dirs.push(parent);
  const events: ArchiveProgress[] = [];
  let onEvent = (_p: ArchiveProgress) => {};
  // Each reading of the clock a second later: no event is held back by the four-a-second bound.
  let clock = NOW.getTime();
  const services = {
    db,
    sites: {
      getSite: (id: string) =>
        id === 's' ? { id: 's', label: 'Big School', baseUrl: 'https://big.example' } : undefined,
    },
    clock: { now: () => (clock += 1000) },
    emit: (_event: string, p: ArchiveProgress) => {
      events.push(p);
      onEvent(p);
    },
  } as unknown as Parameters<typeof createArchiveHandlers>[0];
  const handlers = createArchiveHandlers(services, { parent, reveal: null });
  return {
    parent,
    events,
    handlers,
    whenEvent: (f: (p: ArchiveProgress) => void) => (onEvent = f),
  };
}

describe('a large school’s archive tells its progress and can be cancelled', () => {
  it('reports reading, then every file written of the total, and ends with all of them', async () => {
    const t = largeSchool();
    const made = await t.handlers['archive:site']({ siteId: 's', language: 'en' });
    if (made.cancelled) throw new Error('not cancelled');
    expect(made.files).toBe(RECEIPTS + 2);
    expect(t.events[0]).toEqual({ siteId: 's', stage: 'reading', done: 0, total: 1 });
    const writing = t.events.filter((e) => e.stage === 'writing');
    expect(writing.map((e) => e.total)).toEqual(writing.map(() => made.files));
    expect(writing.map((e) => e.done)).toEqual(writing.map((_, i) => i + 1));
    expect(writing.at(-1)).toEqual({
      siteId: 's',
      stage: 'writing',
      done: made.files,
      total: made.files,
    });
    expect(readdirSync(t.parent)).toEqual([made.folder]);
  }, 120_000);

  it('a cancel half-way leaves no archive and no partial folder', async () => {
    const t = largeSchool();
    let asked: Promise<boolean> | null = null;
    t.whenEvent((p) => {
      if (p.stage === 'writing' && p.done === 100 && !asked)
        asked = t.handlers['archive:cancel']({ siteId: 's' });
    });
    const made = await t.handlers['archive:site']({ siteId: 's', language: 'en' });
    expect(made).toEqual({ cancelled: true });
    expect(await asked).toBe(true);
    const last = t.events.at(-1)!;
    expect(last.done).toBeLessThan(last.total);
    expect(readdirSync(t.parent)).toEqual([]);
    // Nothing under way any more; the next archive is whole.
    expect(await t.handlers['archive:cancel']({ siteId: 's' })).toBe(false);
    const again = await t.handlers['archive:site']({ siteId: 's', language: 'en' });
    expect(again.cancelled).toBe(false);
  }, 120_000);
});
