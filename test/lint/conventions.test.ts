import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { trackerReferences } from '../../scripts/lint/tracker-refs-rule';

// The conventions of docs/ARCHITECTURE.md ("Conventions") that lint keeps: each rule must fire, and
// must leave alone what the convention allows. Sources are linted as if they lived at the given
// path, so the real config decides.
const eslint = new ESLint({ cwd: process.cwd() });

async function messages(ruleId: string, filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === ruleId).map((m) => m.message);
}

describe('no tracker references in comments and test names (local/no-tracker-refs)', () => {
  const flagged = [
    'One process per data folder (issue 11, item 2).',
    'see issue #12',
    'Issues 11 and 12 asked for it.',
    'Issue 14 items 4 and 5 through the host',
    'fixes #38',
    'the review (#38) found it',
    '#38: the menu',
    'the sign-in doctor (item 2)',
    'as PR #4 did',
  ];
  for (const text of flagged) {
    it(`finds a reference in: ${JSON.stringify(text)}`, () => {
      expect(trackerReferences(text)).not.toEqual([]);
    });
  }

  const allowed = [
    'RFC 6749 §10.12: only the answer carrying this attempt state ends the wait.',
    'RFC 5545 §3.3.5 form #2, UTC',
    'Electron security checklist #13, #14: the window navigates nowhere',
    'Unicode bidirectional formatting characters (UAX #9 §2)',
    'answers 400 and 413 like other refusals; 150 aliased selections returned 3 MB',
    'the #root element and colour #111',
    'one item 2 columns wide',
  ];
  for (const text of allowed) {
    it(`leaves alone: ${JSON.stringify(text)}`, () => {
      expect(trackerReferences(text)).toEqual([]);
    });
  }

  it('fires on a line comment, a block comment, a JSX comment and a test name, in every folder', async () => {
    const rule = 'local/no-tracker-refs';
    expect(
      await messages(
        rule,
        'electron/core/sync/x.ts',
        '// Bounded (issue 11).\nexport const a = 1;\n',
      ),
    ).toHaveLength(1);
    expect(
      await messages(
        rule,
        'embedded-server/x.ts',
        '/** Hot paths (issue 13). */\nexport const a = 1;\n',
      ),
    ).toHaveLength(1);
    expect(
      await messages(
        rule,
        'renderer/src/x.tsx',
        'export const A = () => <div>{/* commands (issue 12) */}</div>;\n',
      ),
    ).toHaveLength(1);
    expect(
      await messages(rule, 'scripts/x.mjs', '// fixes #38\nexport const a = 1;\n'),
    ).toHaveLength(1);
    const test =
      "import { describe, it } from 'vitest';\ndescribe('pages (issue 6)', () => {\n  it.each([1])(`row %s (issue 6)`, () => {});\n});\n";
    expect(await messages(rule, 'test/core/x.test.ts', test)).toHaveLength(2);
    expect(
      await messages(
        rule,
        'test/e2e/x.spec.ts',
        "import { test } from '@playwright/test';\ntest.describe('host (issue 12)', () => {});\n",
      ),
    ).toHaveLength(1);
  });

  it('leaves a string that is not a test name alone', async () => {
    expect(
      await messages(
        'local/no-tracker-refs',
        'electron/core/x.ts',
        "export const title = 'issue 12';\n",
      ),
    ).toEqual([]);
  });
});

// What ESLint does not read (Markdown, SQL, workflows) is held to the same rule here.
describe('no tracker references in the prose and SQL beside the code', () => {
  const folders = ['electron', 'renderer', 'embedded-server', 'scripts', 'test', '.github'];
  const files = folders.flatMap((folder) =>
    readdirSync(folder, { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.(md|sql|ya?ml)$/.test(f) && !f.includes('node_modules'))
      .map((f) => join(folder, f)),
  );

  it('finds the files it reads', () => {
    expect(files).toContain(join('test', 'bench', 'README.md'));
  });

  it('finds no reference in any of them', () => {
    const found = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => trackerReferences(line).map((ref) => `${file}:${i + 1}: ${ref}`)),
    );
    expect(found).toEqual([]);
  });
});

describe('a doc comment stays with its entry (local/doc-attached)', () => {
  const rule = 'local/doc-attached';

  it('fires on two doc comments in a row: the first has lost its entry', async () => {
    const code =
      "export const channels = {\n  /** The first. */\n  /** The second. */\n  'b:get': 2,\n  'a:get': 1,\n};\n";
    expect(await messages(rule, 'electron/common/x.ts', code)).toHaveLength(1);
  });

  it('fires on a blank line between a member and its doc comment', async () => {
    const code = 'export interface A {\n  /** The id. */\n\n  id: string;\n}\n';
    expect(await messages(rule, 'electron/common/x.ts', code)).toHaveLength(1);
  });

  it('fires on a doc comment left at the end of a member list', async () => {
    const code = 'export class A {\n  x = 1;\n  /** What y is. */\n}\n';
    expect(await messages(rule, 'electron/common/x.ts', code)).toHaveLength(1);
  });

  it("allows a module's doc followed by a blank line, and docs right above their entries", async () => {
    const code = [
      "import { z } from 'zod';",
      '',
      '/** The module: what it is for. */',
      '',
      '/** An id. */',
      'export const id = z.string();',
      'export const channels = {',
      '  /** The first. */',
      "  'a:get': 1,",
      '  // A plain comment may stand alone.',
      '',
      "  'b:get': 2,",
      '};',
      '',
    ].join('\n');
    expect(await messages(rule, 'electron/common/x.ts', code)).toEqual([]);
  });
});
