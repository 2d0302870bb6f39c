/**
 * "What went wrong?": runs every check of the sign-in doctor for one site and returns the report.
 * The network checks share one probe of the site (probe.ts); the loopback check runs beside them.
 * Nothing here throws for a failed check: a check that cannot decide says `skipped`.
 */
import type { DoctorCheck, DoctorReport, SignInAttemptRecord } from '../../common/doctor';
import type { ErrorCode } from '../../common/errors';
import { normalizeBaseUrl } from '../auth/discovery';
import type { FetchLike } from '../net/http';
import {
  checkBrowser,
  checkClient,
  checkClock,
  checkDiscovery,
  checkLoopback,
  checkProxy,
  checkTls,
} from './checks';
import { probeSite } from './probe';

export interface DoctorInput {
  readonly site: { readonly label: string; readonly baseUrl: string; readonly clientId: string };
  /** The site's last sign-in attempt in this run of the app, if any. */
  readonly attempt: SignInAttemptRecord | null;
  /**
   * The error the student saw, when the doctor was opened from an error that is not a sign-in
   * attempt.
   */
  readonly trigger?: ErrorCode | null;
}

export interface DoctorDeps {
  readonly fetch: FetchLike;
  readonly clock: { now(): number };
  /** The process environment (proxy variables). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly app: DoctorReport['app'];
  /** Tests: where the loopback check listens (default 127.0.0.1). */
  readonly loopbackHost?: string;
  /** Tests: a separate fetch for the loopback check only. */
  readonly loopbackFetch?: FetchLike;
  readonly timeoutMs?: number;
}

export async function runDoctor(input: DoctorInput, deps: DoctorDeps): Promise<DoctorReport> {
  const origin = normalizeBaseUrl(input.site.baseUrl);
  const [probe, loopback] = await Promise.all([
    probeSite(origin, {
      fetch: deps.fetch,
      clock: deps.clock,
      ...(deps.timeoutMs === undefined ? {} : { timeoutMs: deps.timeoutMs }),
    }),
    checkLoopback({
      fetch: deps.loopbackFetch ?? deps.fetch,
      ...(deps.loopbackHost === undefined ? {} : { host: deps.loopbackHost }),
    }),
  ]);
  const [discovery, client] = await Promise.all([
    checkDiscovery(probe, { fetch: deps.fetch }),
    checkClient(probe, input.site.clientId, { fetch: deps.fetch }),
  ]);
  const checks: DoctorCheck[] = [
    discovery,
    checkTls(probe),
    checkProxy(probe, deps.env),
    loopback,
    checkBrowser(input.attempt),
    checkClock(probe),
    client,
  ];
  return {
    site: { label: input.site.label, baseUrl: origin, clientId: input.site.clientId },
    ranAt: new Date(deps.clock.now()).toISOString(),
    app: deps.app,
    trigger: input.attempt?.errorCode ?? input.trigger ?? null,
    checks,
  };
}
