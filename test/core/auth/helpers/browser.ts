/**
 * A tiny scripted browser for sign-in tests: keeps cookies, follows redirects by hand, fills the
 * sign-in form (email/password), presses approve or deny on the consent page (CSRF hidden inputs
 * are carried over), and finally delivers the redirect to the app's loopback receiver, exactly as
 * the system browser would.
 */
export interface ScriptedBrowserOptions {
  readonly email?: string;
  readonly password?: string;
  readonly decision?: 'approve' | 'deny';
  /** Called with the final redirect URL (to the loopback receiver) before it is requested. */
  readonly onCallback?: (url: string) => void;
  /** Rewrite the final redirect (e.g. tamper with state) before delivering it. */
  readonly rewriteCallback?: (url: URL) => URL | null;
}

export interface ScriptedBrowser {
  open(url: string): Promise<{ callbackUrl: string; status: number; body: string }>;
  /** Every URL the browser requested (for leak checks). */
  readonly visited: string[];
}

function decode(s: string): string {
  return s
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_m, n: string) => String.fromCharCode(parseInt(n, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function parseForm(html: string): { action: string; fields: Record<string, string> } | null {
  const form = /<form[^>]*method="post"[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return null;
  const fields: Record<string, string> = {};
  for (const m of (form[2] as string).matchAll(/<input[^>]*type="hidden"[^>]*>/gi)) {
    const name = /name="([^"]*)"/.exec(m[0]);
    const value = /value="([^"]*)"/.exec(m[0]);
    if (name) fields[decode(name[1] as string)] = value ? decode(value[1] as string) : '';
  }
  return { action: decode(form[1] as string), fields };
}

export function createScriptedBrowser(options: ScriptedBrowserOptions = {}): ScriptedBrowser {
  const jar = new Map<string, string>();
  const visited: string[] = [];
  const email = options.email ?? 'student@example.com';
  const password = options.password ?? 'student-demo';
  const decision = options.decision ?? 'approve';

  async function send(url: string, init: RequestInit = {}): Promise<Response> {
    visited.push(url);
    const headers = new Headers(init.headers);
    if (jar.size > 0) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = (pair as string).indexOf('=');
      jar.set((pair as string).slice(0, eq).trim(), (pair as string).slice(eq + 1).trim());
    }
    return res;
  }

  async function open(
    start: string,
  ): Promise<{ callbackUrl: string; status: number; body: string }> {
    const serverOrigin = new URL(start).origin;
    let res = await send(start);
    let current = start;
    for (let i = 0; i < 20; i++) {
      if (res.status >= 300 && res.status < 400) {
        const next = new URL(res.headers.get('location') as string, current);
        await res.body?.cancel();
        if (next.origin !== serverOrigin) {
          // The redirect leaves the site: it is the app's loopback redirect URI.
          const delivered = options.rewriteCallback ? options.rewriteCallback(next) : next;
          options.onCallback?.(next.href);
          if (delivered === null) return { callbackUrl: next.href, status: 0, body: '' };
          const final = await send(delivered.href);
          return { callbackUrl: next.href, status: final.status, body: await final.text() };
        }
        current = next.href;
        res = await send(current);
        continue;
      }
      const html = await res.text();
      const form = parseForm(html);
      if (res.status !== 200 || !form)
        throw new Error(
          `scripted browser stuck at ${current} (HTTP ${res.status}): ${html.slice(0, 300)}`,
        );
      const body = new URLSearchParams(form.fields);
      if (/name="password"/.test(html)) {
        body.set('email', email);
        body.set('password', password);
      } else if (/name="decision"/.test(html)) {
        body.set('decision', decision);
      } else {
        throw new Error(`scripted browser found an unknown form at ${current}`);
      }
      current = new URL(form.action, current).href;
      res = await send(current, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
      });
    }
    throw new Error('scripted browser: too many steps');
  }

  return { open, visited };
}
