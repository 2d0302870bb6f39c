import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { describe, expect, it, onTestFinished } from 'vitest';
import { discover } from '../../electron/core/auth/discovery';
import { refreshTokens } from '../../electron/core/auth/token-client';

/**
 * The sign-in's requests (core/net: discovery, the token endpoint) against a hostile server on
 * 127.0.0.1: bodies are read only up to their limit while they stream, decompressed bytes counted,
 * and a request that trickles ends at its deadline, not only when the connection goes silent.
 */
async function hostile(answer: (path: string, res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(new URL(req.url ?? '/', 'http://x').pathname, res));
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Streams `bytes` bytes of one JSON string value; counts what was written into `sent`. */
function huge(
  res: ServerResponse,
  status: number,
  bytes: number,
  sent: { n: number },
  gzip = false,
): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    ...(gzip ? { 'content-encoding': 'gzip' } : {}),
  });
  const filler = Buffer.alloc(64 * 1024, 0x61);
  let produced = 0;
  const body = new Readable({
    read() {
      if (produced === 0) this.push('{"error":"');
      if (produced >= bytes) return void (this.push('"}'), this.push(null));
      produced += filler.length;
      sent.n += filler.length;
      this.push(filler);
    },
  });
  const out = gzip ? body.pipe(createGzip()) : body;
  out.pipe(res);
  res.on('close', () => body.destroy());
}

const MB = 1024 * 1024;

describe('sign-in requests to a hostile site', () => {
  it('a 200 MB discovery document is refused while it streams (discovery-invalid)', async () => {
    const sent = { n: 0 };
    const url = await hostile((_path, res) => huge(res, 200, 200 * MB, sent));
    await expect(discover(url, { fetch })).rejects.toMatchObject({ code: 'discovery-invalid' });
    expect(sent.n).toBeLessThan(64 * MB);
  });

  it('a gzip bomb as the discovery document is stopped at the limit, decompressed bytes counted', async () => {
    const sent = { n: 0 };
    const url = await hostile((_path, res) => huge(res, 200, 1024 * MB, sent, true));
    await expect(discover(url, { fetch })).rejects.toMatchObject({ code: 'discovery-invalid' });
    expect(sent.n).toBeLessThan(128 * MB);
  });

  it('a 200 MB error body from the token endpoint is read only to its start', async () => {
    const sent = { n: 0 };
    const url = await hostile((_path, res) => huge(res, 400, 200 * MB, sent));
    const input = {
      tokenEndpoint: `${url}/token`,
      refreshToken: 'rt',
      resource: null,
      previousScopes: [],
      schoolId: null,
      clientId: 'c',
      clientSecret: null,
    };
    await expect(
      refreshTokens(input as Parameters<typeof refreshTokens>[0], { fetch }),
    ).rejects.toMatchObject({ name: 'CoreError' });
    expect(sent.n).toBeLessThan(64 * MB);
  });

  it('a document sent one byte every 100 ms ends at the request deadline, not the idle timeout', async () => {
    const timers: NodeJS.Timeout[] = [];
    onTestFinished(() => timers.forEach(clearInterval));
    const url = await hostile((_path, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"issuer":"');
      const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write('a')), 100);
      timers.push(t);
    });
    const started = performance.now();
    await expect(discover(url, { fetch, timeoutMs: 1000 })).rejects.toMatchObject({
      name: 'CoreError',
    });
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});
