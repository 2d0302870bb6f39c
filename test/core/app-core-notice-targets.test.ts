import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readNoticeLink } from '../../electron/common/notice-links';
import type { AppCore } from '../../electron/core/app-core';
import { createEmbeddedServer, type EmbeddedServer } from '../../embedded-server/index';
import {
  createTestCore,
  signedInSite,
  systemBrowser,
  valueOf,
  invoke,
  type ChannelArgs,
} from '../helpers/test-core';
import type { Channel } from '../../electron/common/ipc-contract';

describe('a notice’s url read as one of the site’s student pages', () => {
  const base = 'https://school.example/academy';
  it('reads a path below the base URL, or an address on the site’s own origin', () => {
    expect(readNoticeLink('/orders/T2026%2F01', base)).toEqual({
      kind: 'order',
      tradeNo: 'T2026/01',
    });
    expect(readNoticeLink('/courses/intro', base)).toEqual({
      kind: 'course',
      slug: 'intro',
      lectureId: null,
    });
    expect(
      readNoticeLink('https://school.example/academy/courses/intro/lectures/lec_1?t=30', base),
    ).toEqual({
      kind: 'course',
      slug: 'intro',
      lectureId: 'lec_1',
    });
    expect(readNoticeLink('/events/evt_1', base)).toEqual({ kind: 'event', eventId: 'evt_1' });
    expect(readNoticeLink('/consulting/csv_1/', base)).toEqual({
      kind: 'consulting',
      serviceId: 'csv_1',
    });
  });

  it('leads nowhere for anything else: another origin, credentials, outside the base path, unknown pages, dot-segments', () => {
    for (const url of [
      null,
      '',
      'https://evil.example/academy/orders/T1',
      'https://user:pw@school.example/academy/orders/T1',
      'https://school.example/orders/T1',
      '//evil.example/academy/orders/T1',
      'javascript:alert(1)',
      '/orders',
      '/orders/T1/extra',
      '/admin/users/1',
      '/courses/x/quizzes/1',
      '/orders/%2E%2E',
      '/orders/%E0%A4%A',
      `/orders/${'x'.repeat(3000)}`,
    ])
      expect(readNoticeLink(url, base), String(url)).toBeNull();
  });
});

/**
 * Against the demo school over real HTTP: opening each seeded notice leads where it says, and marks
 * it read.
 */
describe('app core: opening a notice (notifications:open)', () => {
  let dir: string;
  let server: EmbeddedServer | null = null;
  let core: AppCore | null = null;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ld-notice-'));
  });
  afterEach(async () => {
    await core?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a payment notice opens its order, a course notice the course, an event notice the event with its join link', async () => {
    server = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' });
    core = await createTestCore({ dataDir: join(dir, 'app'), openExternal: systemBrowser() });
    const call = async <C extends Channel>(channel: C, ...input: ChannelArgs<C>) =>
      valueOf(await invoke(core!.handlers, channel, ...input));
    const site = await signedInSite(core, server.url);
    expect((await call('sync:now', { siteId: site.id })).outcome).toBe('completed');
    const open = (notificationId: string) =>
      call('notifications:open', { siteId: site.id, notificationId });

    expect(await open('ntf_demo_02')).toEqual({ kind: 'order', tradeNo: 'T202611000004' });
    expect(await open('ntf_demo_01')).toEqual({
      kind: 'course',
      courseId: 'crs_machine_learning',
      lectureId: null,
    });
    const event = await open('ntf_demo_03');
    expect(event).toMatchObject({ kind: 'event', registrationId: 'reg_live_qa', isOnline: true });
    expect(event.kind === 'event' && event.joinUrl).toMatch(/^https:\/\//);
    expect(await open('ntf_demo_05')).toEqual({
      kind: 'consulting',
      serviceId: 'csv_data_mentoring',
    });
    // No url: the notice is only shown.
    expect(await open('ntf_demo_04')).toEqual({ kind: 'none', reason: 'no-link' });

    // Opened notices are read, locally at once and on the site through the outbox.
    const inbox = await call('notifications:list', { siteId: site.id });
    for (const id of ['ntf_demo_01', 'ntf_demo_02', 'ntf_demo_03'])
      expect(inbox.items.find((n) => n.id === id)?.readAt, id).not.toBeNull();
    const deadline = Date.now() + 10_000;
    const readOnSite = () =>
      server!.db
        .prepare(
          "SELECT count(*) AS n FROM notifications WHERE id IN ('ntf_demo_01', 'ntf_demo_02', 'ntf_demo_03') AND read_at IS NOT NULL",
        )
        .get() as { n: number };
    while (readOnSite().n < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(readOnSite().n).toBe(3);

    // A page the saved copy does not hold, and a notice that is not there, are said so (not thrown
    // as a crash).
    server.db
      .prepare("UPDATE notifications SET url = '/orders/T-NOT-THERE' WHERE id = 'ntf_demo_08'")
      .run();
    expect((await call('sync:now', { siteId: site.id })).outcome).toBe('completed');
    expect(await open('ntf_demo_08')).toEqual({ kind: 'none', reason: 'not-in-copy' });
    const missing = await invoke(core.handlers, 'notifications:open', {
      siteId: site.id,
      notificationId: 'ntf_nope',
    });
    expect(missing.ok ? null : missing.error.code).toBe('not-found');
  });
});
