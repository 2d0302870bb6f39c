import { describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { startLoopbackReceiver } from '../../../electron/core/auth/loopback-receiver';

describe('loopback redirect receiver (RFC 8252 §7.3, §8.3)', () => {
  it('listens on 127.0.0.1 with an OS-assigned port and a /callback path', async () => {
    const r = await startLoopbackReceiver();
    try {
      expect(r.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      expect(Number(new URL(r.redirectUri).port)).toBeGreaterThan(0);
    } finally {
      await r.close();
    }
  });

  it('answers other paths and the favicon with 404 without ending the sign-in', async () => {
    const r = await startLoopbackReceiver();
    const base = new URL(r.redirectUri).origin;
    try {
      for (const path of ['/favicon.ico', '/', '/callback/extra', '/other?code=x']) {
        const res = await fetch(base + path);
        expect(res.status).toBe(404);
        await res.text();
      }
      const ok = await fetch(`${r.redirectUri}?code=c1&state=s1`);
      expect(ok.status).toBe(200);
      await ok.text();
      expect((await r.callback).get('code')).toBe('c1');
    } finally {
      await r.close();
    }
  });

  it('takes exactly one callback, then stops listening', async () => {
    const r = await startLoopbackReceiver();
    const res = await fetch(`${r.redirectUri}?code=first&state=s`);
    await res.text();
    await r.close();
    await expect(fetch(`${r.redirectUri}?code=second&state=s`)).rejects.toThrow();
    expect((await r.callback).get('code')).toBe('first');
  });

  it('shows a small self-contained page: success, cancelled or error, never the code', async () => {
    for (const [query, kind, title] of [
      ['code=SECRETCODE123&state=s', 'success', 'You are signed in'],
      ['error=access_denied&state=s', 'cancelled', 'Sign-in cancelled'],
      ['error=server_error&state=s', 'error', 'Sign-in did not complete'],
    ] as const) {
      const r = await startLoopbackReceiver({ classify: () => kind });
      const res = await fetch(`${r.redirectUri}?${query}`);
      const html = await res.text();
      await r.close();
      expect(html).toContain(title);
      expect(html).not.toContain('SECRETCODE123');
      expect(html).not.toMatch(/<script|<link|src=|https?:\/\//i);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });
});

describe('loopback receiver: callbacks for another attempt (RFC 6749 §10.12)', () => {
  it('answers 400 to a callback that does not belong and keeps listening for the real one', async () => {
    const r = await startLoopbackReceiver({ belongs: (p) => p.get('state') === 'the-state' });
    try {
      for (const query of [
        '',
        '?code=c&state=wrong',
        '?error=access_denied&state=wrong',
        '?error=server_error',
      ]) {
        const res = await fetch(r.redirectUri + query);
        expect(res.status).toBe(400);
        expect(await res.text()).not.toMatch(/wrong|code|access_denied/);
      }
      const ok = await fetch(`${r.redirectUri}?code=real&state=the-state`);
      expect(ok.status).toBe(200);
      await ok.text();
      expect((await r.callback).get('code')).toBe('real');
    } finally {
      await r.close();
    }
  });
});

describe('loopback receiver: only its own address (DNS rebinding; RFC 9110 §7.4)', () => {
  it('answers 421 to any Host but 127.0.0.1:<port>, and the sign-in goes on', async () => {
    const r = await startLoopbackReceiver();
    const { port } = new URL(r.redirectUri);
    try {
      for (const host of [
        `localhost:${port}`,
        `evil.example:${port}`,
        `127.0.0.1:${Number(port) + 1}`,
        '127.0.0.1',
        `[::1]:${port}`,
      ]) {
        const reply = await send(`${r.redirectUri}?code=forged&state=s`, host);
        expect(reply.status, host).toBe(421);
        expect(reply.body).not.toContain('forged');
      }
      // No Host at all: refused too (Node answers 400 before the receiver sees it).
      expect((await send(`${r.redirectUri}?code=forged&state=s`, '')).status).toBe(400);
      const ok = await send(`${r.redirectUri}?code=real&state=s`, `127.0.0.1:${port}`);
      expect(ok.status).toBe(200);
      expect((await r.callback).get('code')).toBe('real');
    } finally {
      await r.close();
    }
  });
});

/** Raw HTTP (fetch cannot forge Host). An empty `host` sends none. */
function send(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { setHost: false, headers: host === '' ? {} : { host } },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}
