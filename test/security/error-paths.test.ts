/**
 * Failures with secrets around: the site echoes the token back (in an error page, a GraphQL error,
 * an OAuth error_description), the refresh token is refused, a handler throws with a token in its
 * message. Whatever the site or the code does, the Results, the events and the log lines must not
 * carry the secret.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EventName, IpcHandlers } from '../../electron/common/ipc-contract';
import type { Result } from '../../electron/common/result';
import type {
  NotificationsView,
  SiteSummary,
  SyncRunSummary,
  SyncStatus,
} from '../../electron/common/view-models';
import type { AppCore } from '../../electron/core/app-core';
import { CoreError } from '../../electron/core/errors';
import { dispatch } from '../../electron/core/ipc-dispatch';
import { createEmbeddedServer, type EmbeddedServer } from '../../embedded-server/index';
import { ScriptedBrowser } from '../helpers/scripted-browser';
import {
  captureLogger,
  createRecordingFetch,
  filesUnder,
  leaksIn,
  scanFiles,
  SecretBag,
} from './helpers/canary';
import { createTestCore } from '../helpers/test-core';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

describe('error paths with secrets around (a real core against a real site, faults injected on the wire)', () => {
  const bag = new SecretBag();
  const wire = createRecordingFetch(bag);
  const log = captureLogger();
  const results: { channel: string; result: Result<unknown> }[] = [];
  const events: { event: EventName; payload: unknown }[] = [];
  let offsetMs = 0;
  let server: EmbeddedServer;
  let dataDir: string;
  let core: AppCore;
  let site: SiteSummary;

  const call = async (channel: string, input?: unknown): Promise<Result<unknown>> => {
    const result = await dispatch(core.handlers, channel, input);
    results.push({ channel, result });
    return result;
  };
  const valueOf = <T>(r: Result<unknown>): T => {
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    return r.value as T;
  };
  /** The live access token (the last one the app sent). */
  const accessToken = () => wire.lastBearer!;
  const refreshToken = () => bag.of('refresh_token').at(-1)!;
  /**
   * Everything the renderer got (Results, events) and every log line since the start of the current
   * test.
   */
  let mark = { results: 0, events: 0, lines: 0 };
  const seen = () =>
    JSON.stringify(results.slice(mark.results)) +
    JSON.stringify(events.slice(mark.events)) +
    log.lines.slice(mark.lines).join('\n');
  beforeEach(async () => {
    // Let any sync already running (the core's startup sync, a network-back sync) finish before a
    // fault is set.
    if (core && site) await dispatch(core.handlers, 'sync:now', { siteId: site.id });
    mark = { results: results.length, events: events.length, lines: log.lines.length };
  });
  const signIn = async () => {
    expect(valueOf<SiteSummary>(await call('sites:sign-in', { siteId: site.id }))).toMatchObject({
      status: 'ready',
    });
    await call('sync:now', { siteId: site.id });
  };

  beforeAll(async () => {
    server = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' });
    dataDir = mkdtempSync(join(tmpdir(), 'ld-sec-err-'));
    core = await createTestCore({
      dataDir,
      version: '0.0.0-security',
      signInTimeoutMs: 20_000,
      fetch: wire.fetch,
      logger: log.logger,
      clock: { now: () => Date.now() + offsetMs },
      openExternal: async (url) => {
        const redirect = new URL(url).searchParams.get('redirect_uri')!;
        void new ScriptedBrowser().authorize(url, { stopAt: redirect }).then(async (callback) => {
          bag.add('code', new URL(callback).searchParams.get('code'));
          await (await fetch(callback)).text();
        });
      },
    });
    core.onEvent((event, payload) => events.push({ event, payload: structuredClone(payload) }));
    site = valueOf<SiteSummary>(
      await call('sites:add', { baseUrl: server.url, clientId: 'demo-desktop' }),
    );
    await signIn();
  }, 60_000);

  afterAll(async () => {
    await core?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the canaries are live: signed in, tokens seen on the wire', () => {
    expect(bag.of('access_token').length).toBeGreaterThan(0);
    expect(bag.of('refresh_token').length).toBeGreaterThan(0);
    expect(bag.of('code').length).toBeGreaterThan(0);
  });

  it('a site error page (HTTP 500) that echoes the bearer token: the sync fails in plain words, nothing leaks', async () => {
    const token = accessToken();
    wire.rewrite = (req) =>
      req.url.endsWith('/member/graphql')
        ? new Response(
            `<h1>Internal error</h1><pre>Authorization: ${req.authorization}\nrequest token ${token}\naccess_token=${token}</pre>`,
            {
              status: 500,
              headers: { 'content-type': 'text/html' },
            },
          )
        : undefined;
    try {
      const summary = valueOf<SyncRunSummary>(await call('sync:now', { siteId: site.id }));
      expect(summary.outcome).toBe('failed');
      expect(summary.error?.code).toBe('server-error');
      valueOf<SyncStatus>(await call('sync:status', { siteId: site.id }));
    } finally {
      wire.rewrite = null;
    }
    expect(leaksIn(bag, seen())).toEqual([]);
  });

  it('a GraphQL error whose message contains the token fails the sync without showing it', async () => {
    const token = accessToken();
    wire.rewrite = (req) =>
      req.url.endsWith('/member/graphql')
        ? json(200, {
            data: null,
            errors: [
              { message: `token ${token} is not allowed here`, extensions: { code: 'INTERNAL' } },
            ],
          })
        : undefined;
    try {
      const summary = valueOf<SyncRunSummary>(await call('sync:now', { siteId: site.id }));
      expect(summary.outcome).toBe('failed');
      valueOf<SyncStatus>(await call('sync:status', { siteId: site.id }));
    } finally {
      wire.rewrite = null;
    }
    expect(leaksIn(bag, seen())).toEqual([]);
  });

  it('a queued change refused with a GraphQL error echoing the token: the failed change shown to the user carries no token', async () => {
    const token = accessToken();
    const notifications = valueOf<NotificationsView>(
      await call('notifications:list', { siteId: site.id }),
    );
    wire.rewrite = (req) =>
      req.url.endsWith('/member/graphql') && req.body.includes('mutation')
        ? json(200, {
            data: null,
            errors: [
              { message: `refused for bearer ${token}`, extensions: { code: 'BAD_USER_INPUT' } },
            ],
          })
        : undefined;
    try {
      expect((await call('notifications:mark-all-read', { siteId: site.id })).ok).toBe(true);
      // Replay runs in the background; the sync runs the queue first (and waits its turn).
      await call('sync:now', { siteId: site.id });
      const status = valueOf<SyncStatus>(await call('sync:status', { siteId: site.id }));
      expect(status.failedChanges.length).toBeGreaterThan(0);
    } finally {
      wire.rewrite = null;
    }
    expect(notifications.items.length).toBeGreaterThan(0);
    expect(leaksIn(bag, seen())).toEqual([]);
  });

  // outbox-replay.ts redacts the site's GraphQL error message before storing it as the refused
  // change's reason.
  it("the refused change's reason stored at rest (offline.db outbox.last_error) carries no token", () => {
    const files = filesUnder(dataDir).filter((f) => f.includes('offline.db'));
    expect(files.length).toBeGreaterThan(0);
    expect(scanFiles(files, bag)).toEqual([]);
  });

  // A site that names the token as the missing "scope" in a GraphQL error's extensions
  // (transport.ts `missingScopesOf` takes extensions.scope / requiredScope / required_scope /
  // missingScope as is).
  let syncRunsLeak: string[] = [];
  /** Syncs until a run completes (a run started while a fault was set may still be finishing). */
  const syncClean = async () => {
    for (let i = 0; i < 3; i++)
      if (
        valueOf<SyncRunSummary>(await call('sync:now', { siteId: site.id })).outcome === 'completed'
      )
        return true;
    return false;
  };

  it('a GraphQL scope refusal naming the token as its "scope": not in sites.json, sites:changed or the Result', async () => {
    const token = accessToken();
    wire.rewrite = (req) =>
      req.url.endsWith('/member/graphql') && req.body.includes('payments')
        ? json(200, {
            data: null,
            errors: [{ message: 'Forbidden', extensions: { code: 'FORBIDDEN', scope: token } }],
          })
        : undefined;
    let summary: SyncRunSummary;
    try {
      summary = valueOf<SyncRunSummary>(await call('sync:now', { siteId: site.id }));
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      wire.rewrite = null;
    }
    // The refusal was read (the run failed on it) but its "scope" was not taken: only scope-shaped
    // values are.
    expect(summary.outcome).toBe('failed');
    expect(summary.error?.code).toBe('server-error');
    expect(summary.missingScopes).toEqual([]);
    const sitesJson = filesUnder(dataDir).filter((f) => f.endsWith('sites.json'));
    const atRest = scanFiles(sitesJson, bag);
    // Read the rows: the check is on the stored value, not on a raw file scan.
    const db = new Database(join(dataDir, 'offline.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT missing_scopes FROM sync_runs').all() as {
        missing_scopes: string;
      }[];
      expect(rows.length).toBeGreaterThan(0);
      syncRunsLeak = leaksIn(bag, JSON.stringify(rows));
    } finally {
      db.close();
    }
    const seenHere = seen();
    // A clean sync resets the missing scopes, so the tests after this one start clean.
    expect(await syncClean()).toBe(true);
    expect(sitesJson.length).toBe(1);
    expect(atRest).toEqual([]);
    expect(leaksIn(bag, seenHere)).toEqual([]);
  });

  // transport.ts `missingScopesOf` keeps only values of the scope shape, so the stored list carries
  // no token.
  it('the scope refusal naming the token is not stored in offline.db (sync_runs.missing_scopes)', () => {
    expect(syncRunsLeak).toEqual([]);
  });

  it('a 403 insufficient_scope challenge naming the token as its scope: not in events, sites.json or the Result', async () => {
    const token = accessToken();
    wire.rewrite = (req) =>
      req.url.endsWith('/member/graphql')
        ? new Response(JSON.stringify({ error: 'insufficient_scope' }), {
            status: 403,
            headers: {
              'content-type': 'application/json',
              'www-authenticate': `Bearer error="insufficient_scope", scope="account:read ${token}"`,
            },
          })
        : undefined;
    try {
      const summary = valueOf<SyncRunSummary>(await call('sync:now', { siteId: site.id }));
      expect(summary.error?.code).toBe('insufficient-scope');
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      wire.rewrite = null;
    }
    const sitesJson = filesUnder(dataDir).filter((f) => f.endsWith('sites.json'));
    const atRest = scanFiles(sitesJson, bag);
    // The real scope name did get through (the challenge was read).
    const listed = valueOf<SiteSummary[]>(await call('sites:list'))[0]!;
    expect(listed.missingScopes).toContain('account:read');
    const seenHere = seen();
    expect(await syncClean()).toBe(true);
    expect(sitesJson.length).toBe(1);
    expect(atRest).toEqual([]);
    expect(leaksIn(bag, seenHere)).toEqual([]);
  });

  it('a token endpoint error that echoes the refresh token (invalid_grant): sign-in-needed, no token anywhere', async () => {
    const rt = refreshToken();
    wire.rewrite = (req) =>
      req.url.endsWith('/api/oauth/token')
        ? json(400, {
            error: 'invalid_grant',
            error_description: `refresh token ${rt} was revoked; refresh_token=${rt}`,
          })
        : undefined;
    offsetMs += 3 * 60 * 60 * 1000;
    try {
      const summary = valueOf<SyncRunSummary>(await call('sync:now', { siteId: site.id }));
      expect(summary.error?.code).toBe('sign-in-needed');
      expect(valueOf<SiteSummary[]>(await call('sites:list'))[0]?.status).toBe('sign-in-needed');
    } finally {
      wire.rewrite = null;
    }
    // The refresh really was attempted with the canary.
    expect(wire.tokenExchanges.at(-1)?.requestBody).toContain(encodeURIComponent(rt));
    expect(leaksIn(bag, seen())).toEqual([]);
  });

  it("a real invalid_grant (pair revoked at the site behind the app's back): sign-in-needed, no token anywhere", async () => {
    offsetMs = 0;
    await signIn();
    const rt = refreshToken();
    const res = await fetch(`${server.url}/api/oauth/revoke`, {
      method: 'POST',
      body: new URLSearchParams({
        token: rt,
        token_type_hint: 'refresh_token',
        client_id: 'demo-desktop',
      }),
    });
    expect(res.status).toBe(200);
    offsetMs += 3 * 60 * 60 * 1000;
    const summary = valueOf<SyncRunSummary>(await call('sync:now', { siteId: site.id }));
    expect(summary.error?.code).toBe('sign-in-needed');
    expect(JSON.parse(wire.tokenExchanges.at(-1)!.responseBody)).toMatchObject({
      error: 'invalid_grant',
    });
    expect(leaksIn(bag, seen())).toEqual([]);
  });

  it('a code exchange refused with an error_description echoing the code and verifier: the sign-in fails without them', async () => {
    wire.rewrite = (req) => {
      if (!req.url.endsWith('/api/oauth/token') || !req.body.includes('authorization_code'))
        return undefined;
      const form = new URLSearchParams(req.body);
      return json(400, {
        error: 'invalid_grant',
        error_description: `code ${form.get('code')} does not match verifier ${form.get('code_verifier')}`,
      });
    };
    try {
      const r = await call('sites:sign-in', { siteId: site.id });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('sign-in-failed');
    } finally {
      wire.rewrite = null;
    }
    expect(bag.of('code_verifier').length).toBeGreaterThan(1);
    expect(leaksIn(bag, seen())).toEqual([]);
  });

  it('a sign-in callback whose error_description echoes a secret: the Result does not show it', async () => {
    const canary = `canary-${'x'.repeat(30)}`;
    bag.add('other', canary);
    const handlers = {
      ...core.handlers,
      'sites:sign-in': async () => {
        const { validateCallback } = await import('../../electron/core/auth/sign-in');
        validateCallback(
          new URLSearchParams({
            state: 's',
            error: 'server_error',
            error_description: `code=${canary} and ${canary}`,
            code: canary,
          }),
          {
            state: 's',
            issuer: 'x',
            issParameterSupported: false,
          },
        );
        return { ok: true as const, value: site };
      },
    } as IpcHandlers;
    const r = await dispatch(handlers, 'sites:sign-in', { siteId: site.id });
    results.push({ channel: 'sites:sign-in (callback)', result: r });
    expect(r.ok).toBe(false);
    expect(leaksIn(bag, JSON.stringify(r))).toEqual([]);
  });

  it('a handler that throws with a token in its message (plain Error, CoreError cause): masked Result, masked host line', async () => {
    const token = accessToken();
    const hostLines: string[] = [];
    const thrower = (error: unknown) =>
      ({
        ...core.handlers,
        'sync:status': async () => {
          throw error;
        },
      }) as IpcHandlers;
    // What both hosts pass as onUnexpected (electron/main/ipc.ts, electron/browser-host/server.ts).
    const hostOnUnexpected = (c: string, e: unknown) =>
      hostLines.push(`ipc: ${c} failed unexpectedly: ${e instanceof Error ? e.name : 'error'}`);
    for (const error of [
      new Error(`token ${token} exploded`),
      new TypeError(`Bearer ${token}`),
      new CoreError('server-error', 'The site answered with an error.', undefined, {
        cause: new Error(`echo ${token}`),
      }),
      { accessToken: token },
      `raw ${token}`,
    ]) {
      const r = await dispatch(
        thrower(error),
        'sync:status',
        { siteId: site.id },
        hostOnUnexpected,
      );
      results.push({ channel: 'sync:status (throws)', result: r });
      expect(r.ok).toBe(false);
      // The core's logger too, when given the error as data.
      log.logger.error('handler failed', { error });
    }
    expect(hostLines.length).toBe(4);
    expect(leaksIn(bag, hostLines.join('\n'))).toEqual([]);
    expect(leaksIn(bag, seen())).toEqual([]);
  });
});
