import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// scripts/lint-commits.mjs, the subject check of `npm run lint`, against throwaway repositories in
// temp folders.
const SCRIPT = resolve('scripts/lint-commits.mjs');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const identity = {
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.test',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.test',
};
function git(cwd: string, ...args: string[]): string {
  const run = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...identity },
  });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  return run.stdout.trim();
}
function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ld-commits-'));
  dirs.push(dir);
  git(dir, 'init', '-q', '-b', 'main');
  return dir;
}
let files = 0;
function commit(dir: string, subject: string): string {
  // A file of its own per commit, so that branches merge without a conflict.
  const file = `f${(files += 1)}.txt`;
  writeFileSync(join(dir, file), `${subject}\n`);
  git(dir, 'add', file);
  git(dir, 'commit', '-q', '-m', subject, '-m', 'A body saying why.');
  return git(dir, 'rev-parse', 'HEAD');
}
const check = (dir: string, start: string) =>
  spawnSync(process.execPath, [SCRIPT, dir, start], { encoding: 'utf8' });
const long = `Subjects like this one go on and on past the length that git log shows whole`;

describe('commit subjects after the first checked commit (scripts/lint-commits.mjs)', () => {
  it('accepts short subjects, and long ones written before the starting commit', () => {
    const dir = repo();
    commit(dir, long);
    const start = commit(dir, 'The starting commit');
    commit(dir, 'A'.repeat(72));
    const run = check(dir, start);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('fails on a subject over 72 characters, naming the commit and its length', () => {
    const dir = repo();
    const start = commit(dir, 'The starting commit');
    const bad = commit(dir, long);
    commit(dir, 'Short again');
    const run = check(dir, start);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`${bad.slice(0, 12)} has a subject of ${long.length} characters`);
  });

  it('counts a merge commit too', () => {
    const dir = repo();
    const start = commit(dir, 'The starting commit');
    git(dir, 'checkout', '-q', '-b', 'side');
    commit(dir, 'On the side');
    git(dir, 'checkout', '-q', 'main');
    commit(dir, 'On main');
    git(dir, 'merge', '-q', '--no-ff', 'side', '-m', long);
    const run = check(dir, start);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(long);
  });

  it('says so and passes in a shallow clone that lacks the starting commit', () => {
    const dir = repo();
    const start = commit(dir, 'The starting commit');
    commit(dir, long);
    commit(dir, 'The newest');
    const clone = mkdtempSync(join(tmpdir(), 'ld-commits-shallow-'));
    dirs.push(clone);
    git(clone, 'clone', '-q', '--depth=1', `file://${dir}`, '.');
    const run = check(clone, start);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('is not in this clone (a shallow clone');
    expect(run.stdout).toContain('commit subjects not checked');
  });

  it("passes on this repository's own history", () => {
    const run = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
