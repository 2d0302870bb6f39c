/**
 * A small HTTP proxy that adds a fixed round-trip time to every request, for the sync benchmark (a
 * student in Taiwan on home Wi-Fi is ~50 ms from the site). Half the RTT before the request is
 * forwarded, half before the answer goes back, so a request costs RTT more than on loopback however
 * the bytes are split. Runs in its own process (fork it with tsx:
 * `latency-proxy.ts <target-origin> <rtt-ms>`), so its work does not count in the app's event-loop
 * delay; it reports `{ type: 'ready', url }` over IPC and stops on 'stop' or when the parent goes
 * away. Binds 127.0.0.1 port 0.
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

const [target, rttArg] = process.argv.slice(2) as [string, string];
const rtt = Number(rttArg);
const origin = new URL(target);
// Keep-alive to the site, like the app's own fetch (undici) keeps its connections to the proxy.
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

const server = createServer((req, res) => {
  const body: Buffer[] = [];
  req.on('data', (chunk: Buffer) => body.push(chunk));
  req.on('end', () => {
    void (async () => {
      await sleep(rtt / 2);
      const upstream = request(
        {
          host: origin.hostname,
          port: origin.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: origin.host },
          agent,
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => {
            void sleep(rtt / 2).then(() => {
              const headers = { ...answer.headers };
              delete headers['transfer-encoding'];
              const payload = Buffer.concat(chunks);
              res.writeHead(answer.statusCode ?? 502, {
                ...headers,
                'content-length': String(payload.length),
              });
              res.end(payload);
            });
          });
        },
      );
      upstream.on('error', () => {
        res.writeHead(502).end();
      });
      upstream.end(Buffer.concat(body));
    })();
  });
});

server.listen(0, '127.0.0.1', () => {
  process.send?.({
    type: 'ready',
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  });
});
const stop = () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
};
process.on('message', (m: { type?: string }) => {
  if (m.type === 'stop') stop();
});
process.on('disconnect', stop);
