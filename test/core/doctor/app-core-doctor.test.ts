/**
 * The doctor and the demo fault panel through the composition root (dispatch, like a host): a real
 * core in demo mode (the embedded demo sites on 127.0.0.1, SQLite, the Node cipher, a temp data
 * dir), a scripted browser for the student, and the faults switched through the contract's demo
 * channels.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DoctorCheckId, DoctorReport } from '../../../electron/common/doctor';
import type { EventName } from '../../../electron/common/ipc-contract';
import type { SiteSummary } from '../../../electron/common/view-models';
import { type AppCore, type AppCoreOptions } from '../../../electron/core/app-core';
import { createMemorySettingsStore } from '../../../electron/core/settings/settings-store';
import { runAuthorization } from '../../helpers/scripted-browser';
import { dispatch } from '../../../electron/core/ipc-dispatch';
import { createTestCore, invoke, caller, valueOf, type ChannelCall } from '../../helpers/test-core';

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
  ): Promise<{ site: SiteSummary; call: ChannelCall }> {
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
    const call = caller(c.handlers);
    const sites = valueOf(await call('sites:add-demo'));
    return { site: sites[0]!, call };
  }

  const check = (report: DoctorReport, id: DoctorCheckId) =>
    report.checks.find((c) => c.id === id)!;

  it('the browser could not be opened: the sign-in fails and the doctor names the browser', async () => {
    const { site, call } = await start(() => Promise.reject(new Error('no handler for http')));
    const signIn = await call('sites:sign-in', { siteId: site.id });
    expect(signIn.ok).toBe(false);
    const report = valueOf(await call('doctor:run', { siteId: site.id }));
    expect(check(report, 'browser')).toMatchObject({ status: 'problem', finding: 'browserFailed' });
    expect(report.trigger).toBe('sign-in-failed');
    expect(check(report, 'discovery').status).toBe('ok');
  });

  it('a sign-in that times out: the browser opened but no answer came back', async () => {
    const { site, call } = await start(async () => undefined, { signInTimeoutMs: 800 });
    const signIn = await call('sites:sign-in', { siteId: site.id });
    expect(!signIn.ok && signIn.error.code).toBe('sign-in-timeout');
    const report = valueOf(await call('doctor:run', { siteId: site.id }));
    expect(check(report, 'browser')).toMatchObject({
      status: 'warning',
      finding: 'browserNoAnswer',
    });
    expect(report.trigger).toBe('sign-in-timeout');
  });

  it('clock skew from the panel: the sign-in fails on the id_token and the doctor finds the clock; it recovers when switched off', async () => {
    const { site, call } = await start(student);
    // The site's clock 15 minutes behind: its id_token (exp = iat + 10 min) has expired by this
    // computer's clock.
    const set = valueOf(await call('demo:set-faults', { clockSkewMinutes: -15 }));
    expect(set).toMatchObject({ running: true, faults: { clockSkewMinutes: -15 } });
    const failed = await call('sites:sign-in', { siteId: site.id });
    expect(!failed.ok && failed.error.code).toBe('id-token-invalid');
    const report = valueOf(await call('doctor:run', { siteId: site.id }));
    expect(check(report, 'clock')).toMatchObject({
      status: 'problem',
      finding: 'clockComputerAhead',
      params: { minutes: 15 },
    });
    expect(check(report, 'browser')).toMatchObject({ status: 'ok', finding: 'browserOpened' });
    expect(report.trigger).toBe('id-token-invalid');
    valueOf(await call('demo:set-faults', { clockSkewMinutes: 0 }));
    expect(valueOf(await call('sites:sign-in', { siteId: site.id })).status).toBe('ready');
    const healthy = valueOf(await call('doctor:run', { siteId: site.id }));
    expect(healthy.checks.filter((c) => c.status === 'problem' || c.status === 'warning')).toEqual(
      [],
    );
  });

  it('offline, 503 and refresh refused from the panel: the sync degrades, the app says so, and recovers', async () => {
    const { site, call } = await start(student);
    valueOf(await call('sites:sign-in', { siteId: site.id }));
    expect(valueOf(await call('sync:now', { siteId: site.id })).outcome).toBe('completed');

    valueOf(await call('demo:set-faults', { offline: true }));
    const offline = valueOf(await call('sync:now', { siteId: site.id }));
    expect(offline.error?.code).toBe('site-unreachable');
    expect(
      events.some(
        (e) => e.event === 'network:changed' && (e.payload as { online: boolean }).online === false,
      ),
    ).toBe(true);
    const doctor = valueOf(await call('doctor:run', { siteId: site.id }));
    expect(check(doctor, 'discovery').finding).toBe('discoveryUnreachable');
    valueOf(await call('demo:set-faults', { offline: false }));
    expect(valueOf(await call('sync:now', { siteId: site.id })).outcome).toBe('completed');

    valueOf(await call('demo:set-faults', { memberApiUnavailable: true }));
    const unavailable = valueOf(await call('sync:now', { siteId: site.id }));
    expect(unavailable.error?.code).toBe('server-unavailable');
    valueOf(await call('demo:set-faults', { memberApiUnavailable: false }));

    valueOf(await call('demo:set-faults', { refreshRefused: true }));
    const refused = valueOf(await call('sync:now', { siteId: site.id }));
    expect(refused.error?.code).toBe('sign-in-needed');
    expect(valueOf(await call('sites:list')).find((s) => s.id === site.id)?.status).toBe(
      'sign-in-needed',
    );
    valueOf(await call('demo:set-faults', { refreshRefused: false }));
    expect(valueOf(await call('sites:sign-in', { siteId: site.id })).status).toBe('ready');
  });

  it('signing-key rotation from the panel: the next sign-in verifies the id_token with the new key', async () => {
    const { site, call } = await start(student);
    valueOf(await call('sites:sign-in', { siteId: site.id }));
    const rotated = valueOf(await call('demo:rotate-signing-key'));
    expect(rotated.signingKeyRotations).toBe(1);
    expect(valueOf(await call('sites:sign-in', { siteId: site.id })).status).toBe('ready');
  });

  it('the panel refuses values it does not offer, and is forbidden outside demo mode', async () => {
    await start(student);
    // Refused input: dispatch itself, untyped.
    const odd = await dispatch(core!.handlers, 'demo:set-faults', { latencyMs: 1234 });
    expect(!odd.ok && odd.error.code).toBe('invalid-input');
    const unknown = await dispatch(core!.handlers, 'demo:set-faults', {
      tokenStoreUnavailable: true,
    });
    expect(!unknown.ok && unknown.error.code).toBe('invalid-input');
    await core!.close();
    core = await createTestCore({
      dataDir: mkdtempSync(join(dataDir, 'no-demo-')),
      version: '0',
      settingsStore: createMemorySettingsStore({}),
      openExternal: async () => undefined,
    });
    const forbidden = await invoke(core.handlers, 'demo:faults', undefined);
    expect(!forbidden.ok && forbidden.error.code).toBe('forbidden');
  });

  it('the doctor for an address that could not be added (no saved site)', async () => {
    const { call } = await start(student);
    const origins = core!.demo!.origins()!;
    const report = valueOf(
      await call('doctor:run', { baseUrl: origins.demo, clientId: 'not-registered-here' }),
    );
    expect(check(report, 'client').finding).toBe('clientUnknown');
    expect(check(report, 'browser').finding).toBe('browserNoAttempt');
  });
});
