import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../helpers/server';
import type { EmbeddedServer } from '../../../embedded-server/index';

/**
 * A raw request with a chosen Host header (fetch cannot forge one): what a rebinding page's browser
 * sends.
 */
function withHost(
  server: EmbeddedServer,
  host: string,
  path: string,
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          Host: host,
          ...(body === undefined ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('Host allow-list against DNS rebinding (RFC 9110 §15.5.20: 421 Misdirected Request)', () => {
  it('answers its own origin and localhost on its port', async () => {
    const server = await startTestServer();
    expect(
      (
        await withHost(
          server,
          `127.0.0.1:${server.port}`,
          '/.well-known/oauth-authorization-server',
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await withHost(
          server,
          `LOCALHOST:${server.port}`,
          '/.well-known/oauth-authorization-server',
        )
      ).status,
    ).toBe(200);
  });

  it('refuses another name, another port and a bare loopback name with 421, before any route runs', async () => {
    const server = await startTestServer();
    for (const host of [
      `rebind.attacker.test:${server.port}`,
      'rebind.attacker.test',
      `127.0.0.1:${server.port + 1}`,
      '127.0.0.1',
      `[::1]:${server.port}`,
    ]) {
      const res = await withHost(server, host, '/.well-known/oauth-authorization-server');
      expect(res.status, host).toBe(421);
      expect(JSON.parse(res.text)).toMatchObject({ error: 'misdirected_request' });
    }
  });

  it('a rebinding page cannot sign in with the published demo password: no session cookie is set', async () => {
    const server = await startTestServer();
    const res = await withHost(
      server,
      `rebind.attacker.test:${server.port}`,
      '/sign-in',
      'email=owner%40example.com&password=owner-demo',
    );
    expect(res.status).toBe(421);
    expect(res.headers['set-cookie']).toBeUndefined();
    const page = await withHost(server, `rebind.attacker.test:${server.port}`, '/admin');
    expect(page.status).toBe(421);
    expect(page.text).not.toContain('Demo School');
  });
});
