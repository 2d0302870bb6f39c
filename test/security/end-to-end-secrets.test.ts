/**
 * "Secrets never reach logs, URLs of error pages, crash output or the renderer": one real run of
 * the app core in demo mode (the embedded demo sites on 127.0.0.1, real SQLite, the Node key-file
 * cipher, a temp data dir), driven only through `dispatch` like a host does: add-demo, sign-in
 * through a scripted browser, sync, every view channel, notifications, settings, token protection,
 * a refresh (the clock jumps past the access token's lifetime), sign-out and remove. Every Result,
 * every event and every log line is captured, and every file the run leaves behind is scanned for
 * the token values read off the wire.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, type EventName } from '../../electron/common/ipc-contract';
import type { Result } from '../../electron/common/result';
import type {
  BillingView,
  EntitlementsView,
  LibraryCourse,
  NotificationsView,
  SiteSummary,
} from '../../electron/common/view-models';
import type { AppCore } from '../../electron/core/app-core';
import { dispatch } from '../../electron/core/ipc-dispatch';
import { createNodeCipher } from '../../electron/core/vault/cipher';
import { createVault } from '../../electron/core/vault/vault';
import { ScriptedBrowser } from '../helpers/scripted-browser';
import {
  captureLogger,
  createRecordingFetch,
  filesUnder,
  leaksIn,
  scanFiles,
  SecretBag,
} from './helpers/canary';
import { createTestCore, invoke } from '../helpers/test-core';

describe('secrets stay out of the renderer, the logs and the files at rest (demo mode, end to end)', () => {
  const bag = new SecretBag();
  const wire = createRecordingFetch(bag);
  const log = captureLogger();
  const results: { channel: string; result: Result<unknown> }[] = [];
  const events: { event: EventName; payload: unknown }[] = [];
  const loopbackPages: string[] = [];
  const callbackUrls: string[] = [];
  let offsetMs = 0;
  let dataDir: string;
  let core: AppCore;
  let demo: SiteSummary;
  let demo2: SiteSummary;
  let filesWhileSignedIn: string[] = [];
  let leaksWhileSignedIn: string[] = [];
  let serverBytesWhileSignedIn = '';
  const vaultTokens: string[] = [];
  /** The files the student asked for (CSV, receipt, calendar), as the host was handed them. */
  const delivered: string[] = [];

  /** A call whose refusal is part of the journey: recorded and checked like the others. */
  const attempt = async (channel: string, input?: unknown): Promise<void> => {
    const result = await dispatch(core.handlers, channel, input);
    results.push({ channel, result });
  };
  const call = async <T = unknown>(channel: string, input?: unknown): Promise<T> => {
    const result = await dispatch(core.handlers, channel, input, (c, e) =>
      log.logger.error('unexpected', { c, e }),
    );
    results.push({ channel, result });
    if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
    return result.value as T;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'ld-sec-'));
    core = await createTestCore({
      dataDir,
      version: '0.0.0-security',
      demo: { enabled: true },
      signInTimeoutMs: 20_000,
      fetch: wire.fetch,
      logger: log.logger,
      clock: { now: () => Date.now() + offsetMs },
      // The assistants' config files are written under the test's folder, never the real home.
      assistantPlaces: { home: join(dataDir, 'home'), platform: 'linux', env: {} },
      deliverFile: async (file) => {
        delivered.push(file.body + (file.printView ?? ''));
        return { kind: 'saved', fileName: file.fileName };
      },
      env: { HTTP_PROXY: 'http://student:proxy-canary-password@proxy.example:3128' },
      openExternal: async (url) => {
        const redirect = new URL(url).searchParams.get('redirect_uri');
        // A school's page (a note opened at its moment) is not a sign-in: nothing to drive.
        if (redirect === null) return;
        void new ScriptedBrowser().authorize(url, { stopAt: redirect }).then(async (callback) => {
          callbackUrls.push(callback);
          bag.add('code', new URL(callback).searchParams.get('code'));
          loopbackPages.push(await (await fetch(callback)).text());
        });
      },
    });
    core.onEvent((event, payload) => events.push({ event, payload: structuredClone(payload) }));
    bag.add('password', 'student-demo');
    bag.add('password', 'proxy-canary-password');
  }, 60_000);

  afterAll(async () => {
    await core?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs the whole journey through dispatch', async () => {
    const added = await call<SiteSummary[]>('sites:add-demo');
    expect(added).toHaveLength(2);
    [demo, demo2] = added as [SiteSummary, SiteSummary];
    await call('app:get-info');
    await call('sites:list');
    expect(await call<SiteSummary>('sites:sign-in', { siteId: demo.id })).toMatchObject({
      status: 'ready',
    });
    expect(await call<SiteSummary>('sites:sign-in', { siteId: demo2.id })).toMatchObject({
      status: 'ready',
    });
    const run = await call<{ outcome: string }>('sync:now', { siteId: demo.id });
    expect(['completed', 'partial']).toContain(run.outcome);
    await call('sync:now', { siteId: demo2.id });
    await call('sync:status', { siteId: demo.id });

    const library = await call<LibraryCourse[]>('library:list', { siteId: demo.id });
    expect(library.length).toBeGreaterThan(0);
    await call('course:get', { siteId: demo.id, courseId: library[0]!.courseId });
    await call('course:mark-seen', { siteId: demo.id, courseId: library[0]!.courseId });
    // The student's notes, the change record and an archive: nothing of them carries a secret
    // either.
    const detail = await call<{ sections: { lectures: { lectureId: string }[] }[] }>('course:get', {
      siteId: demo.id,
      courseId: library[0]!.courseId,
    });
    const at = {
      siteId: demo.id,
      courseId: library[0]!.courseId,
      lectureId: detail.sections[0]!.lectures[0]!.lectureId,
    };
    await call('notes:draft', at);
    const note = await call<{ id: number }>('notes:add', {
      ...at,
      kind: 'note',
      positionSeconds: 754,
      title: 'Secret-free',
      body: 'A note',
    });
    await call('notes:update', {
      id: note.id,
      kind: 'note',
      positionSeconds: 1,
      title: 'x',
      body: 'y',
    });
    await call('notes:course', { siteId: demo.id, courseId: at.courseId });
    await call('notes:page', {});
    await call('notes:filters');
    await call('notes:search', { query: 'note' });
    await call('notes:open', { id: note.id });
    await call('notes:export-course', { siteId: demo.id, courseId: at.courseId, language: 'en' });
    await call('notes:delete', { id: note.id });
    await call('notes:restore', { id: note.id });
    await call('notes:count-site', { siteId: demo.id });
    await call('changes:unseen');
    await call('changes:mark-seen', { upTo: 0 });
    await call('archive:site', { siteId: demo.id, language: 'en' });
    await call('archive:cancel', { siteId: demo.id });
    await call('notes:forget-site', { siteId: 'not-a-site' });
    // The plan, the reminders' rules and the calendar feed: nothing of them carries a secret
    // either.
    const timeZone = 'Asia/Taipei';
    await call('plan:get', { timeZone });
    await call('plan:course', { siteId: demo.id, courseId: at.courseId, timeZone });
    await call('plan:set-goal', { goal: { unit: 'minutes', amount: 120 } });
    await call('plan:set-study-days', { days: [1, 3, 5] });
    await call('reminders:prefs');
    await call('reminders:set-rule', {
      kind: 'payment-due',
      rule: { enabled: true, leadMinutes: [60, 1440] },
    });
    await call('reminders:set-quiet-hours', { quietHours: { start: '22:00', end: '07:00' } });
    await attempt('reminders:snooze', {
      kind: 'payment-due',
      items: [{ siteId: demo.id, subjectId: 'not-a-payment' }],
      until: 'hour',
      timeZone,
    });
    await call('calendar:feed');
    mkdirSync(join(dataDir, 'calendar'));
    await call('calendar:set-feed', { folder: join(dataDir, 'calendar'), studyBlocks: true });
    // No folder dialog in this core (the browser host's): the folder stays typed.
    await attempt('calendar:choose-folder');
    // The student's own AI assistant: its consent, connect files, activity and requests.
    await call('assistant:get');
    await call('assistant:update', { enabled: true, cloudAcknowledged: true });
    await call('assistant:connect-preview', { client: 'vscode' });
    await call('assistant:connect', { client: 'vscode' });
    await call('assistant:bundle-preview');
    await attempt('assistant:save-bundle');
    await call('assistant:activity');
    await call('assistant:export-activity');
    await call('assistant:clear-activity');
    await call('assistant:requests');
    await attempt('assistant:answer-request', {
      id: '00000000-0000-4000-8000-000000000000',
      accept: false,
    });
    await call('billing:get', { siteId: demo.id });
    // The paged channels the screens use.
    await call('library:page', { siteId: demo.id, limit: 5, filter: 'in-progress' });
    await call('library:all-page', { limit: 5, sort: 'recent' });
    await call('today:get');
    // The window's first frame for the next start (kept in the data folder: checked at rest below).
    await call('app:save-first-screen', {
      html: '<p>Today</p>',
      build: 'index-x.js',
      lang: 'en',
      dir: 'ltr',
      theme: null,
      siteIds: [demo.id],
    });
    // A school's address read without adding it (the welcome screen's "no application ID" path).
    await call('sites:check', { baseUrl: demo.baseUrl });
    await call('billing:spending', { siteId: demo.id });
    await call('progress:summary', { siteId: demo.id, timeZone: 'Asia/Taipei' });
    // A cover fetched by the core for the page (the demo's covers are on the site's own origin).
    const cover =
      library.find((c) => c.coverImageUrl !== null)?.coverImageUrl ??
      `${demo.baseUrl}/covers/none.svg`;
    await call('media:image', { siteId: demo.id, url: cover }).catch(() => undefined);
    await call('billing:summary', { siteId: demo.id });
    const orders = await call<{ items: { tradeNo: string }[] }>('billing:orders', {
      siteId: demo.id,
      offset: 0,
      limit: 5,
    });
    await call('billing:order', { siteId: demo.id, tradeNo: orders.items[0]!.tradeNo });
    // A page the offline copy does not know: the channel answers (an error Result) without opening
    // the browser, which here is scripted for the sign-in pages only.
    await call('site:open-page', {
      siteId: demo.id,
      page: { kind: 'course', courseId: 'not-in-this-library' },
    }).catch(() => undefined);
    await call('billing:instructions', { siteId: demo.id });
    await call('notifications:summary', { siteId: demo.id });
    await call('notifications:page', { siteId: demo.id, limit: 5, onlyUnread: true });
    const entitlements = await call<EntitlementsView>('entitlements:get', { siteId: demo.id });
    // Product files kept offline: each channel's answers go through the same check (a download URL
    // carries no secret, the member's token is sent only in a header).
    const productId = entitlements.digitalProducts[0]!.id;
    await call('downloads:save', { siteId: demo.id, productId });
    await call('downloads:list', { siteId: demo.id });
    await call('downloads:pause', { siteId: demo.id, productId }).catch(() => undefined);
    await call('downloads:open', { siteId: demo.id, productId }).catch(() => undefined);
    await call('downloads:storage');
    await call('downloads:set-keep-all', { siteId: demo.id, keepAll: false });
    await call('downloads:cancel', { siteId: demo.id, productId }).catch(() => undefined);
    await call('downloads:remove', { siteId: demo.id, productId }).catch(() => undefined);
    await call('downloads:remove-all', {}).catch(() => undefined);
    await call('consulting:list', { siteId: demo.id });
    await call('profile:get', { siteId: demo.id });
    await call('search:query', { siteId: demo.id, query: 'a' });
    const notifications = await call<NotificationsView>('notifications:list', { siteId: demo.id });
    const first = notifications.items[0];
    if (first) await call('notifications:mark-read', { siteId: demo.id, notificationId: first.id });
    // Where a notice leads (an order, a course, an event, a service), read from the saved copy; it
    // is marked read too.
    for (const n of notifications.items)
      await call('notifications:open', { siteId: demo.id, notificationId: n.id });
    await call('notifications:mark-all-read', { siteId: demo.id });
    await call('notifications:update-subscription', {
      siteId: demo.id,
      topic: 'marketing',
      channel: 'email',
      enabled: false,
    });
    await call('settings:get');
    await call('settings:update', { theme: 'dark' });
    await call('security:get-token-protection');
    await call('sync:cancel', { siteId: demo2.id });
    await call('sites:cancel-sign-in', { siteId: demo2.id });
    // A site added by hand (discovery over HTTP) and the add result.
    await call('sites:add', { baseUrl: demo.baseUrl, clientId: 'demo-desktop' });

    // The access token's lifetime passes on the app's clock: the next sync refreshes (rotating the
    // pair).
    const exchangesBefore = wire.tokenExchanges.length;
    offsetMs = 3 * 60 * 60 * 1000;
    await call('sync:now', { siteId: demo.id });
    expect(wire.tokenExchanges.length).toBeGreaterThan(exchangesBefore);
    await call('sync:status', { siteId: demo.id });

    // The sign-in doctor's report (a proxy with credentials in the environment) and the demo fault
    // panel.
    const doctor = await call<{ checks: { id: string; params: Record<string, unknown> }[] }>(
      'doctor:run',
      { siteId: demo.id },
    );
    expect(doctor.checks.find((c) => c.id === 'proxy')?.params).toMatchObject({
      proxy: 'proxy.example:3128',
    });
    await call('doctor:run', { baseUrl: demo.baseUrl, clientId: 'demo-desktop' });
    await call('demo:faults');
    await call('demo:set-faults', { latencyMs: 0 });
    await call('demo:rotate-signing-key');

    // The files the student asks for, the updater (off without a feed) and invite links.
    const billing = await call<BillingView>('billing:get', { siteId: demo.id });
    const payments = billing.orders.flatMap((o) => o.payments);
    await call('export:orders-csv', { siteId: demo.id, language: 'en' });
    await call('export:receipt', {
      siteId: demo.id,
      tradeNo: billing.orders[0]!.tradeNo,
      language: 'en',
    });
    await call('export:progress-csv', { siteId: demo.id, language: 'en' });
    await call('export:progress-report', { siteId: demo.id, language: 'zh-TW' });
    await call('export:year-receipts', {
      siteId: demo.id,
      year: billing.orders[0]!.createdAt.slice(0, 4),
      language: 'zh-TW',
    });
    const unpaid =
      payments.find((p) => p.paymentState === 'not_paid' && p.instructions?.isExpired === false) ??
      payments[0]!;
    await call('calendar:payment-deadline', {
      siteId: demo.id,
      paymentId: unpaid.paymentId,
      language: 'en',
    }).catch(() => undefined);
    await call('calendar:course-access-end', {
      siteId: demo.id,
      courseId: library[0]!.courseId,
      language: 'zh-TW',
    }).catch(() => undefined);
    const registrations = (await call<EntitlementsView>('entitlements:get', { siteId: demo.id }))
      .eventRegistrations;
    const upcomingEvent = registrations.find((e) => !e.isPast) ?? registrations[0]!;
    await call('calendar:event', {
      siteId: demo.id,
      registrationId: upcomingEvent.id,
      language: 'zh-TW',
    }).catch(() => undefined);
    expect(delivered.length).toBeGreaterThanOrEqual(2);
    await call('updates:get-state');
    await call('updates:check');
    await call('updates:restart');
    await call('invite:parse', {
      link: `learning-desktop://add-site?site=${encodeURIComponent(demo.baseUrl)}&client_id=demo-desktop`,
    });
    await call('invite:take-pending');

    // The pairs the vault holds (decrypted with the app's own key): the canaries must include them.
    const vault = createVault({
      dir: join(dataDir, 'vault'),
      cipher: await createNodeCipher(join(dataDir, 'vault.key')),
    });
    for (const s of [demo, demo2]) {
      const record = await vault.get(s.id);
      for (const t of [record?.accessToken, record?.refreshToken]) if (t) vaultTokens.push(t);
    }
    filesWhileSignedIn = filesUnder(dataDir);
    leaksWhileSignedIn = scanFiles(filesWhileSignedIn, bag);
    serverBytesWhileSignedIn = filesWhileSignedIn
      .filter((f) => f.includes('demo-server'))
      .map((f) => readFileSync(f).toString('latin1'))
      .join('');

    expect(await call('sites:sign-out', { siteId: demo.id, removeData: false })).toMatchObject({
      revoked: true,
    });
    await call('sites:remove', { siteId: demo2.id });
    // Invalid input, unknown channel, unknown site: error Results are captured too.
    await invoke(core.handlers, 'sites:sign-in', { siteId: 'nope' }).then((r) =>
      results.push({ channel: 'sites:sign-in', result: r }),
    );
    await dispatch(core.handlers, 'no:such', undefined).then((r) =>
      results.push({ channel: 'no:such', result: r }),
    );
    await core.close();
  }, 120_000);

  it('saw every kind of canary live on the wire (nothing passes vacuously)', () => {
    const kinds = bag.kinds();
    for (const k of [
      'access_token',
      'refresh_token',
      'id_token',
      'code',
      'code_verifier',
      'password',
    ] as const)
      expect(kinds, k).toContain(k);
    // Two sign-ins and a rotation: at least three access and three refresh tokens.
    expect(bag.of('access_token').length).toBeGreaterThanOrEqual(3);
    expect(bag.of('refresh_token').length).toBeGreaterThanOrEqual(3);
    // Each token really was on the wire, where it is allowed to be.
    const wireText = wire.tokenExchanges.map((x) => x.requestBody + x.responseBody).join('\n');
    for (const t of [...bag.of('access_token'), ...bag.of('refresh_token'), ...bag.of('id_token')])
      expect(wireText.includes(t)).toBe(true);
    expect(callbackUrls.join('\n')).toContain(bag.of('code')[0]);
    // What the vault holds is among the canaries (two sites, a pair each).
    expect(vaultTokens).toHaveLength(4);
    for (const t of vaultTokens) expect(bag.findIn(t)).not.toEqual([]);
  });

  it('no Result returned through dispatch carries a secret', () => {
    expect(results.length).toBeGreaterThan(25);
    // Every channel of the contract was exercised (a new channel must join this journey).
    expect(CHANNELS.filter((c) => !results.some((r) => r.channel === c))).toEqual([]);
    expect(results.some((r) => !r.result.ok)).toBe(true);
    for (const { channel, result } of results)
      expect(leaksIn(bag, JSON.stringify(result)), channel).toEqual([]);
  });

  it('no file handed to the student (CSV, receipt, calendar) carries a secret', () => {
    expect(delivered.length).toBeGreaterThanOrEqual(2);
    for (const body of delivered) expect(leaksIn(bag, body)).toEqual([]);
  });

  it('no event emitted to the renderer carries a secret', () => {
    const names = new Set(events.map((e) => e.event));
    for (const n of [
      'sites:changed',
      'sign-in:progress',
      'sync:progress',
      'data:changed',
      'settings:changed',
    ] as const)
      expect(names).toContain(n);
    for (const { event, payload } of events)
      expect(leaksIn(bag, JSON.stringify(payload)), event).toEqual([]);
  });

  it('no log line (app, auth, sites, sync, db, demo servers) carries a secret', () => {
    const scopes = new Set(log.entries.map((e) => e.scope.split('.')[1] ?? e.scope));
    expect(log.lines.length).toBeGreaterThan(10);
    for (const s of ['demo', 'sites', 'sign-in', 'token', 'sync', 'vault'])
      expect([...scopes].join(' ')).toContain(s);
    expect(leaksIn(bag, log.text())).toEqual([]);
    const key = readFileSync(join(dataDir, 'vault.key'));
    for (const form of [key.toString('base64'), key.toString('base64url'), key.toString('hex')])
      expect(log.text().includes(form)).toBe(false);
  });

  it("the loopback receiver's page in the browser tab carries no code or token", () => {
    expect(loopbackPages).toHaveLength(2);
    for (const page of loopbackPages) {
      expect(page).toContain('You are signed in');
      expect(leaksIn(bag, page)).toEqual([]);
    }
  });

  it('files at rest hold no raw token, code, verifier or password (vault encrypted, server hashes)', async () => {
    const names = filesWhileSignedIn.map((f) => f.slice(dataDir.length));
    // The scan did read the places where the secrets live: the vault, the offline DB and both demo
    // servers' DBs.
    expect(names.some((n) => n.includes('vault') && !n.endsWith('vault.key'))).toBe(true);
    expect(names.some((n) => n.includes('offline.db'))).toBe(true);
    expect(names.some((n) => /demo-server.*demo\.db/.test(n))).toBe(true);
    expect(leaksWhileSignedIn).toEqual([]);
    // And the server did store them, hashed: the SHA-256 of a live refresh token is in a demo DB
    // file.
    const { createHash } = await import('node:crypto');
    const hashes = bag
      .of('refresh_token')
      .map((t) => createHash('sha256').update(t, 'utf8').digest('hex'));
    expect(hashes.some((h) => serverBytesWhileSignedIn.includes(h))).toBe(true);
    // After sign-out, remove and close, still nothing.
    expect(scanFiles(filesUnder(dataDir), bag)).toEqual([]);
  });
});
