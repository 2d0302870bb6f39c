/**
 * Fault injection (README, decision "Fault injection"): the switches of `FaultSwitches` that act on
 * the whole connection rather than inside one endpoint. They are applied in front of the router, so
 * every route sees the same degraded site: offline drops the connection, latency delays the answer.
 * Endpoint faults (the member API's 503, the refused refresh) live next to the code they break.
 * Nothing here is reachable over HTTP: the switches are set through the server object only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock, FaultSwitches } from './types';

/** Upper bounds that keep a switched-on fault a demo of a slow site, not a hung one. */
export const MAX_LATENCY_MS = 30_000;
/**
 * A week either way: far beyond any id_token tolerance, small enough to keep every date printable.
 */
export const MAX_CLOCK_SKEW_MS = 7 * 24 * 3600_000;

/**
 * Checks a patch of switches and writes it into `faults` (in place: the server's context holds this
 * object). Every check runs before the first write: a bad patch throws and changes nothing.
 */
export function applyFaultPatch(
  faults: FaultSwitches,
  patch: Readonly<FaultSwitches>,
): FaultSwitches {
  const flag = (name: keyof FaultSwitches, value: unknown): void => {
    if (value !== undefined && typeof value !== 'boolean')
      throw new TypeError(`fault ${name} must be a boolean`);
  };
  const amount = (name: keyof FaultSwitches, value: unknown, min: number, max: number): void => {
    if (
      value !== undefined &&
      !(typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max)
    ) {
      throw new RangeError(`fault ${name} must be an integer from ${min} to ${max}`);
    }
  };
  flag('tokenStoreUnavailable', patch.tokenStoreUnavailable);
  flag('offline', patch.offline);
  flag('memberApiUnavailable', patch.memberApiUnavailable);
  flag('refreshRefused', patch.refreshRefused);
  amount('latencyMs', patch.latencyMs, 0, MAX_LATENCY_MS);
  amount('clockSkewMs', patch.clockSkewMs, -MAX_CLOCK_SKEW_MS, MAX_CLOCK_SKEW_MS);
  if (patch.downloadFault !== undefined && !DOWNLOAD_FAULTS.has(patch.downloadFault))
    throw new TypeError('fault downloadFault must be none, slow, cut, not-found or gone');
  const entries = Object.entries(patch) as [keyof FaultSwitches, unknown][];
  for (const [key] of entries)
    if (!KNOWN.has(key)) throw new TypeError(`unknown fault ${String(key)}`);
  for (const [key, value] of entries)
    if (value !== undefined) (faults as Record<string, unknown>)[key] = value;
  return faults;
}

const KNOWN = new Set<keyof FaultSwitches>([
  'tokenStoreUnavailable',
  'offline',
  'latencyMs',
  'memberApiUnavailable',
  'refreshRefused',
  'clockSkewMs',
  'downloadFault',
]);
const DOWNLOAD_FAULTS = new Set<unknown>(['none', 'slow', 'cut', 'not-found', 'gone']);

/**
 * The site's own clock: the base clock moved by `faults.clockSkewMs`, read at every call
 * (switchable live).
 */
export function skewedClock(base: Clock, faults: FaultSwitches): Clock {
  return { now: () => base.now() + (faults.clockSkewMs ?? 0) };
}

/**
 * Runs before the router. Returns false when the request was dropped (offline) and must not be
 * routed. The latency is waited before the offline check, so switching "offline" on during a slow
 * request drops it too.
 */
export async function beforeRouting(
  faults: FaultSwitches,
  clock: Clock,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  const latency = faults.latencyMs ?? 0;
  if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
  if (faults.offline) {
    // A site that is gone answers nothing: the socket is reset, as when the host or its network is
    // down.
    req.socket.destroy();
    return false;
  }
  // RFC 9110 §6.6.1: Date is the origin's clock. Set from the site's clock so a skewed site says so
  // (the app's sign-in doctor compares it with the computer's clock).
  res.setHeader('Date', new Date(clock.now()).toUTCString());
  return true;
}
