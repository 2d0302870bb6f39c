import { request as httpRequest } from 'node:http';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Raw HTTP (node:http, not fetch): the tests must set Host and Origin headers a browser would not
 * let us forge.
 */
export function send(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: init.method ?? 'GET', headers: init.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}

/**
 * What a page holds once its launch link is opened: the session cookie and the page key
 * (browser-host/sessions.ts).
 */
export interface HostSession {
  readonly cookie: string;
  readonly key: string;
  /** The launch page itself. */
  readonly page: Reply;
  /** The headers the bridge sends on a call or on the event stream. */
  headers(origin: string, extra?: Record<string, string>): Record<string, string>;
}

/**
 * Opens a launch link as the browser does and reads the cookie and the page key from the launch
 * page.
 */
export async function openSession(
  launchUrl: string,
  headers: Record<string, string> = {},
): Promise<HostSession> {
  const page = await send(launchUrl, { headers });
  if (page.status !== 200) throw new Error(`launch link refused: ${page.status}`);
  const cookie = String(page.headers['set-cookie']).split(';')[0]!;
  const key = (
    JSON.parse(
      /<script type="application\/json" id="ld-host-session">([^<]*)<\/script>/.exec(
        page.body,
      )![1]!,
    ) as { key: string }
  ).key;
  return {
    cookie,
    key,
    page,
    headers: (origin, extra = {}) => ({ cookie, origin, 'x-ld-key': key, ...extra }),
  };
}

/**
 * Opens the event stream as the bridge does (a POST with the page key); resolves once the host
 * answered.
 */
export function openStream(
  url: string,
  headers: Record<string, string>,
): Promise<{
  status: number;
  text: () => string;
  until: (marker: string | RegExp) => Promise<string>;
  close: () => void;
}> {
  return new Promise((resolve, reject) => {
    let text = '';
    const waiters = new Set<() => void>();
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      res.on('data', (c: Buffer) => {
        text += c.toString('utf8');
        for (const w of waiters) w();
      });
      res.on('end', () => {
        for (const w of waiters) w();
      });
      const until = (marker: string | RegExp) =>
        new Promise<string>((done, fail) => {
          const check = () => {
            if (typeof marker === 'string' ? text.includes(marker) : marker.test(text))
              return (waiters.delete(check), done(text));
            if (res.readableEnded)
              return (
                waiters.delete(check),
                fail(new Error(`stream ended before ${String(marker)}: ${text}`))
              );
          };
          waiters.add(check);
          check();
        });
      resolve({ status: res.statusCode ?? 0, text: () => text, until, close: () => req.destroy() });
    });
    req.on('error', (e) => (text === '' ? reject(e) : undefined));
    req.end();
  });
}
