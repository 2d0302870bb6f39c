import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CalendarFeedView } from '../../electron/common/plan-contract';
import type { SiteSummary } from '../../electron/common/view-models';
import type { AppCore } from '../../electron/core/app-core';
import type { EmbeddedServer } from '../../embedded-server/index';
import { invoke, syncedDemo, valueOf, type SyncedDemo } from '../helpers/test-core';

/** GET with a Host of our choosing (fetch cannot set one): status and body. */
function get(url: string, host?: string): Promise<{ status: number; body: string; type: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, path: u.pathname, headers: host ? { host } : {} },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body, type: String(res.headers['content-type']) }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

interface Parsed {
  readonly uid: string;
  readonly summary: string;
  readonly start: number;
  readonly sequence: number;
}

/**
 * Parsed by ical.js (a parser nobody here wrote): every VEVENT with the properties RFC 5545 §3.6.1
 * requires.
 */
function parse(text: string): Parsed[] {
  const cal = new ICAL.Component(ICAL.parse(text));
  expect(cal.name).toBe('vcalendar');
  expect(cal.getFirstPropertyValue('version')).toBe('2.0');
  expect(cal.getFirstPropertyValue('prodid')).toBeTruthy();
  return cal.getAllSubcomponents('vevent').map((v) => {
    expect(v.getFirstPropertyValue('dtstamp')).toBeTruthy();
    const e = new ICAL.Event(v);
    return {
      uid: e.uid,
      summary: e.summary,
      start: e.startDate.toJSDate().getTime(),
      sequence: e.sequence,
    };
  });
}

describe('the calendar subscription: a kept file and a loopback feed', () => {
  let server: EmbeddedServer;
  let demo: SyncedDemo;
  let core: AppCore;
  let site: SiteSummary;
  let folder: string;

  beforeAll(async () => {
    demo = await syncedDemo({ prefix: 'ld-feed-' });
    ({ server, core, site } = demo);
    folder = mkdtempSync(join(tmpdir(), 'ld-feed-folder-'));
  }, 60_000);
  afterAll(async () => {
    await demo?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const view = async () =>
    valueOf(await invoke(core.handlers, 'calendar:feed', undefined)) as CalendarFeedView;
  const sync = async () => valueOf(await invoke(core.handlers, 'sync:now', { siteId: site.id }));

  it('serves valid RFC 5545 on 127.0.0.1 at an unguessable path, with a stable UID per item', async () => {
    const v = await view();
    expect(v.webcalUrl).toMatch(
      /^webcal:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{43}\/learning-desktop\.ics$/,
    );
    const res = await get(v.httpUrl!);
    expect(res.status).toBe(200);
    expect(res.type).toBe('text/calendar; charset=utf-8');
    const events = parse(res.body);
    expect(events.length).toBeGreaterThan(3);
    expect(new Set(events.map((e) => e.uid)).size).toBe(events.length);
    expect(events.some((e) => e.summary.startsWith('Unlocks:'))).toBe(true);
    expect(events.some((e) => e.summary.startsWith('Access ends:'))).toBe(true);
    expect(events.some((e) => e.summary.startsWith('Payment code expires'))).toBe(true);
    // The same build twice: the same UIDs and revisions.
    const again = parse((await get(v.httpUrl!)).body);
    expect(again.map((e) => [e.uid, e.sequence])).toEqual(events.map((e) => [e.uid, e.sequence]));
  });

  it('answers a foreign Host with 421 and a wrong path with 404', async () => {
    const v = await view();
    const port = new URL(v.httpUrl!).port;
    expect((await get(v.httpUrl!, `evil.example:${port}`)).status).toBe(421);
    expect((await get(v.httpUrl!, '127.0.0.1')).status).toBe(421);
    expect((await get(v.httpUrl!, `localhost:${port}`)).status).toBe(200);
    expect(
      (await get(v.httpUrl!.replace(/\/[^/]+\/learning/, '/wrong-token/learning'))).status,
    ).toBe(404);
    expect((await get(`http://127.0.0.1:${port}/`)).status).toBe(404);
  });

  it('after a sync: a moved unlock keeps its UID with a higher SEQUENCE; a paid code disappears', async () => {
    const v = await view();
    const before = parse((await get(v.httpUrl!)).body);
    const lecture = server.db
      .prepare(
        "SELECT id, unlock_at FROM lectures WHERE course_id = 'crs_machine_learning' AND unlock_at > ? ORDER BY unlock_at DESC LIMIT 1",
      )
      .get(server.clock.now()) as { id: string; unlock_at: number };
    // The service keeps epoch milliseconds; a calendar, whole seconds.
    const moved = lecture.unlock_at + 2 * 86_400_000;
    const second = (ms: number) => Math.floor(ms / 1000) * 1000;
    server.db.prepare('UPDATE lectures SET unlock_at = ? WHERE id = ?').run(moved, lecture.id);
    const paid = server.db
      .prepare(
        "SELECT id, trade_no FROM payments WHERE code_no IS NOT NULL AND payment_state = 'not_paid' LIMIT 1",
      )
      .get() as { id: string; trade_no: string };
    server.db
      .prepare("UPDATE payments SET payment_state = 'paid', paid_at = ? WHERE id = ?")
      .run(server.clock.now(), paid.id);
    await sync();
    const after = parse((await get(v.httpUrl!)).body);
    const now = after.find((e) => e.start === second(moved))!;
    expect(now).toBeDefined();
    const was = before.find((e) => e.uid === now.uid)!;
    expect(was.start).toBe(second(lecture.unlock_at));
    expect(now.sequence).toBe(was!.sequence + 1);
    expect(after.some((e) => e.summary.includes(paid.trade_no))).toBe(false);
    expect(before.some((e) => e.summary.includes(paid.trade_no))).toBe(true);
  });

  it('keeps an .ics file in the folder chosen, rewritten after a sync; study blocks when asked', async () => {
    const refused = await invoke(core.handlers, 'calendar:set-feed', { folder: 'relative/path' });
    expect(refused.ok).toBe(false);
    const v = valueOf(
      await invoke(core.handlers, 'calendar:set-feed', { folder, studyBlocks: true }),
    ) as CalendarFeedView;
    expect(v.file).toBe(join(folder, 'learning-desktop.ics'));
    const first = parse(readFileSync(v.file!, 'utf8'));
    expect(first.some((e) => e.summary.startsWith('Study:'))).toBe(true);
    await sync();
    const after = await view();
    expect(after.writtenAt).not.toBeNull();
    expect(parse(readFileSync(v.file!, 'utf8')).length).toBeGreaterThan(0);
  });
});
