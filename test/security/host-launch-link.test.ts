/**
 * The browser host as it is run, with the system browser stood in for by a script named `xdg-open`
 * that records its command line, which every account on the computer can read (/proc/<pid>/cmdline,
 * `ps`). The command line holds only the path of a page the student alone can read; the link in
 * that page, and the one printed, open the app once and nothing after.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../browser-host/http';

const CLI = fileURLToPath(new URL('../../electron/browser-host/cli.ts', import.meta.url));

describe.skipIf(process.platform === 'win32')(
  'browser host launch link: nothing replayable on a command line',
  () => {
    let dir: string;
    let child: ChildProcess;
    let output = '';
    let openerArgs: string[] = [];

    const until = async (test: () => boolean, what: string) => {
      const deadline = Date.now() + 150_000;
      while (!test()) {
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`gave up waiting for ${what}: ${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'ld-sec-launch-'));
      const bin = join(dir, 'bin');
      const record = join(dir, 'opener-argv.json');
      // The opener: records its arguments (one JSON array), as another account would read them from
      // /proc.
      writeFileSync(
        join(dir, 'opener.mjs'),
        `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)));\n`,
      );
      mkdirSync(bin);
      writeFileSync(
        join(bin, 'xdg-open'),
        `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(dir, 'opener.mjs'))} "$@"\n`,
      );
      chmodSync(join(bin, 'xdg-open'), 0o755);
      child = spawn(
        process.execPath,
        ['--import', 'tsx', CLI, '--port', '0', '--data-dir', join(dir, 'data')],
        {
          env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` },
          stdio: ['pipe', 'pipe', 'pipe'],
        },
      );
      child.stdout!.on('data', (c: Buffer) => (output += c.toString('utf8')));
      child.stderr!.on('data', (c: Buffer) => (output += c.toString('utf8')));
      await until(() => /running at http/.test(output), 'the launch link');
      await until(() => {
        try {
          openerArgs = JSON.parse(readFileSync(record, 'utf8')) as string[];
          return true;
        } catch {
          return false;
        }
      }, 'the opener');
    }, 180_000);

    afterAll(async () => {
      // The host writes into its data folder while it shuts down: the folder goes once it has
      // exited.
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const late = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(late);
      }
      rmSync(dir, { recursive: true, force: true });
    }, 30_000);

    const origin = () => /running at (http:\/\/127\.0\.0\.1:\d+)\//.exec(output)![1]!;

    it('the opener is given a file path, never a link: its command line holds no token', () => {
      expect(openerArgs).toHaveLength(1);
      const [path] = openerArgs;
      expect(path).toMatch(/open-\d+\.html$/);
      expect(path).not.toMatch(/launch=|secret=|http:/);
      expect(statSync(path!).mode & 0o777).toBe(0o600);
      // The folder it is in lets no other account in.
      expect(statSync(join(dir, 'data')).mode & 0o777).toBe(0o700);
    });

    it('the link in that page opens the app once; replayed later it opens nothing', async () => {
      const page = readFileSync(openerArgs[0]!, 'utf8');
      const link = /content="0;url=([^"]+)"/.exec(page)![1]!.replace(/&amp;/g, '&');
      expect(link.startsWith(`${origin()}/?launch=`)).toBe(true);
      const first = await send(link);
      expect(first.status).toBe(200);
      expect(String(first.headers['set-cookie'])).toMatch(/^ld_host_\d+=/);
      const replay = await send(link);
      expect(replay.status).toBe(403);
      expect(replay.headers['set-cookie']).toBeUndefined();
    });

    it('the printed link is another one, also good once; Enter prints a new one', async () => {
      const printed = /running at (\S+)/.exec(output)![1]!;
      expect(printed).not.toBe(
        /content="0;url=([^"]+)"/.exec(readFileSync(openerArgs[0]!, 'utf8'))![1],
      );
      expect((await send(printed)).status).toBe(200);
      expect((await send(printed)).status).toBe(403);
      child.stdin!.write('\n');
      await until(() => /A new link to open the app: \S+/.test(output), 'a new link');
      const fresh = /A new link to open the app: (\S+)/.exec(output)![1]!;
      expect((await send(fresh)).status).toBe(200);
      expect((await send(fresh)).status).toBe(403);
    });
  },
);
