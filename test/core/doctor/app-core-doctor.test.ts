/**
 * The doctor and the demo fault panel through the composition root (dispatch, like a host): a real core in demo mode
 * (the embedded demo sites on 127.0.0.1, SQLite, the Node cipher, a temp data dir), a scripted browser for the
 * student, and the faults switched through the contract's demo channels.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DemoFaultsView } from '../../../electron/common/demo-faults';
import type { DoctorCheckId, DoctorReport } from '../../../electron/common/doctor';
import type { EventName } from '../../../electron/common/ipc-contract';
import type { Result } from '../../../electron/common/result';
import type { SiteSummary, SyncRunSummary } from '../../../electron/common/view-models';
import { type AppCore, type AppCoreOptions } from '../../../electron/core/app-core';
import { dispatch } from '../../../electron/core/ipc-dispatch';
import { createMemorySettingsStore } from '../../../electron/core/settings/settings-store';
import { runAuthorization } from '../../helpers/scripted-browser';
import { createTestCore } from '../../helpers/test-core';

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

describe('sign-in doctor and demo faults through the app core', () => {
  let dataDir: string;
  let core: AppCore | null = null;
  const events: { event: EventName; payload: unknown }[] = [];

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'ld-doctor-'));
    events.length = 0;
  });
  afterEach(async () => {
    await core?.close();
    core = null;
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The "system browser" signs in as the demo student and approves, unless told otherwise. */
  const student: AppCoreOptions['openExternal'] = async (url) => {
    const redirect = new URL(url).searchParams.get('redirect_uri')!;
    void runAuthorization(url, { stopAt: redirect, decision: 'approve' })
      .then((callback) => fetch(callback).then((r) => r.text()))
      .catch(() => undefined);
  };

  async function start(
    openExternal: AppCoreOptions['openExternal'],
    extra: Partial<AppCoreOptions> = {},
  ): Promise<{ site: SiteSummary; call: (c: string, i?: unknown) => Promise<Result<unknown>> }> {
    core = await createTestCore({
      dataDir,
      demo: { enabled: true },
      signInTimeoutMs: 20_000,
      env: {},
      openExternal,
      ...extra,
    });
    core.onEvent((event, payload) => events.push({ event, payload }));
    const c = core;
    const call = (channel: string, input?: unknown) => dispatch(c.handlers, channel, input);
    const sites = value(await call('sites:add-demo')) as SiteSummary[];
    return { site: sites[0]!, call };
  }

  const check = (report: DoctorReport, id: DoctorCheckId) =>
    report.checks.find((c) => c.id === id)!;

  it('the browser could not be opened: the sign-in fails and the doctor names the browser', async () => {
    const { site, call } = await start(() => Promise.reject(new Error('no handler for http')));
    const signIn = await call('sites:sign-in', { siteId: site.id });
    expect(signIn.ok).toBe(false);
    const report = value(await call('doctor:run', { siteId: site.id })) as DoctorReport;
    expect(check(report, 'browser')).toMatchObject({ status: 'problem', finding: 'browserFailed' });
    expect(report.trigger).toBe('sign-in-failed');
    expect(check(report, 'discovery').status).toBe('ok');
  });

  it('a sign-in that times out: the browser opened but no answer came back', async () => {
    const { site, call } = await start(async () => undefined, { signInTimeoutMs: 800 });
    const signIn = await call('sites:sign-in', { siteId: site.id });
    expect(!signIn.ok && signIn.error.code).toBe('sign-in-timeout');
    const report = value(await call('doctor:run', { siteId: site.id })) as DoctorReport;
    expect(check(report, 'browser')).toMatchObject({
      status: 'warning',
      finding: 'browserNoAnswer',
    });
    expect(report.trigger).toBe('sign-in-timeout');
  });

  it('clock skew from the panel: the sign-in fails on the id_token and the doctor finds the clock; it recovers when switched off', async () => {
    const { site, call } = await start(student);
    // The site's clock 15 minutes behind: its id_token (exp = iat + 10 min) has expired by this computer's clock.
    const set = value(await call('demo:set-faults', { clockSkewMinutes: -15 })) as DemoFaultsView;
    expect(set).toMatchObject({ running: true, faults: { clockSkewMinutes: -15 } });
    const failed = await call('sites:sign-in', { siteId: site.id });
    expect(!failed.ok && failed.error.code).toBe('id-token-invalid');
    const report = value(await call('doctor:run', { siteId: site.id })) as DoctorReport;
    expect(check(report, 'clock')).toMatchObject({
      status: 'problem',
      finding: 'clockComputerAhead',
      params: { minutes: 15 },
    });
    expect(check(report, 'browser')).toMatchObject({ status: 'ok', finding: 'browserOpened' });
    expect(report.trigger).toBe('id-token-invalid');
    value(await call('demo:set-faults', { clockSkewMinutes: 0 }));
    expect((value(await call('sites:sign-in', { siteId: site.id })) as SiteSummary).status).toBe(
      'ready',
    );
    const healthy = value(await call('doctor:run', { siteId: site.id })) as DoctorReport;
    expect(healthy.checks.filter((c) => c.status === 'problem' || c.status === 'warning')).toEqual(
      [],
    );
  });

  it('offline, 503 and refresh refused from the panel: the sync degrades, the app says so, and recovers', async () => {
    const { site, call } = await start(student);
    value(await call('sites:sign-in', { siteId: site.id }));
    expect((value(await call('sync:now', { siteId: site.id })) as SyncRunSummary).outcome).toBe(
      'completed',
    );

    value(await call('demo:set-faults', { offline: true }));
    const offline = value(await call('sync:now', { siteId: site.id })) as SyncRunSummary;
    expect(offline.error?.code).toBe('site-unreachable');
    expect(
      events.some(
        (e) => e.event === 'network:changed' && (e.payload as { online: boolean }).online === false,
      ),
    ).toBe(true);
    const doctor = value(await call('doctor:run', { siteId: site.id })) as DoctorReport;
    expect(check(doctor, 'discovery').finding).toBe('discoveryUnreachable');
    value(await call('demo:set-faults', { offline: false }));
    expect((value(await call('sync:now', { siteId: site.id })) as SyncRunSummary).outcome).toBe(
      'completed',
    );

    value(await call('demo:set-faults', { memberApiUnavailable: true }));
    const unavailable = value(await call('sync:now', { siteId: site.id })) as SyncRunSummary;
    expect(unavailable.error?.code).toBe('server-unavailable');
    value(await call('demo:set-faults', { memberApiUnavailable: false }));

    value(await call('demo:set-faults', { refreshRefused: true }));
    const refused = value(await call('sync:now', { siteId: site.id })) as SyncRunSummary;
    expect(refused.error?.code).toBe('sign-in-needed');
    expect(
      (value(await call('sites:list')) as SiteSummary[]).find((s) => s.id === site.id)?.status,
    ).toBe('sign-in-needed');
    value(await call('demo:set-faults', { refreshRefused: false }));
    expect((value(await call('sites:sign-in', { siteId: site.id })) as SiteSummary).status).toBe(
      'ready',
    );
  });

  it('signing-key rotation from the panel: the next sign-in verifies the id_token with the new key', async () => {
    const { site, call } = await start(student);
    value(await call('sites:sign-in', { siteId: site.id }));
    const rotated = value(await call('demo:rotate-signing-key')) as DemoFaultsView;
    expect(rotated.signingKeyRotations).toBe(1);
    expect((value(await call('sites:sign-in', { siteId: site.id })) as SiteSummary).status).toBe(
      'ready',
    );
  });

  it('the panel refuses values it does not offer, and is forbidden outside demo mode', async () => {
    const { call } = await start(student);
    const odd = await call('demo:set-faults', { latencyMs: 1234 });
    expect(!odd.ok && odd.error.code).toBe('invalid-input');
    const unknown = await call('demo:set-faults', { tokenStoreUnavailable: true });
    expect(!unknown.ok && unknown.error.code).toBe('invalid-input');
    await core!.close();
    core = await createTestCore({
      dataDir: mkdtempSync(join(dataDir, 'no-demo-')),
      version: '0',
      settingsStore: createMemorySettingsStore({}),
      openExternal: async () => undefined,
    });
    const forbidden = await dispatch(core.handlers, 'demo:faults', undefined);
    expect(!forbidden.ok && forbidden.error.code).toBe('forbidden');
  });

  it('the doctor for an address that could not be added (no saved site)', async () => {
    const { call } = await start(student);
    const origins = core!.demo!.origins()!;
    const report = value(
      await call('doctor:run', { baseUrl: origins.demo, clientId: 'not-registered-here' }),
    ) as DoctorReport;
    expect(check(report, 'client').finding).toBe('clientUnknown');
    expect(check(report, 'browser').finding).toBe('browserNoAttempt');
  });
});
