import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, typed by use.
import { binEntry } from '../../scripts/node-tools.mjs';

/**
 * The lint on a checkout made the way GitHub's Windows runners make it: `core.autocrlf=true`, which
 * turns every text file without an attribute to CRLF, and Prettier (endOfLine "lf") then refuses
 * every file, so no Windows job gets past `npm run lint` and no installer is built for any system.
 * .gitattributes pins LF for text files.
 *
 * The committed tree is cloned (HEAD of this checkout), with the shared node_modules linked in, and
 * the three parts of `npm run lint` run in the clone as JS entry points of this Node.
 */
const git = (args: string[], cwd: string) => spawnSync('git', args, { cwd, encoding: 'utf8' });

let work: string;
let clone: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'ld-autocrlf-'));
  clone = join(work, 'clone');
  const top = git(['rev-parse', '--show-toplevel'], process.cwd()).stdout.trim();
  // --no-local: a real clone through Git's transport, as a runner's checkout is, and it works from
  // a shallow one too.
  const cloned = git(
    ['clone', '--quiet', '--no-local', '-c', 'core.autocrlf=true', top, clone],
    work,
  );
  if (cloned.status !== 0) throw new Error(`git clone failed: ${cloned.stderr}`);
  symlinkSync(realpathSync('node_modules'), join(clone, 'node_modules'), 'junction');
}, 60_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** One part of the lint, run in the clone; the three parts run side by side. */
const run = (entry: string, args: string[]) =>
  new Promise<{ status: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [entry, ...args], { cwd: clone, timeout: 240_000 });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.on('error', (error) => (output += `\n${error.message}`));
    child.on('close', (status) => resolve({ status, output: output.slice(-3000) }));
  });

describe('a checkout with core.autocrlf=true (as on GitHub’s Windows runners)', () => {
  it('is such a checkout, and its text files still end their lines with LF', () => {
    expect(git(['config', 'core.autocrlf'], clone).stdout.trim()).toBe('true');
    for (const file of [
      'package.json',
      'README.md',
      'electron/main/index.ts',
      '.github/workflows/desktop.yml',
    ]) {
      expect(readFileSync(join(clone, file), 'utf8').includes('\r\n'), file).toBe(false);
    }
    // Binary files come out byte for byte.
    const icon = git(['hash-object', 'build/icon.png'], clone).stdout.trim();
    expect(icon).toBe(git(['rev-parse', 'HEAD:build/icon.png'], clone).stdout.trim());
  });

  it('passes `npm run lint`: ESLint, Prettier’s check and the workflow check', async () => {
    const [eslint, prettier, workflows] = await Promise.all([
      run(binEntry('eslint'), ['--max-warnings=0', '.']),
      run(binEntry('prettier'), ['--check', '**/*.{ts,tsx,mjs,cjs,js}']),
      run(join(clone, 'scripts', 'lint-workflows.mjs'), []),
    ]);
    expect(eslint.status, eslint.output).toBe(0);
    expect(prettier.status, prettier.output).toBe(0);
    expect(workflows.status, workflows.output).toBe(0);
  }, 300_000);
});
