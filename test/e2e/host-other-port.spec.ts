/**
 * The browser host against other accounts on the same computer, in Chromium: cookies are not
 * port-scoped (RFC 6265 §8.5), so a page served on another port of 127.0.0.1 receives the host's
 * session cookie; and once the host is gone, anyone may bind its port. Each attacker is its own
 * process (test/security/helpers).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';

/** Runs a helper under tsx; resolves each JSON line it prints to the waiter that matches it. */
function helper(name: string, args: readonly string[]) {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join('test/security/helpers', name), ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines: Record<string, unknown>[] = [];
  let buffer = '';
  child.stdout!.on('data', (c: Buffer) => {
    buffer += c.toString('utf8');
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      lines.push(JSON.parse(buffer.slice(0, end)) as Record<string, unknown>);
      buffer = buffer.slice(end + 1);
    }
  });
  const line = async (
    match: (l: Record<string, unknown>) => boolean,
  ): Promise<Record<string, unknown>> => {
    await expect.poll(() => lines.some(match), { timeout: 30_000 }).toBe(true);
    return lines.find(match)!;
  };
  return { child, lines, line, stop: () => child.kill('SIGKILL') };
}

test.describe('browser host: another port of 127.0.0.1', () => {
  test('a page on another port receives the cookie, and with it cannot call, stream events or read the page', async ({
    page,
    context,
    host,
  }) => {
    await page.goto(host.launchUrl());
    await expect(page.getByTestId('nav-settings')).toBeVisible({ timeout: 30_000 });
    const other = helper('other-port-listener.ts', [host.origin]);
    try {
      const { port } = (await other.line((l) => 'port' in l)) as { port: number };
      const visit = await context.newPage();
      await visit.goto(`http://127.0.0.1:${port}/`);
      type Answer = { status: number; body: string };
      const got = (await other.line((l) => 'cookie' in l)) as Record<
        'sites' | 'info' | 'events' | 'eventsGet' | 'page',
        Answer
      > & { cookie: string };
      // The premise: Chromium did send the host's cookie to the other port.
      expect(got.cookie).toContain(`ld_host_${new URL(host.origin).port}=`);
      // With it, nothing of the student's: no call, no event stream, a page without the key or any
      // data.
      expect(got.sites.status).toBe(403);
      expect(got.info.status).toBe(403);
      expect(got.sites.body).not.toContain('"ok"');
      expect(got.events.status).toBe(403);
      expect(got.events.body).not.toContain('event:');
      expect(got.eventsGet.status).toBe(405);
      expect(got.page.status).toBe(200);
      expect(got.page.body).not.toMatch(/ld-host-session|ld-first-answers|ld-first-screen/);
      // The app's own page still works: the checks refuse the other port, not everything.
      const info = await page.evaluate(() =>
        (
          globalThis as unknown as {
            learningDesktop: { invoke(c: string): Promise<{ ok: boolean }> };
          }
        ).learningDesktop.invoke('app:get-info'),
      );
      expect(info.ok).toBe(true);
    } finally {
      other.stop();
    }
  });
});

test.describe('browser host: whoever binds the port after the host stopped', () => {
  test('the open page obeys no other process on the port and says the app has stopped', async ({
    page,
    context,
  }) => {
    test.setTimeout(120_000);
    const dir = mkdtempSync(join(tmpdir(), 'ld-e2e-impostor-'));
    // The host as it is run, so it can stop the hard way (SIGKILL: no goodbye to the page).
    const cli = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'electron/browser-host/cli.ts',
        '--no-open',
        '--port',
        '0',
        '--data-dir',
        join(dir, 'data'),
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    cli.stdout!.on('data', (c: Buffer) => (output += c.toString('utf8')));
    let impostor: ReturnType<typeof helper> | null = null;
    try {
      await expect
        .poll(() => /running at (\S+)/.exec(output)?.[1], { timeout: 60_000 })
        .toBeTruthy();
      const link = /running at (\S+)/.exec(output)![1]!;
      await page.goto(link);
      await expect(page.getByTestId('nav-settings')).toBeVisible({ timeout: 30_000 });
      const popups: string[] = [];
      context.on('page', (p) => popups.push(p.url()));
      cli.kill('SIGKILL');
      impostor = helper('port-impostor.ts', [new URL(link).port]);
      await impostor.line((l) => 'listening' in l);
      const notice = page.getByTestId('host-notice');
      await expect(notice).toBeVisible({ timeout: 30_000 });
      await expect(notice).toContainText('The app has stopped');
      await page.screenshot({ path: 'test-results/screenshots/host-stopped.png' });
      // The impostor's stream was heard and refused: no tab opened, and the page calls nobody any
      // more.
      expect(impostor.lines.some((l) => String(l.url).startsWith('/__host/events'))).toBe(true);
      const calls = impostor.lines.filter((l) => String(l.url).startsWith('/__host/invoke')).length;
      const answer = await page.evaluate(() =>
        (
          globalThis as unknown as {
            learningDesktop: {
              invoke(c: string): Promise<{ ok: boolean; error?: { message: string } }>;
            };
          }
        ).learningDesktop.invoke('sites:list'),
      );
      expect(answer).toMatchObject({
        ok: false,
        error: { message: expect.stringContaining('The app has stopped') as unknown as string },
      });
      expect(impostor.lines.filter((l) => String(l.url).startsWith('/__host/invoke')).length).toBe(
        calls,
      );
      expect(popups).toEqual([]);
    } finally {
      impostor?.stop();
      cli.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
