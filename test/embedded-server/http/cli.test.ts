import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/server';

/**
 * `npm run server`: two sites on their own ports, file databases with --data, clean exit on
 * SIGTERM.
 */
describe('CLI (embedded-server/cli.ts)', () => {
  it('starts demo and demo2, prints "listening at" for each, and exits 0 on SIGTERM', async () => {
    const prefix = join(tempDir(), 'data', 'site');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'embedded-server/cli.ts', '--port', '0', '--data', prefix, '--quiet'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const urls = await new Promise<string[]>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`no listening lines: ${out}`)), 20_000);
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const found = [...out.matchAll(/^listening at (http:\/\/127\.0\.0\.1:\d+)/gm)].map(
            (m) => m[1]!,
          );
          if (found.length === 2) {
            clearTimeout(timer);
            resolve(found);
          }
        });
        child.on('exit', (code) => reject(new Error(`exited early with ${code}`)));
      });
      expect(urls[0]).not.toBe(urls[1]);
      const [a, b] = await Promise.all(
        urls.map(
          async (u) =>
            (await (await fetch(`${u}/.well-known/oauth-authorization-server`)).json()) as {
              issuer: string;
            },
        ),
      );
      expect(a!.issuer).toBe(urls[0]);
      expect(b!.issuer).toBe(urls[1]);
      expect(existsSync(`${prefix}.demo.db`)).toBe(true);
      expect(existsSync(`${prefix}.demo2.db`)).toBe(true);
      const code = await new Promise<number | null>((resolve) => {
        child.on('exit', (c) => resolve(c));
        child.kill('SIGTERM');
      });
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
