import { networkInterfaces } from 'node:os';
import type { AppError } from '../../common/result';

/**
 * "You're offline" or "the school isn't answering"? The rule the app follows, one place:
 *
 * A site that could not be reached (no connection, no answer in time, or 502/503/504) is NOT
 * ANSWERING, by name, unless the computer itself has no network. The computer has no network when
 *   1. the operating system lists no network interface other than loopback (Electron: `net.isOnline()`), or
 *   2. the failure happened before any connection could be tried: the site's name could not be resolved (DNS:
 *      ENOTFOUND, EAI_AGAIN) or no route leads out (ENETUNREACH, ENETDOWN), and no other school answered at its
 *      last contact (one school answering proves the network is there, so that one school's DNS is its own trouble).
 * A connection refused or reset, a timeout, a TLS failure or an HTTP error all mean the network carried the request
 * and the school's service did not answer it: that is the school's trouble, not the student's network.
 */

/** Where a site stands at its last contact. */
export type Reach = 'answering' | 'not-answering' | 'no-network';

/** Socket errors raised before a connection could be tried: the network, not the site. */
const NO_NETWORK_ERRNOS: ReadonlySet<string> = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'ENETDOWN',
]);

/**
 * The system error code (ECONNREFUSED, ENOTFOUND...) somewhere in an error's cause chain, or null.
 */
export function systemErrorCode(error: unknown): string | null {
  let at: unknown = error;
  for (let depth = 0; depth < 8 && at !== null && typeof at === 'object'; depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z0-9_]+$/.test(code)) return code;
    // AggregateError (happy eyeballs tries every address): the first attempt's error speaks for
    // all.
    const errors = (at as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0) {
      const inner = systemErrorCode(errors[0]);
      if (inner) return inner;
    }
    at = (at as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * The detail a "site-unreachable" error carries across the writer's thread boundary (where the
 * cause is dropped):
 * the system error code only, never an address or a message.
 */
export function unreachableDetail(cause: unknown): AppError['detail'] {
  const reason = systemErrorCode(cause);
  return reason === null ? undefined : { reason };
}

/**
 * True when an unreachable-site failure happened before any connection could be tried (rule 2
 * above).
 */
export function failedBeforeConnecting(error: unknown): boolean {
  const reason = (error as { detail?: { reason?: unknown } } | null)?.detail?.reason;
  if (typeof reason === 'string' && NO_NETWORK_ERRNOS.has(reason)) return true;
  const code = systemErrorCode(error);
  return code !== null && NO_NETWORK_ERRNOS.has(code);
}

/** Rule 1: whether the operating system lists any network interface other than loopback. */
export function osHasNetwork(
  interfaces: ReturnType<typeof networkInterfaces> = networkInterfaces(),
): boolean {
  return Object.values(interfaces).some((addresses) => (addresses ?? []).some((a) => !a.internal));
}
