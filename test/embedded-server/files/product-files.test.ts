import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../helpers/server';
import type { EmbeddedServer } from '../../../embedded-server/index';
import { renderProductFile } from '../../../embedded-server/files/generate';
import { mintToken, viewerData } from '../member-api/tokens';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The demo's product files over real HTTP: who may fetch them, ranges, conditional requests, the
 * demo faults.
 */
async function productUrls(server: EmbeddedServer): Promise<Map<string, string | null>> {
  const data = await viewerData(
    server,
    '{ viewer { digitalProducts(first: 20) { nodes { id downloadUrl } } } }',
  );
  return new Map(
    (data.digitalProducts.nodes as Json[]).map((n) => [
      n.id as string,
      n.downloadUrl as string | null,
    ]),
  );
}

function get(
  url: string,
  token: string | null,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
}

describe('product files (GET /files/products/<id>/<name>)', () => {
  it('serves each delivered product a real, deterministic file of its type, at the absolute address the API gives', async () => {
    const server = await startTestServer();
    const urls = await productUrls(server);
    expect([...urls.keys()].sort()).toEqual([
      'dlv_focus_audio',
      'dlv_grammar_poster',
      'dlv_listening_drills',
      'dlv_sql_cheatsheet',
    ]);
    const { accessToken } = mintToken(server, { scopes: ['account:read'] });
    const pdf = await get(urls.get('dlv_sql_cheatsheet')!, accessToken);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.subarray(-6).toString()).toBe('%%EOF\n');
    expect(pdf.headers.get('repr-digest')).toBe(
      `sha-256=:${createHash('sha256').update(bytes).digest('base64')}:`,
    );
    expect(pdf.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    const png = Buffer.from(
      await (await get(urls.get('dlv_grammar_poster')!, accessToken)).arrayBuffer(),
    );
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    const wav = Buffer.from(
      await (await get(urls.get('dlv_listening_drills')!, accessToken)).arrayBuffer(),
    );
    expect(wav.subarray(8, 12).toString()).toBe('WAVE');
    expect(
      renderProductFile('dgp_x', 'X', 'x.pdf')!.equals(renderProductFile('dgp_x', 'X', 'x.pdf')!),
    ).toBe(true);
  });

  it('needs the member token of a member the product was delivered to, and refuses an ended access', async () => {
    const server = await startTestServer();
    const urls = await productUrls(server);
    const url = urls.get('dlv_sql_cheatsheet')!;
    expect((await get(url, null)).status).toBe(401);
    expect((await get(url, mintToken(server, { scopes: ['openid'] }).accessToken)).status).toBe(
      403,
    );
    // Another member (the owner holds no delivery): like an unknown product.
    expect(
      (
        await get(
          url,
          mintToken(server, { scopes: ['account:read'], userId: 'usr_owner' }).accessToken,
        )
      ).status,
    ).toBe(404);
    const member = mintToken(server, { scopes: ['account:read'] }).accessToken;
    const expired = await get(urls.get('dlv_focus_audio')!, member);
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as Json).error).toBe('access_expired');
    expect((await get(url.replace('sql-cheat-sheet.pdf', 'other.pdf'), member)).status).toBe(404);
  });

  it('answers byte ranges under If-Range, and 304 to If-None-Match', async () => {
    const server = await startTestServer();
    const url = (await productUrls(server)).get('dlv_sql_cheatsheet')!;
    const token = mintToken(server, { scopes: ['account:read'] }).accessToken;
    const whole = await get(url, token);
    const body = Buffer.from(await whole.arrayBuffer());
    const etag = whole.headers.get('etag')!;
    const part = await get(url, token, { range: 'bytes=100-', 'if-range': etag });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-${body.length - 1}/${body.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(body.subarray(100))).toBe(true);
    const stale = await get(url, token, { range: 'bytes=100-', 'if-range': '"not-it"' });
    expect(stale.status).toBe(200);
    expect(Buffer.from(await stale.arrayBuffer()).length).toBe(body.length);
    expect((await get(url, token, { range: `bytes=${body.length}-` })).status).toBe(416);
    const same = await get(url, token, { 'if-none-match': etag });
    expect(same.status).toBe(304);
    const head = await fetch(url, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(head.headers.get('content-length')).toBe(String(body.length));
  });

  it('obeys the demo faults: 404, 410, a cut halfway', async () => {
    const server = await startTestServer();
    const url = (await productUrls(server)).get('dlv_sql_cheatsheet')!;
    const token = mintToken(server, { scopes: ['account:read'] }).accessToken;
    server.setFaults({ downloadFault: 'not-found' });
    expect((await get(url, token)).status).toBe(404);
    server.setFaults({ downloadFault: 'gone' });
    expect((await get(url, token)).status).toBe(410);
    server.setFaults({ downloadFault: 'cut' });
    const cut = await get(url, token);
    expect(cut.status).toBe(200);
    await expect(cut.arrayBuffer()).rejects.toThrow();
    expect(() => server.setFaults({ downloadFault: 'explode' as never })).toThrow(/downloadFault/);
  });
});
