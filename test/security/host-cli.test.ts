/**
 * The browser host as it is run (`tsx electron/browser-host/cli.ts`): the per-launch secret is
 * printed once, in the launch URL, and an unexpected error deep in the process prints no token (the
 * host installs log.ts installCrashGuards). A child process, a temp data dir, and a canary thrown
 * on a signal.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../../electron/browser-host/cli.ts', import.meta.url));
const CRASHER = fileURLToPath(new URL('./helpers/crash-on-signal.ts', import.meta.url));

describe('browser host CLI: the launch secret printed once, crash output without tokens', () => {
  const canary = `at_${randomBytes(30).toString('base64url')}`;
  let dir: string;
  let child: ChildProcess;
  let output = '';
  let beforeCrash = '';
  let exitCode: number | null = null;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ld-sec-cli-'));
    child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        CRASHER,
        CLI,
        '--no-open',
        '--port',
        '0',
        '--data-dir',
        join(dir, 'data'),
      ],
      {
        env: { ...process.env, LD_SEC_CANARY: canary },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout!.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString('utf8')));
    const exited = new Promise<void>((resolve) =>
      child.on('exit', (code) => ((exitCode = code), resolve())),
    );
    // On a clean clone the CLI first builds the renderer (as `npm run demo` does): allow for it.
    const deadline = Date.now() + 150_000;
    while (!/running at http/.test(output) && Date.now() < deadline && exitCode === null)
      await new Promise((r) => setTimeout(r, 100));
    beforeCrash = output;
    child.kill('SIGUSR2');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  }, 180_000);

  afterAll(() => {
    if (exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the launch URL, with its secret, exactly once', () => {
    const m = /running at (http:\/\/127\.0\.0\.1:\d+\/\?launch=([A-Za-z0-9_-]+))/.exec(beforeCrash);
    expect(m).not.toBeNull();
    const secret = m![2]!;
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(output.split(secret).length - 1).toBe(1);
  });

  it('the process did crash with the canary in scope (the next test is not vacuous)', () => {
    expect(exitCode).not.toBe(0);
    expect(exitCode).not.toBeNull();
  });

  // The CLI installs the crash guards first thing and prints only the error's class and code.
  it('the crash output does not carry the token', () => {
    expect(output).not.toContain(canary);
  });
});
