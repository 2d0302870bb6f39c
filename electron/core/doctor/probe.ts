/**
 * The doctor's first look at a site: one request for its RFC 8414 document, timed, with the `Date`
 * header and the network failure (if any) kept for the checks that read them (discovery, TLS,
 * proxy, clock).
 */
import { CoreError } from '../errors';
import type { FetchLike } from '../net/http';
import { readStart, request } from '../net/http';
import { MAX_DOCUMENT_BYTES } from '../net/site-data';

const RFC8414_PATH = '/.well-known/oauth-authorization-server';
const OIDC_PATH = '/.well-known/openid-configuration';
/** Each of the doctor's requests gives up after this long: a check must not hang the report. */
export const DOCTOR_REQUEST_TIMEOUT_MS = 10_000;

export interface SiteProbe {
  readonly origin: string;
  /** The path that answered (RFC 8414 first, OIDC Discovery as the fallback), or null. */
  readonly path: string | null;
  readonly status: number | null;
  /** The parsed JSON body when it was a JSON object. */
  readonly document: Readonly<Record<string, unknown>> | null;
  /** The site's clock (RFC 9110 §6.6.1 Date), ms since the epoch, or null. */
  readonly siteDate: number | null;
  /** The computer's clock at the middle of the round trip. */
  readonly localDate: number;
  readonly elapsedMs: number;
  /** The network failure (no HTTP answer at all): the error chain, for TLS classification. */
  readonly networkError: unknown;
}

export interface ProbeOptions {
  readonly fetch: FetchLike;
  readonly clock: { now(): number };
  readonly timeoutMs?: number;
}

export async function probeSite(origin: string, options: ProbeOptions): Promise<SiteProbe> {
  let last: Omit<SiteProbe, 'origin'> | null = null;
  for (const path of [RFC8414_PATH, OIDC_PATH]) {
    const sent = options.clock.now();
    const startedAt = performance.now();
    let res: Response;
    try {
      res = await request(
        `${origin}${path}`,
        { headers: { accept: 'application/json' } },
        { fetch: options.fetch, timeoutMs: options.timeoutMs ?? DOCTOR_REQUEST_TIMEOUT_MS },
      );
    } catch (error) {
      return {
        origin,
        path: null,
        status: null,
        document: null,
        siteDate: null,
        localDate: sent,
        elapsedMs: performance.now() - startedAt,
        networkError: error,
      };
    }
    const received = options.clock.now();
    const header = res.headers.get('date');
    const parsedDate = header === null ? NaN : Date.parse(header);
    let document: Record<string, unknown> | null = null;
    try {
      const text = await readStart(res, MAX_DOCUMENT_BYTES + 1);
      const value: unknown = text.length <= MAX_DOCUMENT_BYTES ? JSON.parse(text) : null;
      if (value !== null && typeof value === 'object' && !Array.isArray(value))
        document = value as Record<string, unknown>;
    } catch {
      document = null;
    }
    last = {
      path,
      status: res.status,
      document,
      siteDate: Number.isFinite(parsedDate) ? parsedDate : null,
      // The Date header is stamped while the answer is made: compare it with the middle of the
      // round trip.
      localDate: Math.round((sent + received) / 2),
      elapsedMs: performance.now() - startedAt,
      networkError: null,
    };
    // RFC 8414 §3.1 first; only a 404 sends us to the OIDC Discovery document (as discovery.ts
    // does).
    if (res.status !== 404) break;
  }
  const answered = last!;
  return { origin, ...answered, path: answered.status === 404 ? null : answered.path };
}

/**
 * Walks an error's cause chain and returns the first Node/OpenSSL error code found (e.g.
 * CERT_HAS_EXPIRED).
 */
export function errorCodeIn(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== null && current !== undefined; depth++) {
    if (!(current instanceof CoreError)) {
      const code = (current as { code?: unknown }).code;
      if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{2,63}$/.test(code)) return code;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/** Text from a site shown in the report: printable, short (a document may say anything). */
export function displayText(value: unknown, max = 200): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const clean = text.replace(/[^\P{C}]/gu, '').trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}
