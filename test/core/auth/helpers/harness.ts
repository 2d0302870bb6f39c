/**
 * Builds a real SiteManager (Node cipher, files in a temp dir) whose browser is the scripted one
 * and whose fetch is the real one, observed: tests count refresh requests at the token endpoint and
 * can make one answer "get lost" after the server produced it (the connection dies on the way
 * back).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../../../../electron/core/log';
import type { FetchLike } from '../../../../electron/core/net/http';
import type { SiteManager, SiteManagerOptions } from '../../../../electron/core/sites/site-manager';
import { createSiteManager } from '../../../../electron/core/sites/site-manager';
import type { Cipher } from '../../../../electron/core/vault/cipher';
import { createNodeCipher } from '../../../../electron/core/vault/cipher';
import type { ScriptedBrowserOptions } from './browser';
import { createScriptedBrowser } from './browser';

export interface SentRequest {
  url: string;
  method: string;
  form: URLSearchParams | null;
  authorization: string | null;
}

export interface Harness {
  manager: SiteManager;
  dir: string;
  cipher: Cipher;
  sent: SentRequest[];
  /**
   * The JSON bodies the token endpoints answered (grant requests only), as the server sent them.
   */
  tokenAnswers: { form: URLSearchParams; status: number; body: Record<string, unknown> }[];
  /**
   * The next answer to a request matching `match` is changed by `rewrite` on its way to the app
   * (the server did its work as usual: what it issued is live there). Tests make a real server's
   * answer one the app refuses.
   */
  rewriteNextAnswer(
    match: (r: SentRequest) => boolean,
    rewrite: (body: Record<string, unknown>) => Record<string, unknown>,
  ): void;
  /** Refresh grants sent to any token endpoint. */
  refreshRequests(): SentRequest[];
  /**
   * The next request matching `match` reaches the server, which answers; the answer is then lost.
   */
  loseNextResponse(match: (r: SentRequest) => boolean): void;
  /**
   * The next request matching `match` is held before it is sent (a slow network): `reached`
   * resolves when it is held, `release()` sends it. An abort of the request's signal ends the wait
   * like a real fetch.
   */
  holdNextRequest(match: (r: SentRequest) => boolean): { reached: Promise<void>; release(): void };
  /** The scripted browser used for the next sign-ins. */
  browserOptions: ScriptedBrowserOptions;
  /** Pages the browser tabs ended on. */
  tabs: Promise<unknown>[];
  observedFetch: FetchLike;
  reopen(extra?: Partial<SiteManagerOptions>): Promise<SiteManager>;
  close(): Promise<void>;
}

export async function createHarness(
  options: {
    clock?: { now(): number };
    logger?: Logger;
    extra?: Partial<SiteManagerOptions>;
    cipher?: Cipher;
    dir?: string;
  } = {},
): Promise<Harness> {
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'ld-sites-')));
  const cipher = options.cipher ?? (await createNodeCipher(join(dir, 'vault.key')));
  const sent: SentRequest[] = [];
  const losers: ((r: SentRequest) => boolean)[] = [];
  const tokenAnswers: Harness['tokenAnswers'] = [];
  const rewriters: {
    match: (r: SentRequest) => boolean;
    rewrite: (body: Record<string, unknown>) => Record<string, unknown>;
  }[] = [];
  const holds: {
    match: (r: SentRequest) => boolean;
    reached: () => void;
    released: Promise<void>;
  }[] = [];
  const observedFetch: FetchLike = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers = new Headers(init?.headers);
    const entry: SentRequest = {
      url,
      method: init?.method ?? 'GET',
      form:
        typeof init?.body === 'string' &&
        headers.get('content-type')?.includes('x-www-form-urlencoded')
          ? new URLSearchParams(init.body)
          : null,
      authorization: headers.get('authorization'),
    };
    sent.push(entry);
    const hold = holds.findIndex((x) => x.match(entry));
    if (hold >= 0) {
      const [held] = holds.splice(hold, 1);
      held!.reached();
      const signal = init?.signal;
      await new Promise<void>((resolve, reject) => {
        const aborted = (): void =>
          reject(
            signal?.reason instanceof Error
              ? signal.reason
              : new DOMException('aborted', 'AbortError'),
          );
        if (signal?.aborted) return aborted();
        signal?.addEventListener('abort', aborted, { once: true });
        void held!.released.then(() => {
          signal?.removeEventListener('abort', aborted);
          resolve();
        });
      });
    }
    const lose = losers.findIndex((m) => m(entry));
    const res = await fetch(input, init);
    if (lose >= 0) {
      losers.splice(lose, 1);
      // The server did answer (its new pair exists); the client never sees it.
      await res.text();
      throw new TypeError('fetch failed', { cause: new Error('socket hang up') });
    }
    const rewriter = rewriters.findIndex((x) => x.match(entry));
    if (entry.form?.has('grant_type') || rewriter >= 0) {
      const text = await res.text();
      let body: Record<string, unknown> | null = null;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = null;
      }
      if (body !== null && entry.form?.has('grant_type'))
        tokenAnswers.push({ form: entry.form, status: res.status, body });
      let out = text;
      if (rewriter >= 0 && body !== null) {
        const [r] = rewriters.splice(rewriter, 1);
        out = JSON.stringify(r!.rewrite(body));
      }
      const headers = new Headers(res.headers);
      headers.delete('content-length');
      headers.delete('content-encoding');
      return new Response(out, { status: res.status, statusText: res.statusText, headers });
    }
    return res;
  };
  const h: Harness = {
    manager: null as unknown as SiteManager,
    dir,
    cipher,
    sent,
    tokenAnswers,
    rewriteNextAnswer: (match, rewrite) => rewriters.push({ match, rewrite }),
    refreshRequests: () => sent.filter((r) => r.form?.get('grant_type') === 'refresh_token'),
    loseNextResponse: (m) => losers.push(m),
    holdNextRequest(match) {
      let reached!: () => void;
      let release!: () => void;
      const reachedP = new Promise<void>((r) => (reached = r));
      holds.push({ match, reached, released: new Promise<void>((r) => (release = r)) });
      return { reached: reachedP, release };
    },
    browserOptions: {},
    tabs: [],
    observedFetch,
    async reopen(extra = {}) {
      await h.manager?.close();
      h.manager = await createSiteManager({
        dataDir: dir,
        cipher,
        fetch: observedFetch,
        clock: options.clock,
        logger: options.logger,
        openExternal: (url) => {
          const tab = createScriptedBrowser(h.browserOptions).open(url);
          tab.catch(() => undefined);
          h.tabs.push(tab);
        },
        ...options.extra,
        ...extra,
      });
      return h.manager;
    },
    async close() {
      await h.manager.close();
      await Promise.allSettled(h.tabs);
      if (!options.dir) await rm(dir, { recursive: true, force: true });
    },
  };
  await h.reopen();
  return h;
}

/** Asks the token endpoint directly whether a refresh token still works (the server's verdict). */
export async function refreshTokenWorks(
  tokenEndpoint: string,
  refreshToken: string,
  clientId: string,
  clientSecret: string | null = null,
): Promise<{ status: number; error: string | null }> {
  const body = new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: clientId,
  });
  if (clientSecret) body.set('client_secret', clientSecret);
  const res = await fetch(tokenEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  const json = (await res.json()) as { error?: string };
  return { status: res.status, error: json.error ?? null };
}
