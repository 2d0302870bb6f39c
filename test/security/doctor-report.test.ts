/**
 * The sign-in doctor's report is meant to be copied into a support request, so it must carry no
 * secret: one real run of the core in demo mode with a confidential client (its client secret), two
 * sign-ins and a failed one (codes, verifiers, tokens, a pair issued then discarded), a proxy in
 * the environment with a password, and the browser host's launch secret. Every secret is read off
 * the wire (test/security/helpers/canary.ts), and the test proves each was live. Then the report,
 * as the core returns it and as the student copies it (the renderer's own text builder with the
 * real en and zh-TW strings), is searched for all of them.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import i18next from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../electron/common/doctor';
import type { Result } from '../../electron/common/result';
import type { SiteSummary } from '../../electron/common/view-models';
import { startBrowserHost, type BrowserHost } from '../../electron/browser-host/server';
import { dispatch } from '../../electron/core/ipc-dispatch';
import { reportText } from '../../renderer/src/features/sites/doctor-text';
import { ScriptedBrowser } from '../helpers/scripted-browser';
import { createRecordingFetch, leaksIn, SecretBag } from './helpers/canary';
import { createTestCore } from '../helpers/test-core';
import { openSession } from '../browser-host/http';

const CONFIDENTIAL = { clientId: 'demo-desktop-confidential', clientSecret: 'demo-desktop-secret' };
const PROXY_PASSWORD = 'proxy-pass-canary-1234';

describe('the sign-in doctor report carries no secret (report and copied text)', () => {
  const bag = new SecretBag();
  const wire = createRecordingFetch(bag);
  let dir: string;
  let host: BrowserHost;
  const reports: DoctorReport[] = [];

  const call = async <T>(channel: string, input?: unknown): Promise<Result<T>> =>
    dispatch(host.core.handlers, channel, input) as Promise<Result<T>>;
  const value = async <T>(channel: string, input?: unknown): Promise<T> => {
    const r = await call<T>(channel, input);
    if (!r.ok) throw new Error(`${channel}: ${r.error.code} ${r.error.message}`);
    return r.value;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ld-sec-doctor-'));
    const rendererDir = join(dir, 'renderer');
    mkdirSync(rendererDir, { recursive: true });
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
    host = await startBrowserHost({
      rendererDir,
      createCore: () =>
        createTestCore({
          dataDir: join(dir, 'data'),
          version: '0.0.0-security',
          demo: { enabled: true },
          signInTimeoutMs: 20_000,
          fetch: wire.fetch,
          env: {
            HTTPS_PROXY: `http://student:${PROXY_PASSWORD}@proxy.example:3128`,
            HTTP_PROXY: `http://student:${PROXY_PASSWORD}@proxy.example:3128`,
          },
          // The student's browser: signs in and approves; the code in the callback is a canary.
          openExternal: async (url) => {
            const redirect = new URL(url).searchParams.get('redirect_uri')!;
            void new ScriptedBrowser()
              .authorize(url, { stopAt: redirect })
              .then(async (callback) => {
                bag.add('code', new URL(callback).searchParams.get('code'));
                await (await fetch(callback)).text();
              })
              .catch(() => undefined);
          },
        }),
    });
    // The host's credentials: a launch token, and the cookie and page key it opens.
    const launchUrl = host.launchUrl();
    bag.add('host_secret', new URL(launchUrl).searchParams.get('launch'));
    const session = await openSession(launchUrl);
    bag.add('host_secret', session.cookie.split('=')[1]!);
    bag.add('host_secret', session.key);
    bag.add('client_secret', CONFIDENTIAL.clientSecret);
    bag.add('password', PROXY_PASSWORD);
    bag.add('password', 'student-demo');
  }, 60_000);

  afterAll(async () => {
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the doctor after sign-ins, a refresh and a failed sign-in', async () => {
    const [demo] = await value<SiteSummary[]>('sites:add-demo');
    const confidential = await value<SiteSummary>('sites:add', {
      baseUrl: demo!.baseUrl,
      ...CONFIDENTIAL,
    });
    expect(await value<SiteSummary>('sites:sign-in', { siteId: demo!.id })).toMatchObject({
      status: 'ready',
    });
    expect(await value<SiteSummary>('sites:sign-in', { siteId: confidential.id })).toMatchObject({
      status: 'ready',
    });
    await value('sync:now', { siteId: confidential.id });
    // A failed attempt: the site's clock 15 minutes behind, its id_token is refused and the issued
    // pair discarded.
    await value('demo:set-faults', { clockSkewMinutes: -15 });
    const failed = await call('sites:sign-in', { siteId: confidential.id });
    expect(!failed.ok && failed.error.code).toBe('id-token-invalid');
    for (const input of [
      { siteId: demo!.id },
      { siteId: confidential.id },
      { baseUrl: demo!.baseUrl, clientId: CONFIDENTIAL.clientId },
    ]) {
      reports.push(await value<DoctorReport>('doctor:run', input));
    }
    expect(reports[1]!.trigger).toBe('id-token-invalid');
    expect(reports[1]!.checks.find((c) => c.id === 'clock')?.status).toBe('problem');
  }, 90_000);

  it('saw every kind of secret live (nothing passes vacuously)', () => {
    const kinds = bag.kinds();
    for (const k of [
      'access_token',
      'refresh_token',
      'id_token',
      'code',
      'code_verifier',
      'client_secret',
      'password',
      'host_secret',
    ] as const)
      expect(kinds, k).toContain(k);
    // The client secret really went to the token endpoint.
    expect(wire.tokenExchanges.some((x) => x.requestBody.includes(CONFIDENTIAL.clientSecret))).toBe(
      true,
    );
  });

  it('the report as the core returns it carries none of them', () => {
    expect(reports).toHaveLength(3);
    for (const r of reports) expect(leaksIn(bag, JSON.stringify(r))).toEqual([]);
    // The proxy is named by host and port only.
    expect(JSON.stringify(reports)).toContain('proxy.example:3128');
    expect(JSON.stringify(reports)).not.toContain('student:');
  });

  it('the text the student copies (en and zh-TW, the renderer’s builder and strings) carries none of them', async () => {
    for (const lng of ['en', 'zh-TW'] as const) {
      const i18n = i18next.createInstance();
      await i18n.init({
        lng,
        resources: {
          [lng]: {
            translation: JSON.parse(
              readFileSync(`renderer/src/i18n/${lng}.json`, 'utf8'),
            ) as Record<string, unknown>,
          },
        },
        interpolation: { escapeValue: false },
      });
      for (const r of reports) {
        const text = reportText(r, i18n.t, (iso) => iso);
        expect(text).toContain(r.site.baseUrl);
        expect(text).not.toMatch(/\{\{|doctor\./);
        expect(leaksIn(bag, text), lng).toEqual([]);
      }
    }
  });
});
