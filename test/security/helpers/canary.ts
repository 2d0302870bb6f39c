/**
 * Canary helpers for the cross-cutting secrecy tests (project rule: "Secrets never reach logs, URLs
 * of error pages, crash output or the renderer"). The secrets are never invented by the test: they
 * are read off the real wire (token endpoint requests and answers, bearer headers, the callback
 * URL), so a test can only pass when it actually saw them, and each test also proves the value is
 * present where it is allowed to be.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger, type LogEntry, type Logger } from '../../../electron/core/log';
import type { FetchLike } from '../../../electron/core/net/http';

export type SecretKind =
  | 'access_token'
  | 'refresh_token'
  | 'id_token'
  | 'code'
  | 'code_verifier'
  | 'client_secret'
  | 'password'
  | 'vault_key'
  | 'host_secret'
  | 'other';

export class SecretBag {
  private readonly values = new Map<string, SecretKind>();
  add(kind: SecretKind, value: string | null | undefined): void {
    // Short values (e.g. a 4-character test password) would match by chance; real tokens are long.
    if (typeof value === 'string' && value.length >= 8) this.values.set(value, kind);
  }
  kinds(): Set<SecretKind> {
    return new Set(this.values.values());
  }
  list(): { kind: SecretKind; value: string }[] {
    return [...this.values].map(([value, kind]) => ({ kind, value }));
  }
  of(kind: SecretKind): string[] {
    return this.list()
      .filter((s) => s.kind === kind)
      .map((s) => s.value);
  }
  get size(): number {
    return this.values.size;
  }
  /**
   * Every secret found in `text`, with the encodings a leak could take (raw, URL-encoded,
   * JSON-escaped).
   */
  findIn(text: string): { kind: SecretKind; value: string }[] {
    return this.list().filter(
      ({ value }) =>
        text.includes(value) ||
        text.includes(encodeURIComponent(value)) ||
        text.includes(JSON.stringify(value).slice(1, -1)),
    );
  }
}

/**
 * Fails with a readable message (which names the kind and where, never the value) when a secret is
 * in `text`.
 */
export function leaksIn(bag: SecretBag, text: string): string[] {
  return bag.findIn(text).map((s) => `${s.kind} (${s.value.length} chars)`);
}

export interface WireRecord {
  readonly url: string;
  readonly method: string;
  readonly status: number;
  readonly requestBody: string;
  readonly responseBody: string;
}

export interface RecordingFetch {
  readonly fetch: FetchLike;
  readonly secrets: SecretBag;
  /**
   * Every exchange with a token endpoint (request form and answer), to prove the canaries were
   * live.
   */
  readonly tokenExchanges: WireRecord[];
  /** The last bearer token the app presented (a token the app really holds). */
  lastBearer: string | null;
  /**
   * Set to rewrite a response (fault injection: an error page echoing the token, a GraphQL
   * error...).
   */
  rewrite:
    | ((
        req: { url: string; method: string; authorization: string | null; body: string },
        res: Response,
      ) => Promise<Response | undefined> | Response | undefined)
    | null;
}

const TOKEN_PATH = /\/api\/oauth\/token$/;
const REVOKE_PATH = /\/api\/oauth\/revoke$/;

/**
 * A fetch that records every secret the app sends or receives over HTTP, and can rewrite answers.
 */
export function createRecordingFetch(bag: SecretBag = new SecretBag()): RecordingFetch {
  const tokenExchanges: WireRecord[] = [];
  const rec: RecordingFetch = {
    secrets: bag,
    tokenExchanges,
    rewrite: null,
    lastBearer: null,
    async fetch(input, init) {
      const url = input instanceof Request ? input.url : String(input);
      const method = (
        init?.method ?? (input instanceof Request ? input.method : 'GET')
      ).toUpperCase();
      const headers = new Headers(
        init?.headers ?? (input instanceof Request ? input.headers : undefined),
      );
      const authorization = headers.get('authorization');
      const bearer = authorization ? /^Bearer\s+(.+)$/i.exec(authorization)?.[1] : undefined;
      bag.add('access_token', bearer);
      if (bearer) rec.lastBearer = bearer;
      const body = typeof init?.body === 'string' ? init.body : '';
      const path = new URL(url).pathname;
      if (TOKEN_PATH.test(path) || REVOKE_PATH.test(path)) {
        const form = new URLSearchParams(body);
        bag.add('code', form.get('code'));
        bag.add('code_verifier', form.get('code_verifier'));
        bag.add('client_secret', form.get('client_secret'));
        bag.add('refresh_token', form.get('refresh_token'));
        if (form.get('token_type_hint') === 'refresh_token')
          bag.add('refresh_token', form.get('token'));
      }
      let res = await fetch(input, init);
      if (TOKEN_PATH.test(path)) {
        const text = await res.clone().text();
        try {
          const json = JSON.parse(text) as Record<string, unknown>;
          bag.add('access_token', json.access_token as string | undefined);
          bag.add('refresh_token', json.refresh_token as string | undefined);
          bag.add('id_token', json.id_token as string | undefined);
        } catch {
          // not JSON: nothing to record
        }
        tokenExchanges.push({
          url,
          method,
          status: res.status,
          requestBody: body,
          responseBody: text,
        });
      }
      if (rec.rewrite) {
        const replaced = await rec.rewrite({ url, method, authorization, body }, res);
        if (replaced) {
          await res.body?.cancel();
          res = replaced;
        }
      }
      return res;
    },
  };
  return rec;
}

export interface CapturedLog {
  readonly logger: Logger;
  readonly lines: string[];
  readonly entries: LogEntry[];
  text(): string;
}

/** The core's real redacting logger with a sink that keeps every line (debug included). */
export function captureLogger(): CapturedLog {
  const lines: string[] = [];
  const entries: LogEntry[] = [];
  const logger = createLogger(
    (line, entry) => {
      lines.push(line);
      entries.push(entry);
    },
    { level: 'debug' },
  );
  return { logger, lines, entries, text: () => lines.join('\n') };
}

/** Every regular file under `dir` (recursively). */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    if (s.isDirectory()) out.push(...filesUnder(p));
    else if (s.isFile()) out.push(p);
  }
  return out;
}

/**
 * Files holding a secret, as `path: kind` lines. Reads bytes as latin1 so binary files (SQLite,
 * WAL) are searched too.
 */
export function scanFiles(files: readonly string[], bag: SecretBag): string[] {
  const found: string[] = [];
  for (const f of files) {
    const raw = readFileSync(f);
    const text = raw.toString('latin1');
    for (const s of bag.findIn(text)) found.push(`${f}: ${s.kind}`);
  }
  return found;
}
