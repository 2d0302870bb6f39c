/**
 * A tiny scripted browser for tests: keeps cookies, follows redirects by hand (fetch redirect:
 * 'manual'), fills the embedded site's sign-in form (email, password) and consent form (decision
 * approve | deny), and stops at the first URL under `stopAt` (the app's loopback redirect), which
 * it returns without fetching. Forms are read from the real HTML, hidden inputs (CSRF, request id)
 * included, like a browser would.
 */

export interface BrowserPage {
  url: string;
  status: number;
  html: string;
}

export interface AuthorizeScript {
  /**
   * Stop when a redirect points at a URL starting with this prefix (e.g.
   * 'http://127.0.0.1:54321/callback').
   */
  stopAt: string;
  email?: string;
  password?: string;
  decision?: 'approve' | 'deny';
  /** Safety bound on requests. */
  maxSteps?: number;
}

export interface ParsedForm {
  action: string;
  method: string;
  fields: Record<string, string>;
  /** Names of submit buttons with their values, e.g. { decision: ['approve', 'deny'] }. */
  buttons: Record<string, string[]>;
}

export class ScriptedBrowserError extends Error {
  constructor(
    message: string,
    readonly page?: BrowserPage,
  ) {
    super(message);
    this.name = 'ScriptedBrowserError';
  }
}

function decodeEntities(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag);
  return m ? decodeEntities(m[1]!) : undefined;
}

/** Every <form> of a page with its inputs and submit buttons. */
export function parseForms(html: string): ParsedForm[] {
  const forms: ParsedForm[] = [];
  for (const m of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const open = m[1]!;
    const inner = m[2]!;
    const fields: Record<string, string> = {};
    const buttons: Record<string, string[]> = {};
    for (const input of inner.matchAll(/<input\b[^>]*>/gi)) {
      const name = attr(input[0], 'name');
      if (!name) continue;
      const type = (attr(input[0], 'type') ?? 'text').toLowerCase();
      if (type === 'checkbox' && !/\schecked\b/i.test(input[0])) continue;
      fields[name] = attr(input[0], 'value') ?? (type === 'checkbox' ? 'on' : '');
    }
    for (const ta of inner.matchAll(/<textarea\b([^>]*)>([\s\S]*?)<\/textarea>/gi)) {
      const name = attr(ta[0], 'name');
      if (name) fields[name] = decodeEntities(ta[2]!);
    }
    for (const b of inner.matchAll(/<button\b[^>]*>/gi)) {
      const name = attr(b[0], 'name');
      const value = attr(b[0], 'value');
      if (name && value !== undefined) (buttons[name] ??= []).push(value);
    }
    forms.push({
      action: attr(`<x ${open}>`, 'action') ?? '',
      method: (attr(`<x ${open}>`, 'method') ?? 'get').toLowerCase(),
      fields,
      buttons,
    });
  }
  return forms;
}

export class ScriptedBrowser {
  /** Cookie jar keyed by host name (browsers do not separate cookies by port). */
  private readonly jar = new Map<string, Map<string, string>>();
  readonly history: string[] = [];
  lastPage: BrowserPage | null = null;

  cookieHeader(url: string): string {
    const cookies = this.jar.get(new URL(url).hostname);
    return cookies ? [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') : '';
  }

  private store(url: string, res: Response): void {
    const host = new URL(url).hostname;
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1).trim();
      let cookies = this.jar.get(host);
      if (!cookies) this.jar.set(host, (cookies = new Map()));
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (expired || value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
  }

  /** One request, no redirect following, cookies sent and kept. */
  async request(
    url: string,
    init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    const cookie = this.cookieHeader(url);
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    this.history.push(`${init.method ?? 'GET'} ${url}`);
    const res = await fetch(url, {
      method: init.method ?? (body ? 'POST' : 'GET'),
      headers,
      ...(body !== undefined ? { body } : {}),
      redirect: 'manual',
    });
    this.store(url, res);
    return res;
  }

  /**
   * GET (or the given request) and follow redirects until a page, or a URL under `stopAt` (returned
   * unfetched).
   */
  async navigate(
    url: string,
    init: { method?: string; form?: Record<string, string> } = {},
    stopAt?: string,
    maxSteps = 20,
  ): Promise<{ stoppedAt: string } | { page: BrowserPage }> {
    let current = url;
    let next: { method?: string; form?: Record<string, string> } = init;
    for (let i = 0; i < maxSteps; i++) {
      if (stopAt && current.startsWith(stopAt)) return { stoppedAt: current };
      const res = await this.request(current, next);
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        current = new URL(location, current).href;
        next = {};
        await res.arrayBuffer();
        continue;
      }
      const page = { url: current, status: res.status, html: await res.text() };
      this.lastPage = page;
      return { page };
    }
    throw new ScriptedBrowserError(`more than ${maxSteps} redirects`);
  }

  /** Submits a parsed form, optionally overriding fields and pressing a named button. */
  submit(pageUrl: string, form: ParsedForm, fields: Record<string, string>, stopAt?: string) {
    const action = new URL(form.action || pageUrl, pageUrl).href;
    return this.navigate(
      action,
      { method: form.method.toUpperCase(), form: { ...form.fields, ...fields } },
      stopAt,
    );
  }

  /**
   * Drives an authorization from its URL: signs in when the sign-in form shows, answers the consent
   * form, and returns the URL the site redirected to under `stopAt`. Throws with the page when
   * stuck.
   */
  async authorize(authorizationUrl: string, script: AuthorizeScript): Promise<string> {
    const maxSteps = script.maxSteps ?? 10;
    let result = await this.navigate(authorizationUrl, {}, script.stopAt);
    let signedIn = false;
    for (let i = 0; i < maxSteps; i++) {
      if ('stoppedAt' in result) return result.stoppedAt;
      const { page } = result;
      const forms = parseForms(page.html);
      const signIn = forms.find((f) => 'password' in f.fields || /name="password"/.test(page.html));
      const consent = forms.find((f) => f.buttons.decision);
      if (consent) {
        result = await this.submit(
          page.url,
          consent,
          { decision: script.decision ?? 'approve' },
          script.stopAt,
        );
      } else if (signIn && !signedIn) {
        signedIn = true;
        result = await this.submit(
          page.url,
          signIn,
          {
            email: script.email ?? 'student@example.com',
            password: script.password ?? 'student-demo',
          },
          script.stopAt,
        );
      } else {
        throw new ScriptedBrowserError(`stuck on ${page.url} (HTTP ${page.status})`, page);
      }
    }
    throw new ScriptedBrowserError('too many pages');
  }
}

/** One-shot helper: a fresh browser runs the authorization and returns the callback URL. */
export async function runAuthorization(
  authorizationUrl: string,
  script: AuthorizeScript,
): Promise<string> {
  return new ScriptedBrowser().authorize(authorizationUrl, script);
}
