import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_HOST_PATHS } from '../../electron/common/ipc-names';
import { createHostFiles, PRINT_SCRIPT } from '../../electron/browser-host/files';
import { startBrowserHost, type BrowserHost } from '../../electron/browser-host/server';
import type { ExportFile, FileDelivery } from '../../electron/core/export/service';
import { createTestCore } from '../helpers/test-core';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(url: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const CSV: ExportFile = {
  kind: 'csv',
  fileName: 'purchases-school.example.com-2026-06-10.csv',
  mimeType: 'text/csv; charset=utf-8',
  body: '\uFEFF訂單編號,金額\r\nT1,1200\r\n',
};
const RECEIPT: ExportFile = {
  kind: 'receipt',
  fileName: 'receipt-T1.pdf',
  mimeType: 'text/html; charset=utf-8',
  body: '<!doctype html><title>r</title><p>no script</p>',
  printView:
    '<!doctype html><title>r</title><script src="/__host/print.js" defer></script><p>print view</p>',
};

describe('browser host: files the student asked for, as one-time downloads behind the session (real HTTP)', () => {
  let dir: string;
  let host: BrowserHost;
  let deliver: FileDelivery;
  let cookie: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ld-bhost-files-'));
    const rendererDir = join(dir, 'renderer');
    mkdirSync(rendererDir);
    writeFileSync(
      join(rendererDir, 'index.html'),
      '<!doctype html><html><head><title>t</title></head><body>app</body></html>',
    );
    host = await startBrowserHost({
      rendererDir,
      createCore: async ({ openExternal, deliverFile }) => {
        deliver = deliverFile;
        return createTestCore({ dataDir: join(dir, 'data'), openExternal, deliverFile });
      },
    });
    const session = await get(host.launchUrl());
    cookie = String(session.headers['set-cookie']).split(';')[0]!;
  });

  afterAll(async () => {
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const headers = () => ({ host: new URL(host.origin).host, cookie });

  it('a CSV is an attachment with its exact bytes (BOM included), never rendered; without the session it is refused', async () => {
    const outcome = await deliver(CSV);
    expect(outcome).toMatchObject({ kind: 'download', fileName: CSV.fileName });
    if (outcome.kind !== 'download') throw new Error('expected a download');
    expect(outcome.url).toMatch(
      new RegExp(
        `^${BROWSER_HOST_PATHS.files}[A-Za-z0-9_-]{32}/${CSV.fileName.replace(/\./g, '\\.')}$`,
      ),
    );
    const reply = await get(`${host.origin}${outcome.url}`, headers());
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(reply.headers['content-disposition']).toBe(`attachment; filename="${CSV.fileName}"`);
    expect(reply.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(reply.body.equals(Buffer.from(CSV.body, 'utf8'))).toBe(true);
    expect([...reply.body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // The address is worthless without the host's session cookie.
    expect(
      (await get(`${host.origin}${outcome.url}`, { host: new URL(host.origin).host })).status,
    ).toBe(403);
  });

  it('a receipt is a print view: its print script and nothing else may run (CSP)', async () => {
    const outcome = await deliver(RECEIPT);
    if (outcome.kind !== 'print-view') throw new Error('expected a print view');
    expect(outcome.url.endsWith('/receipt-T1.html')).toBe(true);
    const reply = await get(`${host.origin}${outcome.url}`, headers());
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(reply.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(reply.body.toString('utf8')).toBe(RECEIPT.printView);
    const script = await get(`${host.origin}${BROWSER_HOST_PATHS.print}`, headers());
    expect([script.status, script.headers['content-type'], script.body.toString('utf8')]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      PRINT_SCRIPT,
    ]);
  });

  it('an unknown or malformed address is 404 with plain words, and each file gets its own unguessable address', async () => {
    for (const path of [
      `${'A'.repeat(32)}/x.csv`,
      'short/x.csv',
      `${'A'.repeat(31)}!/x.csv`,
      `${'A'.repeat(33)}/x.csv`,
      '',
    ]) {
      const reply = await get(`${host.origin}${BROWSER_HOST_PATHS.files}${path}`, headers());
      expect([reply.status, reply.body.toString('utf8')]).toEqual([
        404,
        'This file is no longer available. Ask for it again in the app.',
      ]);
    }
    const a = await deliver(CSV);
    const b = await deliver(CSV);
    expect(a.kind === 'download' && b.kind === 'download' && a.url !== b.url).toBe(true);
  });
});

describe('host files: lifetime and bound', () => {
  it('an address works for 10 minutes, and at most 50 files are kept (the oldest go first)', async () => {
    let now = 1_000_000;
    const files = createHostFiles({ now: () => now });
    const server: Server = createServer((req, res) => {
      if (!files.serve(new URL(req.url ?? '/', 'http://x').pathname, res)) res.writeHead(500).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const first = await files.deliver(CSV);
      if (first.kind !== 'download') throw new Error('expected a download');
      now += 9 * 60_000;
      expect((await get(`${origin}${first.url}`)).status).toBe(200);
      now += 60_000;
      expect((await get(`${origin}${first.url}`)).status).toBe(404);

      const urls: string[] = [];
      for (let i = 0; i < 51; i++) {
        const o = await files.deliver(CSV);
        if (o.kind === 'download') urls.push(o.url);
      }
      expect((await get(`${origin}${urls[0]}`)).status).toBe(404);
      expect((await get(`${origin}${urls[1]}`)).status).toBe(200);
      expect((await get(`${origin}${urls[50]}`)).status).toBe(200);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
