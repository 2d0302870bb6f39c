/**
 * The sign-in doctor's report ("What went wrong?"): one entry per check, each with a status and a
 * finding the renderer turns into words (doctor.finding.<finding>.what / .todo in en and zh-TW).
 * Every value in `params` is something the student may paste into a support request: origins, HTTP
 * statuses, error codes, variable names, minutes. Never a token, code, verifier, secret, password
 * or proxy credential (test/security/doctor-report.test.ts).
 */
import type { ErrorCode } from './errors';

export const DOCTOR_CHECK_IDS = [
  'discovery',
  'tls',
  'proxy',
  'loopback',
  'browser',
  'clock',
  'client',
] as const;
export type DoctorCheckId = (typeof DOCTOR_CHECK_IDS)[number];

export type DoctorStatus = 'ok' | 'warning' | 'problem' | 'skipped';

export const DOCTOR_FINDINGS = [
  // discovery: the site's sign-in description (RFC 8414 / OIDC Discovery / RFC 9728)
  'discoveryOk',
  'discoverySlow',
  'discoveryUnreachable',
  'discoveryServerError',
  'discoveryHttpStatus',
  'discoveryMissing',
  'discoveryNotJson',
  'discoveryIssuerMismatch',
  'discoveryNoS256',
  'discoveryForeignEndpoint',
  'discoveryInvalid',
  // tls
  'tlsOk',
  'tlsNotUsed',
  'tlsUnchecked',
  'tlsExpired',
  'tlsUntrusted',
  'tlsNameMismatch',
  'tlsFailed',
  // proxy
  'proxyNone',
  'proxyExcluded',
  'proxyDirectOk',
  'proxyMayBeRequired',
  // loopback receiver (RFC 8252 §7.3)
  'loopbackOk',
  'loopbackBindFailed',
  'loopbackUnreachable',
  // system browser
  'browserOpened',
  'browserNoAnswer',
  'browserFailed',
  'browserNotReached',
  'browserNoAttempt',
  // clock vs the site's Date header
  'clockOk',
  'clockSlightlyOff',
  'clockComputerBehind',
  'clockComputerAhead',
  'clockUnknown',
  // client_id still registered
  'clientOk',
  'clientUnknown',
  'clientResourceRefused',
  'clientUnchecked',
] as const;
export type DoctorFinding = (typeof DOCTOR_FINDINGS)[number];

export interface DoctorCheck {
  readonly id: DoctorCheckId;
  readonly status: DoctorStatus;
  readonly finding: DoctorFinding;
  /** Interpolation values for the finding's words. Never secret (see the file comment). */
  readonly params: Readonly<Record<string, string | number>>;
}

export interface DoctorReport {
  readonly site: { readonly label: string; readonly baseUrl: string; readonly clientId: string };
  /** ISO 8601, the computer's clock. */
  readonly ranAt: string;
  readonly app: {
    readonly version: string;
    readonly host: 'electron' | 'browser';
    readonly platform: string;
  };
  /** The error the last sign-in attempt ended with (its code only), if any. */
  readonly trigger: ErrorCode | null;
  readonly checks: readonly DoctorCheck[];
}

/**
 * What the doctor remembers of a site's last sign-in attempt (kept in memory by the site manager).
 */
export interface SignInAttemptRecord {
  /** 'not-reached': the attempt stopped before the browser was asked to open. */
  readonly browser: 'not-reached' | 'opened' | 'failed';
  /** The loopback receiver got the site's answer (the browser came back). */
  readonly callbackReceived: boolean;
  readonly errorCode: ErrorCode | null;
  readonly at: string;
}
