import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UpdateState } from '../../../electron/common/view-models';
import {
  createUpdateController,
  describeUpdateError,
  nextUpdateState,
  parseFeedUrl,
  updateErrorKind,
  type UpdaterEvent,
  type UpdaterPort,
} from '../../../electron/core/desktop/updates';

const NOW = '2026-01-01T00:00:00.000Z';
const step = (state: UpdateState, event: UpdaterEvent) => nextUpdateState(state, event, NOW);

describe('update state machine: transitions', () => {
  const idle: UpdateState = { status: 'idle', lastCheckedAt: null };

  it('idle → checking → idle when there is nothing new (the check time is kept)', () => {
    const checking = step(idle, { type: 'checking-for-update' });
    expect(checking).toEqual({ status: 'checking' });
    expect(step(checking, { type: 'update-not-available' })).toEqual({
      status: 'idle',
      lastCheckedAt: NOW,
    });
  });

  it('checking → available → downloading (progress grows, clamped) → ready', () => {
    let s = step(step(idle, { type: 'checking-for-update' }), {
      type: 'update-available',
      version: '1.2.0',
    });
    expect(s).toEqual({ status: 'available', version: '1.2.0' });
    s = step(s, { type: 'download-progress', percent: 12.4 });
    expect(s).toEqual({ status: 'downloading', version: '1.2.0', percent: 12 });
    // A late, smaller report never moves the bar back; nonsense is clamped.
    expect(step(s, { type: 'download-progress', percent: 3 })).toEqual({
      status: 'downloading',
      version: '1.2.0',
      percent: 12,
    });
    expect(step(s, { type: 'download-progress', percent: 250 })).toMatchObject({ percent: 100 });
    expect(step(s, { type: 'download-progress', percent: Number.NaN })).toMatchObject({
      percent: 12,
    });
    expect(step(s, { type: 'update-downloaded', version: '1.2.0' })).toEqual({
      status: 'ready',
      version: '1.2.0',
      restartQueued: false,
    });
  });

  it('errors from checking or downloading become error; a later check starts again', () => {
    expect(step({ status: 'checking' }, { type: 'error', message: 'x' })).toEqual({
      status: 'error',
      message: 'x',
      lastCheckedAt: NOW,
    });
    const failed = step(
      { status: 'downloading', version: '2', percent: 50 },
      { type: 'error', message: 'y' },
    );
    expect(failed.status).toBe('error');
    expect(step(failed, { type: 'checking-for-update' })).toEqual({ status: 'checking' });
  });

  it('a check that reaches no server is no error: idle as of the last check that got through, with the reason', () => {
    const unreachable = {
      type: 'error',
      kind: 'unreachable',
      message: 'The update server could not be reached.',
    } as const;
    const earlier = '2025-12-31T00:00:00.000Z';
    expect(nextUpdateState({ status: 'checking' }, unreachable, NOW, earlier)).toEqual({
      status: 'idle',
      lastCheckedAt: earlier,
      unreachable: { at: NOW, reason: 'The update server could not be reached.' },
    });
    // Never checked before: "not checked yet", still quiet.
    expect(step({ status: 'checking' }, unreachable)).toEqual({
      status: 'idle',
      lastCheckedAt: null,
      unreachable: { at: NOW, reason: unreachable.message },
    });
    // A download cut off half way is a failure to show; a downloaded update stays ready.
    expect(step({ status: 'downloading', version: '2', percent: 40 }, unreachable).status).toBe(
      'error',
    );
    const ready: UpdateState = { status: 'ready', version: '2', restartQueued: false };
    expect(step(ready, unreachable)).toBe(ready);
  });

  it('tells an unreachable server by Node’s codes and by Chromium’s net errors (Electron’s net module has no code)', () => {
    for (const error of [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('getaddrinfo EAI_AGAIN github.com'), { code: 'EAI_AGAIN' }),
      new Error('net::ERR_INTERNET_DISCONNECTED'),
      new Error('net::ERR_NAME_NOT_RESOLVED'),
      new Error('net::ERR_CONNECTION_TIMED_OUT'),
    ]) {
      expect(updateErrorKind(error), error.message).toBe('unreachable');
      expect(describeUpdateError(error)).toBe('The update server could not be reached.');
    }
    for (const error of [
      new Error('HttpError: 404 Not Found'),
      new Error('net::ERR_CERT_AUTHORITY_INVALID'),
      'weird',
    ]) {
      expect(updateErrorKind(error)).toBe('failed');
    }
  });

  it('a downloaded update stays ready through later checks and errors (the restart button never disappears)', () => {
    const ready: UpdateState = { status: 'ready', version: '1.2.0', restartQueued: false };
    for (const e of [
      { type: 'checking-for-update' },
      { type: 'error', message: 'offline' },
      { type: 'update-not-available' },
      { type: 'download-progress', percent: 5 },
    ] as UpdaterEvent[]) {
      expect(step(ready, e)).toBe(ready);
    }
  });

  it('events out of place change nothing', () => {
    expect(step(idle, { type: 'update-not-available' })).toBe(idle);
    expect(step(idle, { type: 'download-progress', percent: 10 })).toBe(idle);
    const downloading: UpdateState = { status: 'downloading', version: '2', percent: 10 };
    expect(step(downloading, { type: 'update-available', version: '3' })).toBe(downloading);
    expect(step(downloading, { type: 'checking-for-update' })).toBe(downloading);
  });

  it('off stays off whatever happens', () => {
    const off: UpdateState = { status: 'off', reason: 'no-feed' };
    for (const e of [
      { type: 'checking-for-update' },
      { type: 'update-available', version: '9' },
      { type: 'update-downloaded', version: '9' },
    ] as UpdaterEvent[])
      expect(step(off, e)).toBe(off);
  });
});

describe('update feed URL from configuration', () => {
  it('https, or http on loopback for a local feed', () => {
    expect(parseFeedUrl('https://updates.example.edu/learning-desktop/')).toBe(
      'https://updates.example.edu/learning-desktop/',
    );
    expect(parseFeedUrl('http://127.0.0.1:8080/feed')).toBe('http://127.0.0.1:8080/feed');
  });
  it('none, blank, plain http elsewhere, other schemes and URLs with credentials are refused (updates stay off)', () => {
    for (const v of [
      undefined,
      '',
      '   ',
      'http://updates.example.edu/',
      'file:///tmp/feed',
      'ftp://x/',
      'not a url',
      'https://user:pw@updates.example.edu/',
    ])
      expect(parseFeedUrl(v)).toBeNull();
  });
});

/**
 * The controller with an in-memory updater: electron-updater itself needs a packaged Electron app,
 * so the port (what the host adapts it to) is played here, emitting the events electron-updater
 * emits.
 */
function fakeUpdater(
  script: {
    available?: string | null;
    failCheck?: Error;
    failDownload?: Error;
    inactive?: boolean;
  } = {},
) {
  const listeners = new Set<(e: UpdaterEvent) => void>();
  const emit = (e: UpdaterEvent) => listeners.forEach((l) => l(e));
  const calls: string[] = [];
  const port: UpdaterPort = {
    async checkForUpdates() {
      calls.push('check');
      // electron-updater's answer where it cannot update this installation: null, and no event at
      // all.
      if (script.inactive) return null;
      emit({ type: 'checking-for-update' });
      if (script.failCheck) throw script.failCheck;
      if (script.available) emit({ type: 'update-available', version: script.available });
      else emit({ type: 'update-not-available' });
    },
    async downloadUpdate() {
      calls.push('download');
      if (script.failDownload) throw script.failDownload;
      emit({ type: 'download-progress', percent: 40 });
      emit({ type: 'download-progress', percent: 100 });
      emit({ type: 'update-downloaded', version: script.available! });
    },
    quitAndInstall() {
      calls.push('install');
    },
  };
  return {
    port,
    calls,
    subscribe: (l: (e: UpdaterEvent) => void) => (listeners.add(l), () => listeners.delete(l)),
  };
}

function activity() {
  let busy = 0;
  const idle = new Set<() => void>();
  return {
    start: () => void busy++,
    end: () => {
      busy--;
      if (busy === 0) idle.forEach((l) => l());
    },
    isBusy: () => busy > 0,
    onIdle: (l: () => void) => (idle.add(l), () => idle.delete(l)),
  };
}

/**
 * A controller over a fake updater that never checks on its own: each test checks when it means to.
 */
function manualController(
  u: ReturnType<typeof fakeUpdater>,
  a: ReturnType<typeof activity>,
  more: Partial<Parameters<typeof createUpdateController>[0]> = {},
) {
  return createUpdateController({
    updater: u.port,
    subscribe: u.subscribe,
    isBusy: a.isBusy,
    onIdle: a.onIdle,
    onChange: () => {},
    firstCheckDelayMs: 1e9,
    ...more,
  });
}

describe('update controller: policy', () => {
  afterEach(() => vi.useRealTimers());

  it('without an updater it is off, says why, and checks nothing', async () => {
    const changes: UpdateState[] = [];
    const a = activity();
    const c = createUpdateController({
      updater: null,
      offReason: 'no-feed',
      isBusy: a.isBusy,
      onIdle: a.onIdle,
      onChange: (s) => changes.push(s),
    });
    expect(c.state()).toEqual({ status: 'off', reason: 'no-feed' });
    expect(await c.check()).toEqual({ status: 'off', reason: 'no-feed' });
    expect(c.restart()).toEqual({ status: 'off', reason: 'no-feed' });
    expect(changes).toEqual([]);
    c.close();
  });

  it('an updater that answers a check with no event cannot update this installation: off, saying so, not checking for ever', async () => {
    const u = fakeUpdater({ inactive: true });
    const changes: UpdateState[] = [];
    const a = activity();
    const c = createUpdateController({
      updater: u.port,
      subscribe: u.subscribe,
      isBusy: a.isBusy,
      onIdle: a.onIdle,
      onChange: (s) => changes.push(s),
    });
    expect(await c.check()).toEqual({ status: 'off', reason: 'unsupported' });
    expect(changes.map((s) => s.status)).toEqual(['checking', 'off']);
    // Off stays off: no further check reaches the updater.
    await c.check();
    expect(u.calls).toEqual(['check']);
    c.close();
  });

  it('checks shortly after start and then every interval', async () => {
    vi.useFakeTimers();
    const u = fakeUpdater();
    const a = activity();
    const c = createUpdateController({
      updater: u.port,
      subscribe: u.subscribe,
      isBusy: a.isBusy,
      onIdle: a.onIdle,
      onChange: () => {},
      firstCheckDelayMs: 1000,
      intervalMs: 60_000,
    });
    expect(u.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(u.calls).toEqual(['check']);
    await vi.advanceTimersByTimeAsync(60_000 * 2);
    expect(u.calls).toEqual(['check', 'check', 'check']);
    c.close();
    await vi.advanceTimersByTimeAsync(60_000 * 2);
    expect(u.calls).toHaveLength(3);
  });

  it('downloads a found update in the background and reports each state once', async () => {
    const u = fakeUpdater({ available: '1.3.0' });
    const a = activity();
    const changes: string[] = [];
    const c = manualController(u, a, {
      onChange: (s) =>
        changes.push(s.status === 'downloading' ? `downloading ${s.percent}` : s.status),
    });
    await c.check();
    await vi.waitFor(() =>
      expect(c.state()).toEqual({ status: 'ready', version: '1.3.0', restartQueued: false }),
    );
    expect(u.calls).toEqual(['check', 'download']);
    expect(changes).toEqual([
      'checking',
      'available',
      'downloading 40',
      'downloading 100',
      'ready',
    ]);
    // Once ready, a check does not start another download.
    await c.check();
    expect(u.calls).toEqual(['check', 'download']);
    c.close();
  });

  it('restart installs at once when nothing is running', async () => {
    const u = fakeUpdater({ available: '1.3.0' });
    const a = activity();
    const c = manualController(u, a);
    await c.check();
    await vi.waitFor(() => expect(c.state().status).toBe('ready'));
    c.restart();
    expect(u.calls.at(-1)).toBe('install');
    c.close();
  });

  it('never restarts during a sync or a sign-out: the restart waits for the last one to end', async () => {
    const u = fakeUpdater({ available: '1.3.0' });
    const a = activity();
    const c = manualController(u, a);
    await c.check();
    await vi.waitFor(() => expect(c.state().status).toBe('ready'));
    a.start(); // a sync
    a.start(); // a sign-out
    expect(c.restart()).toEqual({ status: 'ready', version: '1.3.0', restartQueued: true });
    expect(u.calls).not.toContain('install');
    a.end();
    expect(u.calls).not.toContain('install');
    a.end();
    expect(u.calls.at(-1)).toBe('install');
    c.close();
  });

  it('restart before anything was downloaded does nothing', () => {
    const u = fakeUpdater();
    const a = activity();
    const c = manualController(u, a);
    expect(c.restart()).toEqual({ status: 'idle', lastCheckedAt: null });
    expect(u.calls).toEqual([]);
    c.close();
  });

  it("a failed check or download is an error in plain words, without the updater's details", async () => {
    const secretish = Object.assign(
      new Error('getaddrinfo ENOTFOUND updates.example.edu?token=abc'),
      { code: 'ENOTFOUND' },
    );
    const u = fakeUpdater({ failCheck: secretish });
    const a = activity();
    const c = manualController(u, a, { now: () => Date.parse(NOW) });
    // Not reached: quiet, as up to date as the last check that got through (none yet), with the
    // reason.
    expect(await c.check()).toEqual({
      status: 'idle',
      lastCheckedAt: null,
      unreachable: { at: NOW, reason: 'The update server could not be reached.' },
    });
    c.close();
    const d = fakeUpdater({
      available: '2.0.0',
      failDownload: Object.assign(new Error('sha512 checksum mismatch, expected abc'), {
        code: 'ERR_CHECKSUM_MISMATCH',
      }),
    });
    const c2 = manualController(d, a);
    await c2.check();
    await vi.waitFor(() =>
      expect(c2.state()).toMatchObject({
        status: 'error',
        message:
          'The downloaded update did not match what its release published, so it was deleted.',
      }),
    );
    c2.close();
  });

  it("electron-updater's own error events read the same way (electron/main/updater.ts passes them through describeUpdateError)", () => {
    // The errors electron-updater emits: a network failure, a bad signature (Windows), a checksum
    // mismatch, and anything else, whose message may quote the feed URL with a token or a path on
    // disk.
    const cases: [Error, string][] = [
      [
        Object.assign(
          new Error('net::ERR_CONNECTION_REFUSED https://u.example/latest.yml?token=abc'),
          { code: 'ECONNREFUSED' },
        ),
        'The update server could not be reached.',
      ],
      [
        Object.assign(new Error('New version is not signed by the application owner'), {
          code: 'ERR_UPDATER_INVALID_SIGNATURE',
        }),
        'The downloaded update did not match what its release published, so it was deleted.',
      ],
      [
        new Error('sha512 checksum mismatch, expected abc, got def'),
        'The downloaded update did not match what its release published, so it was deleted.',
      ],
      [
        new Error(
          'Cannot parse update info from latest.yml in https://u.example/?token=abc, /home/s/.cache',
        ),
        'The update could not be checked or downloaded.',
      ],
    ];
    for (const [error, message] of cases) {
      expect(describeUpdateError(error)).toBe(message);
      expect(describeUpdateError(error)).not.toMatch(/token|https?:|\/home/);
    }
  });
});
