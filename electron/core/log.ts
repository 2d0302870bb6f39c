/**
 * The core's logger. It redacts secrets by itself (ARCHITECTURE "Examples to follow" #14) so that
 * no caller has to remember to: tokens, authorization codes, PKCE verifiers, client secrets and
 * passwords never reach a sink, whether they arrive as object keys, `Bearer` values inside strings,
 * or query/form parameters in URLs.
 */
import { appendFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { isErrorCode } from '../common/errors';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface LogEntry {
  readonly time: string;
  readonly level: LogLevel;
  readonly scope: string;
  readonly message: string;
  /** Already redacted. */
  readonly data?: unknown;
}

/** Receives one already-redacted line (JSON) and the entry it was built from. */
export type LogSink = (line: string, entry: LogEntry) => void;

export interface Logger {
  debug(message: string, data?: unknown): void;
  info(message: string, data?: unknown): void;
  warn(message: string, data?: unknown): void;
  error(message: string, data?: unknown): void;
  /** A logger whose lines carry `scope` (e.g. 'auth.sign-in'). */
  child(scope: string): Logger;
}

/**
 * Keys whose values are secrets wherever they appear (compared case-insensitively, '-' and '_'
 * alike).
 */
export const SECRET_KEYS: readonly string[] = [
  'access_token',
  'refresh_token',
  'id_token',
  'code',
  'code_verifier',
  'client_secret',
  'password',
  'authorization',
  'token',
  // camelCase spellings used inside the core
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'codeverifier',
  'clientsecret',
];

const REDACTED = '[redacted]';

function isSecretKey(key: string): boolean {
  const k = key.toLowerCase();
  return (
    SECRET_KEYS.includes(k) ||
    SECRET_KEYS.includes(k.replace(/-/g, '_')) ||
    SECRET_KEYS.includes(k.replace(/[-_]/g, ''))
  );
}

const PARAM_NAMES = [
  'access_token',
  'refresh_token',
  'id_token',
  'code',
  'code_verifier',
  'client_secret',
  'password',
  'token',
];
// Query, fragment or form parameters carrying a secret: `?code=...`, `&refresh_token=...`,
// `#access_token=...`.
const PARAM_RE = new RegExp(`(^|[?&#\\s;,"'])(${PARAM_NAMES.join('|')})=([^&#\\s"',;]*)`, 'gi');
// RFC 6750 §2.1 bearer credentials (b64token) and Basic credentials in header-like strings.
const BEARER_RE = /\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/]+=*/gi;
// JSON-ish "key":"value" pairs inside a string (e.g. a response body quoted in an error message).
const JSON_PAIR_RE = new RegExp(`"(${PARAM_NAMES.join('|')})"\\s*:\\s*"[^"]*"`, 'gi');

// ---------------------------------------------------------------- secret values the app holds
//
// The patterns above catch a secret by its shape (`Bearer x`, `code=x`, `"access_token":"x"`), but
// not a raw value echoed in free text: a site's error page or GraphQL error that quotes the token,
// an exception message. So the places that handle secrets (token client, sign-in, vault) also
// remember the values themselves, and the logger and the IPC boundary replace any occurrence of
// them (like a CI runner's masked values). Bounded: the oldest are dropped first, and those are
// tokens long since rotated.

const KNOWN_LIMIT = 256;
/**
 * Shorter values would match ordinary text by chance; every real token, code and verifier is
 * longer.
 */
const KNOWN_MIN_LENGTH = 8;
const known = new Set<string>();

/**
 * Remembers secret values so that no log line and no IPC Result can carry them, whatever the shape
 * around them.
 */
export function rememberSecrets(...values: readonly (string | null | undefined)[]): void {
  for (const v of values) {
    if (typeof v !== 'string' || v.length < KNOWN_MIN_LENGTH) continue;
    known.delete(v);
    known.add(v);
    for (const variant of [encodeURIComponent(v), JSON.stringify(v).slice(1, -1)]) {
      if (variant !== v) {
        known.delete(variant);
        known.add(variant);
      }
    }
  }
  while (known.size > KNOWN_LIMIT) known.delete(known.values().next().value as string);
  shortestKnown = Math.min(...[...known].map((v) => v.length));
}

/**
 * Text shorter than every remembered value cannot contain one: most strings of a view model are
 * skipped.
 */
let shortestKnown = Infinity;

function redactKnown(text: string): string {
  if (text.length < shortestKnown) return text;
  let out = text;
  for (const v of known) if (out.includes(v)) out = out.split(v).join(REDACTED);
  return out;
}

/**
 * Returns `value` with every remembered secret replaced in its strings (plain data: objects,
 * arrays, primitives). The same object comes back when nothing was found, so the common case copies
 * nothing.
 */
export function scrubKnownSecrets<T>(value: T): T {
  return scrub(value) as T;
}

function scrub(value: unknown): unknown {
  if (typeof value === 'string') return value.length < shortestKnown ? value : redactKnown(value);
  if (value === null || typeof value !== 'object' || known.size === 0) return value;
  // Copy-on-write: nothing is allocated unless a secret is found.
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      const next = scrub(v);
      if (next !== v) (out ??= value.slice())[i] = next;
    }
    return out ?? value;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const record = value as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  for (const k in record) {
    const v = record[k];
    const next = scrub(v);
    if (next !== v) (out ??= { ...record })[k] = next;
  }
  return out ?? value;
}

/**
 * Redacts secrets inside free text: remembered values, bearer values, secret parameters in URLs or
 * form bodies, JSON pairs.
 */
export function redactString(text: string): string {
  return redactKnown(text)
    .replace(BEARER_RE, (_m, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(PARAM_RE, (_m, lead: string, name: string) => `${lead}${name}=${REDACTED}`)
    .replace(JSON_PAIR_RE, (_m, name: string) => `"${name}":"${REDACTED}"`);
}

/**
 * Returns a copy of `value` safe to log. Handles cycles, errors, URLs, Headers, Maps and typed
 * arrays.
 */
export function redact(value: unknown, seen: WeakSet<object> = new WeakSet()): unknown {
  if (typeof value === 'string') return redactString(value);
  if (value === null || typeof value !== 'object') {
    return typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol'
      ? String(value)
      : value;
  }
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (value instanceof URL) return redactString(value.href);
  if (value instanceof Uint8Array || value instanceof ArrayBuffer)
    return `[${value.byteLength} bytes]`;
  if (value instanceof Error) {
    const out: Record<string, unknown> = { name: value.name, message: redactString(value.message) };
    const code = (value as { code?: unknown }).code;
    // A CoreError's code is a stable, non-secret ErrorCode; a Node error's code (ECONNREFUSED) is
    // harmless too.
    if (
      typeof code === 'string' &&
      (isErrorCode(code) || /^E[A-Z_]+$/.test(code) || /^ERR_[A-Z_]+$/.test(code))
    )
      out.code = code;
    const detail = (value as { detail?: unknown }).detail;
    if (detail !== undefined) out.detail = redact(detail, seen);
    if (value.cause !== undefined) out.cause = redact(value.cause, seen);
    return out;
  }
  if (typeof Headers !== 'undefined' && value instanceof Headers) {
    const out: Record<string, string> = {};
    value.forEach((v, k) => {
      out[k] = isSecretKey(k) ? REDACTED : redactString(v);
    });
    return out;
  }
  if (value instanceof URLSearchParams) {
    const out: Record<string, string> = {};
    value.forEach((v, k) => {
      out[k] = isSecretKey(k) ? REDACTED : redactString(v);
    });
    return out;
  }
  if (value instanceof Map) return redact(Object.fromEntries(value), seen);
  if (Array.isArray(value)) return value.map((v) => redact(v, seen));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (isSecretKey(k)) {
      // The key `code` also names our own stable error codes (e.g. { code: 'sign-in-needed' }):
      // keep those.
      out[k] = k === 'code' && isErrorCode(v) ? v : v === null || v === undefined ? v : REDACTED;
    } else {
      out[k] = redact(v, seen);
    }
  }
  return out;
}

export interface LoggerOptions {
  readonly scope?: string;
  /** Lines below this level are dropped. Default 'debug'. */
  readonly level?: LogLevel;
  readonly clock?: { now(): number };
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export function createLogger(sink: LogSink, options: LoggerOptions = {}): Logger {
  const min = ORDER[options.level ?? 'debug'];
  const clock = options.clock ?? Date;
  const make = (scope: string): Logger => {
    const write = (level: LogLevel, message: string, data?: unknown): void => {
      if (ORDER[level] < min) return;
      const entry: LogEntry =
        data === undefined
          ? {
              time: new Date(clock.now()).toISOString(),
              level,
              scope,
              message: redactString(message),
            }
          : {
              time: new Date(clock.now()).toISOString(),
              level,
              scope,
              message: redactString(message),
              data: redact(data),
            };
      let line: string;
      try {
        line = JSON.stringify(entry);
      } catch {
        line = JSON.stringify({ ...entry, data: '[unserialisable]' });
      }
      try {
        sink(line, entry);
      } catch {
        // A failing sink must never break the flow that is logging.
      }
    };
    return {
      debug: (m, d) => write('debug', m, d),
      info: (m, d) => write('info', m, d),
      warn: (m, d) => write('warn', m, d),
      error: (m, d) => write('error', m, d),
      child: (s) => make(scope ? `${scope}.${s}` : s),
    };
  };
  return make(options.scope ?? 'core');
}

/** A logger that drops everything (default when the caller gives none). */
export const silentLogger: Logger = createLogger(() => undefined, { level: 'error' });

// ---------------------------------------------------------------- crash output

/**
 * What a host may print about an error it did not expect: the error's name and, when it is a stable
 * code (CoreError's ErrorCode, a Node `E...` code), the code. Never the message, the stack, the
 * cause or other properties: any of them may quote a token (a site's answer, a request body).
 * Node's default crash output (util.inspect) prints all of them, causes included.
 */
export function describeUnexpected(error: unknown): string {
  if (!(error instanceof Error))
    return typeof error === 'object' && error !== null
      ? 'non-error object'
      : `non-error ${typeof error}`;
  // A class name (TypeError, CoreError, AbortError, SqliteError), not free text a caller could have
  // set.
  const name =
    /^[A-Z][A-Za-z]{0,40}(Error|Exception)$/.test(error.name) &&
    redactString(error.name) === error.name
      ? error.name
      : 'Error';
  const code = (error as { code?: unknown }).code;
  const safeCode =
    typeof code === 'string' &&
    (isErrorCode(code) || /^E[A-Z_]+$/.test(code) || /^ERR_[A-Z_]+$/.test(code))
      ? code
      : null;
  return safeCode ? `${name} (${safeCode})` : name;
}

/** The part of `process` the crash guards need (a test passes its own emitter). */
export interface CrashTarget {
  on(event: 'uncaughtException', listener: (error: unknown) => void): unknown;
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
}

/**
 * Replaces Node's (and Electron's) default crash output, which prints the message, stack,
 * properties and causes of the error (a token among them, possibly), with one line naming the
 * error. An uncaught exception still ends the process (its state is unknown); an unhandled
 * rejection is reported and the app keeps running. Both hosts install this first thing
 * (electron/main/index.ts, electron/browser-host/cli.ts).
 */
export function installCrashGuards(
  target: CrashTarget,
  write: (line: string) => void,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  target.on('uncaughtException', (error) => {
    try {
      write(`Learning Desktop stopped after an unexpected error: ${describeUnexpected(error)}`);
    } finally {
      exit(1);
    }
  });
  target.on('unhandledRejection', (reason) => {
    write(`Learning Desktop: an operation failed unexpectedly: ${describeUnexpected(reason)}`);
  });
}

/**
 * A log file that rotates: once it passes `maxBytes`, `file` becomes `file.1` (`file.1` becomes
 * `file.2`, and so on), keeping `keep` old files. Lines are appended synchronously, so the last
 * line before a crash is on disk. Writing never throws: a full disk or a removed folder must not
 * stop the app. What reaches it has passed the logger's redaction (createLogger) or is a crash
 * guard's plain line.
 */
export function createRotatingFileSink(
  file: string,
  options: { readonly maxBytes?: number; readonly keep?: number } = {},
): (line: string) => void {
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const keep = options.keep ?? 3;
  let size = -1;
  return (line) => {
    try {
      if (size < 0) {
        mkdirSync(dirname(file), { recursive: true });
        size = existsSync(file) ? statSync(file).size : 0;
      }
      const bytes = Buffer.byteLength(line, 'utf8') + 1;
      if (size > 0 && size + bytes > maxBytes) {
        rmSync(`${file}.${keep}`, { force: true });
        for (let i = keep - 1; i >= 1; i--)
          if (existsSync(`${file}.${i}`)) renameSync(`${file}.${i}`, `${file}.${i + 1}`);
        renameSync(file, `${file}.1`);
        size = 0;
      }
      appendFileSync(file, `${line}\n`, { encoding: 'utf8', mode: 0o600 });
      size += bytes;
    } catch {
      // The log is a help, never a reason to fail.
      size = -1;
    }
  };
}
