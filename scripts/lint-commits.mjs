#!/usr/bin/env node
// Part of `npm run lint`: every commit subject after FIRST_CHECKED_PARENT (merge commits too) is at
// most 72 characters, the length docs/ARCHITECTURE.md ("Conventions") states and
// `git log --oneline` shows whole. Usage: node scripts/lint-commits.mjs [repository directory]
// [first checked parent] (defaults: the working directory and FIRST_CHECKED_PARENT; the tests pass
// their own).
import { spawnSync } from 'node:child_process';

// The repository's HEAD when the rule was made: subjects before it were written before the rule and
// are not checked.
const FIRST_CHECKED_PARENT = 'f648ca6912e36db4948eda09bfb8401e8024bd8c';
// Commits merged into main after that point while the rule was being written, before it could hold
// them: their subjects stay as they are (rewording them would rewrite main's history).
const WRITTEN_BEFORE_THE_RULE = new Set([
  '710c55bbe20f483de3aead4798cc7c27377d32f8', // 73 characters
  '5e05d395478c7c7fbf9ee986294ae0e4635067b2', // 74 characters
  'd84dc9937da7feec8692057469a8f2ec31370ecd', // 73 characters
  '2e0e5c8137c01026fa2e233fe50ed178cd516017', // 75 characters
  '70169208b5fa53d16bb58b6a6c7a97246f0cf454', // 76 characters
]);
const MAX_SUBJECT = 72;
// GitHub's checkout of a pull request is a test merge it makes itself ("Merge <sha> into <sha>"),
// never pushed.
const GITHUB_TEST_MERGE = /^Merge [0-9a-f]{40} into [0-9a-f]{40}$/;

const cwd = process.argv[2] ?? process.cwd();
const start = process.argv[3] ?? FIRST_CHECKED_PARENT;
const git = (...args) => spawnSync('git', args, { cwd, encoding: 'utf8' });

if (git('rev-parse', '--git-dir').status !== 0) {
  console.log('lint-commits: not a git repository; commit subjects not checked.');
  process.exit(0);
}
if (git('cat-file', '-e', `${start}^{commit}`).status !== 0) {
  const shallow = git('rev-parse', '--is-shallow-repository').stdout.trim() === 'true';
  console.log(
    `lint-commits: commit ${start.slice(0, 12)}, where the subject check starts, is not in this clone` +
      (shallow ? ' (a shallow clone: `git fetch --unshallow` brings it)' : '') +
      '; commit subjects not checked.',
  );
  process.exit(0);
}
if (git('merge-base', '--is-ancestor', start, 'HEAD').status !== 0) {
  console.log(
    `lint-commits: HEAD does not descend from ${start.slice(0, 12)}; commit subjects not checked.`,
  );
  process.exit(0);
}

const log = git('log', '--format=%H%x09%s', `${start}..HEAD`);
if (log.status !== 0) {
  console.error(`lint-commits: git log failed: ${log.stderr.trim()}`);
  process.exit(1);
}
const tooLong = log.stdout
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => ({
    hash: line.slice(0, line.indexOf('\t')),
    subject: line.slice(line.indexOf('\t') + 1),
  }))
  .filter(
    ({ hash, subject }) =>
      [...subject].length > MAX_SUBJECT &&
      !GITHUB_TEST_MERGE.test(subject) &&
      !WRITTEN_BEFORE_THE_RULE.has(hash),
  );
for (const { hash, subject } of tooLong) {
  console.error(
    `lint-commits: ${hash.slice(0, 12)} has a subject of ${[...subject].length} characters (at most ${MAX_SUBJECT}): ${subject}`,
  );
}
if (tooLong.length > 0) {
  console.error('lint-commits: shorten them with `git rebase -i` (reword) before they are pushed.');
  process.exit(1);
}
