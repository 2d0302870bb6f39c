/**
 * Crash output: an uncaught error or an unhandled rejection with a token in scope must not print
 * the token. Node's (and Electron's) default prints the error with util.inspect: message, stack,
 * properties and the whole `cause` chain. The hosts install log.ts `installCrashGuards`, which
 * prints the error's name and code only.
 */
import { fork } from 'node:child_process';
import { inspect } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CoreError } from '../../electron/core/errors';
import { describeUnexpected, installCrashGuards } from '../../electron/core/log';
import { leaksIn, SecretBag } from './helpers/canary';

const CHILD = fileURLToPath(new URL('./helpers/crash-child.ts', import.meta.url));

interface ChildRun {
  code: number | null;
  output: string;
  secrets: SecretBag;
}

function runChild(
  mode: 'guarded' | 'unguarded',
  kind: 'uncaught' | 'rejection',
): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [mode, kind], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const secrets = new SecretBag();
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.on('message', (m: { type: string; values?: string[] }) => {
      if (m.type === 'secrets') for (const v of m.values ?? []) secrets.add('other', v);
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output, secrets }));
  });
}

describe('crash output carries no token', () => {
  it("without the guards, Node's default crash output prints the token (why the hosts install them)", async () => {
    const run = await runChild('unguarded', 'rejection');
    expect(run.secrets.size).toBeGreaterThan(1);
    expect(run.code).not.toBe(0);
    expect(leaksIn(run.secrets, run.output).length).toBeGreaterThan(0);
  }, 60_000);

  it('guarded: an uncaught CoreError whose cause quotes the token prints only its name and code, and the process ends', async () => {
    const run = await runChild('guarded', 'uncaught');
    expect(run.secrets.size).toBeGreaterThan(1);
    expect(run.output).toContain(
      'Learning Desktop stopped after an unexpected error: CoreError (server-error)',
    );
    expect(run.code).toBe(1);
    expect(leaksIn(run.secrets, run.output)).toEqual([]);
  }, 60_000);

  it('guarded: an unhandled rejection with the token in its message prints only the error name', async () => {
    const run = await runChild('guarded', 'rejection');
    expect(run.secrets.size).toBeGreaterThan(1);
    expect(run.output).toContain('Learning Desktop: an operation failed unexpectedly: Error');
    expect(run.code).toBe(0);
    expect(leaksIn(run.secrets, run.output)).toEqual([]);
  }, 60_000);

  it('describeUnexpected names the error and a stable code only', () => {
    const token = 'tok_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    const cases: unknown[] = [
      new Error(token),
      new CoreError('sign-in-needed', token, { token }, { cause: new Error(token) }),
      Object.assign(new Error(token), { code: token }),
      Object.assign(new Error(token), { name: token }),
      { token },
      token,
    ];
    const lines = cases.map(describeUnexpected);
    expect(lines.slice(0, 2)).toEqual(['Error', 'CoreError (sign-in-needed)']);
    for (const l of lines) expect(l).not.toContain(token);
  });

  it('installCrashGuards writes one safe line and exits only for an uncaught exception', () => {
    const handlers = new Map<string, (e: unknown) => void>();
    const lines: string[] = [];
    const exits: number[] = [];
    installCrashGuards(
      { on: (event: string, l: (e: unknown) => void) => handlers.set(event, l) } as never,
      (l) => lines.push(l),
      (c) => exits.push(c),
    );
    handlers.get('unhandledRejection')!(new TypeError('Bearer secret-value-123456'));
    expect(exits).toEqual([]);
    handlers.get('uncaughtException')!(new Error('secret-value-123456'));
    expect(exits).toEqual([1]);
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).not.toContain('secret-value-123456');
  });

  // CoreError's inspect hook prints the code and plain-words message only, never the cause chain.
  it('util.inspect / console.error of a CoreError does not print a cause quoting a token', () => {
    const token = 'tok_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    const error = new CoreError('server-error', 'The site answered with an error.', undefined, {
      cause: new Error(`echo ${token}`),
    });
    expect(inspect(error)).not.toContain(token);
  });
});
