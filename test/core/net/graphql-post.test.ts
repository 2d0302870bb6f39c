import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { isCoreError } from '../../../electron/core/errors';
import { postGraphQL } from '../../../electron/core/net/graphql-post';

/**
 * The writer worker's HTTP client for the sync's pages (electron/core/net/graphql-post.ts), over
 * real sockets on 127.0.0.1: what it sends, what it hands back, and how it gives up on a site that
 * goes silent.
 */
async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  const held = new Set<Socket>();
  server.on('connection', (socket) => {
    held.add(socket);
    socket.on('close', () => held.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    for (const socket of held) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/member/graphql`,
  };
}

const signal = () => new AbortController().signal;

describe('the writer worker HTTP client (postGraphQL)', () => {
  it('posts the query with the bearer token and hands back the body bytes of a 2xx answer, and the start of any other', async () => {
    const seen: { authorization?: string; body: string; connection?: string }[] = [];
    let status = 200;
    const { url } = await listen((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({
          authorization: req.headers.authorization,
          body,
          connection: req.headers.connection,
        });
        if (status === 200)
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end('{"data":{"viewer":{"id":"u1"}}}');
        else
          res
            .writeHead(status, { 'www-authenticate': 'Bearer error="invalid_token"' })
            .end('x'.repeat(10_000));
      });
    });
    const ok = await postGraphQL({
      url,
      token: 'at_test',
      query: '{ viewer { id } }',
      variables: { first: 2 },
      signal: signal(),
    });
    expect(ok.status).toBe(200);
    expect(ok.wwwAuthenticate).toBeNull();
    expect(JSON.parse(Buffer.from(ok.body as Uint8Array).toString('utf8'))).toEqual({
      data: { viewer: { id: 'u1' } },
    });
    expect(seen[0]).toMatchObject({ authorization: 'Bearer at_test', connection: 'keep-alive' });
    expect(JSON.parse(seen[0]!.body)).toEqual({
      query: '{ viewer { id } }',
      variables: { first: 2 },
    });

    status = 401;
    const refused = await postGraphQL({
      url,
      token: 'at_test',
      query: '{ viewer { id } }',
      signal: signal(),
    });
    expect(refused).toMatchObject({ status: 401, wwwAuthenticate: 'Bearer error="invalid_token"' });
    expect(refused.body).toBe('x'.repeat(4096));
  });

  it('a site that takes the request and goes silent is given up after the idle timeout, as site-unreachable', async () => {
    const { url } = await listen((req) => req.resume());
    const error = await postGraphQL({
      url,
      token: 'at_test',
      query: '{ viewer { id } }',
      signal: signal(),
      idleTimeoutMs: 100,
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isCoreError(error, 'site-unreachable')).toBe(true);
    expect((error as Error).message).toBe('The site did not answer in time.');
  });

  it('the idle timeout does not outlive its request: a kept-alive connection serves the next page after a pause', async () => {
    const sockets = new Set<unknown>();
    const { url } = await listen((req, res) => {
      sockets.add(req.socket);
      req.resume();
      req.on('end', () =>
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{}}'),
      );
    });
    const post = () =>
      postGraphQL({
        url,
        token: 'at_test',
        query: '{ viewer { id } }',
        signal: signal(),
        idleTimeoutMs: 100,
      });
    expect((await post()).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await post()).status).toBe(200);
    // One connection for both: the first request's timer did not destroy it while it waited in the
    // pool.
    expect(sockets.size).toBe(1);
  });

  it('an aborted request ends as sync-cancelled', async () => {
    const { url } = await listen((req) => req.resume());
    const controller = new AbortController();
    const pending = postGraphQL({
      url,
      token: 'at_test',
      query: '{ viewer { id } }',
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toSatisfy((e) => isCoreError(e, 'sync-cancelled'));
  });
});
