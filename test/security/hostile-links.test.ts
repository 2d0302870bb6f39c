import { describe, expect, it } from 'vitest';
import { externalUrl } from '../../electron/common/external-url';
import { getEntitlements } from '../../electron/core/db';
import { syncLinks } from './helpers/synced-links';

/**
 * Addresses a site sends that would leave the app (download and join links): real HTTP on
 * 127.0.0.1, the real sync, the real view. Only https (http on loopback) without credentials is
 * offered; anything else is null in the view model, marked `urlRefused` so the screen says why. The
 * hosts (Electron's window-open handler and openExternal, the browser host's openExternal) use the
 * same check, common/external-url.ts.
 */
const NOW = new Date('2026-06-01T00:00:00.000Z');

const HOSTILE = [
  'file:///etc/passwd',
  'smb://evil.example/share',
  'ms-msdt:/id PCWDiagnostic /skip force',
  'vscode://vscode.git/clone?url=https://evil.example/x',
  'data:text/html,<script>alert(1)</script>',
  'javascript:alert(1)',
  'https://user:pass@evil.example/',
  'https://token@evil.example/',
  'http://evil.example/join',
];

describe('links a site sends (download, join)', () => {
  it.each(HOSTILE)('%s is refused by the one check', (url) => {
    expect(externalUrl(url)).toBeNull();
  });

  it('https, and http on loopback, pass as they are', () => {
    expect(externalUrl('https://school.example/files/a.pdf?x=1')).toBe(
      'https://school.example/files/a.pdf?x=1',
    );
    expect(externalUrl('http://127.0.0.1:4000/join')).toBe('http://127.0.0.1:4000/join');
    expect(externalUrl('http://[::1]:4000/join')).toBe('http://[::1]:4000/join');
    expect(externalUrl(42)).toBeNull();
  });

  it('a hostile site: every refused link is null in the view model and marked, the https ones are kept', async () => {
    const { db, outcome } = await syncLinks('https://school.example/ok', HOSTILE);
    expect(outcome).toBe('completed');
    const view = getEntitlements(db, 'hostile', NOW);
    const links = [
      ...view.digitalProducts.map((p) => [p.downloadUrl, p.urlRefused]),
      ...view.eventRegistrations.map((e) => [e.joinUrl, e.urlRefused]),
    ];
    expect(links.length).toBeGreaterThan(2);
    expect(links).toContainEqual(['https://school.example/ok', undefined]);
    for (const [url, refused] of links) {
      if (url === null) expect(refused).toBe(true);
      else expect(externalUrl(url)).toBe(url);
    }
    expect(links.filter(([url]) => url === null).length).toBeGreaterThan(0);
  });
});
