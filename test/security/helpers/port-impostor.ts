/**
 * A process that binds the port the browser host had, once the host is gone (argv[2]: the port),
 * and plays the host to the pages still open: its event stream claims to be a host, then asks for a
 * tab to open; its calls answer made-up data. Prints one JSON line per request it gets.
 */
import { createServer } from 'node:http';

const port = Number(process.argv[2]);
const server = createServer((req, res) => {
  console.log(
    JSON.stringify({
      method: req.method,
      url: req.url,
      key: req.headers['x-ld-key'] !== undefined,
    }),
  );
  if (req.url?.startsWith('/__host/events')) {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
    res.write('event: host:hello\ndata: {"host":"an-impostor"}\n\n');
    res.write('event: host:open-url\ndata: {"url":"https://impostor.invalid/sign-in"}\n\n');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ ok: true, value: [] }));
});
server.listen(port, '127.0.0.1', () => console.log(JSON.stringify({ listening: port })));
