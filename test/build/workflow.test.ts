import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * The packaged-test-build workflow. action-validator checks its schema inside `npm run lint`; these
 * tests check that the lint step really fails on a broken workflow, and that the workflow does what
 * the README promises: three systems, an unpacked test build, the Electron specs against it,
 * installers on tags.
 */
const WORKFLOW = '.github/workflows/desktop.yml';

interface Step {
  readonly name?: string;
  readonly run?: string;
  readonly if?: string;
  readonly uses?: string;
  readonly env?: Record<string, string>;
  readonly with?: Record<string, string>;
}
interface Job {
  readonly if?: string;
  readonly needs?: string;
  readonly permissions?: Record<string, string>;
  readonly strategy: { matrix: { include: Record<string, string>[] } };
  readonly steps: Step[];
}
const workflow = parse(readFileSync(WORKFLOW, 'utf8')) as {
  on: { push: { tags: string[] } };
  jobs: Record<string, Job>;
};

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const lintWorkflows = (dir?: string) =>
  spawnSync(process.execPath, ['scripts/lint-workflows.mjs', ...(dir ? [dir] : [])], {
    encoding: 'utf8',
  });

describe('workflow lint (scripts/lint-workflows.mjs, action-validator)', () => {
  it("accepts the repository's workflows", () => {
    const run = lintWorkflows();
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('fails on a workflow that breaks the schema, naming the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ld-workflows-'));
    dirs.push(dir);
    cpSync(WORKFLOW, join(dir, 'desktop.yml'));
    // A misspelt key inside a job: the kind of mistake GitHub only reports after a push.
    writeFileSync(
      join(dir, 'broken.yml'),
      readFileSync(WORKFLOW, 'utf8').replace(
        'runs-on: ${{ matrix.os }}',
        'run-on: ${{ matrix.os }}',
      ),
    );
    const run = lintWorkflows(dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('broken.yml is not a valid workflow');
    expect(run.stderr).not.toContain('desktop.yml is not a valid workflow');
  });
});

describe('desktop workflow', () => {
  const testBuild = workflow.jobs['test-build']!;
  const installers = workflow.jobs['installers']!;
  const runs = (job: Job) => job.steps.map((s) => s.run ?? '').join('\n');

  it('builds and tests on Linux, Windows and macOS', () => {
    expect(testBuild.strategy.matrix.include.map((m) => m.os)).toEqual([
      'ubuntu-latest',
      'windows-latest',
      'macos-latest',
    ]);
    expect(runs(testBuild)).toContain('npm ci');
    expect(runs(testBuild)).toContain('npm run test:unit');
    expect(runs(testBuild)).toContain('npm run typecheck && npm run lint');
  });

  it('makes an unpacked test build that differs from a release only in the inspector fuse Playwright needs', () => {
    const build = testBuild.steps.find((s) => s.run?.includes('npm run package'))!;
    expect(build.run).toContain('--dir');
    const overrides = [...build.run!.matchAll(/-c\.(\S+)/g)].map((m) => m[1]);
    expect(overrides).toEqual(['electronFuses.enableNodeCliInspectArguments=true']);
  });

  it('runs the Electron specs against the packaged executable, under Xvfb on Linux', () => {
    const specs = testBuild.steps.filter((s) => s.run?.includes('--project=electron'));
    expect(specs).toHaveLength(2);
    for (const s of specs)
      expect(s.env?.LEARNING_DESKTOP_ELECTRON_EXECUTABLE).toMatch(/matrix\.executable/);
    expect(specs.find((s) => s.if === "runner.os == 'Linux'")?.run).toMatch(/^xvfb-run /);
    for (const m of testBuild.strategy.matrix.include) expect(m.executable).toMatch(/^release\//);
  });

  it('builds the installers only for version tags, after the test build, and keeps them as artifacts', () => {
    expect(workflow.on.push.tags).toEqual(['v*']);
    expect(installers.if).toBe("startsWith(github.ref, 'refs/tags/v')");
    expect(workflow.jobs['release-draft']!.needs).toBe('test-build');
    expect(installers.needs).toBe('release-draft');
    expect(installers.strategy.matrix.include.map((m) => m.target)).toEqual([
      '--linux deb',
      '--win nsis',
      '--mac dmg zip --x64 --arm64',
    ]);
    // Release fuses: no override on the installers' build.
    expect(runs(installers)).not.toContain('-c.');
    expect(installers.steps.some((s) => s.uses?.startsWith('actions/upload-artifact@'))).toBe(true);
  });

  it('publishes each release to GitHub Releases with its update feed: drafted once, uploaded by every system, then made public', () => {
    const draft = workflow.jobs['release-draft']!;
    const release = workflow.jobs['release']!;
    expect(runs(draft)).toMatch(/gh release create "\$GITHUB_REF_NAME" .*--draft/);
    const uploads = installers.steps.filter((s) => s.run?.includes('npm run package'));
    expect(uploads).toHaveLength(2);
    for (const step of uploads) {
      expect(step.run).toContain('--publish always');
      expect(step.env?.GH_TOKEN).toBe('${{ secrets.GITHUB_TOKEN }}');
    }
    // Only the release jobs may write to the repository.
    for (const job of [draft, installers, release])
      expect(job.permissions).toEqual({ contents: 'write' });
    expect((workflow as unknown as { permissions: Record<string, string> }).permissions).toEqual({
      contents: 'read',
    });
    expect(release.needs).toBe('installers');
    for (const feed of ['latest.yml', 'latest-mac.yml', 'latest-linux.yml'])
      expect(runs(release)).toContain(feed);
    expect(runs(release)).toMatch(/gh release edit .*--draft=false/);
    // The artifacts kept with the run hold the feed files too.
    const files = installers.strategy.matrix.include.map((m) => m.files).join('\n');
    for (const feed of ['latest.yml', 'latest-mac.yml', 'latest-linux.yml'])
      expect(files).toContain(`release/${feed}`);
  });

  it('runs every job on Node 22, the Node Electron 39 embeds', () => {
    const setups = Object.values(workflow.jobs).flatMap((job) =>
      job.steps.filter((s) => s.uses?.startsWith('actions/setup-node@')),
    );
    expect(setups.length).toBeGreaterThanOrEqual(2);
    for (const setup of setups) expect(String(setup.with?.['node-version'])).toBe('22');
  });

  it('gives the Electron specs a Chromium on every system (their test browser; /usr/bin/chromium is Linux only)', () => {
    const chromium = testBuild.steps.findIndex(
      (s) => s.run?.includes('playwright install') && s.run.includes('CHROMIUM_PATH='),
    );
    expect(chromium).toBeGreaterThanOrEqual(0);
    expect(testBuild.steps[chromium]!.if).toBeUndefined();
    const firstSpecs = testBuild.steps.findIndex((s) => s.run?.includes('--project=electron'));
    expect(chromium).toBeLessThan(firstSpecs);
  });

  it('signs macOS releases with the Developer ID and notarizes them, failing the release when the secrets are absent', () => {
    const check = installers.steps.findIndex(
      (s) => s.if === "runner.os == 'macOS'" && /exit 1/.test(s.run ?? ''),
    );
    expect(check).toBeGreaterThanOrEqual(0);
    for (const secret of ['CSC_LINK', 'CSC_KEY_PASSWORD', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER'])
      expect(installers.steps[check]!.env?.[secret]).toMatch(/secrets\./);
    const macBuild = installers.steps.findIndex(
      (s) => s.if === "runner.os == 'macOS'" && s.run?.includes('npm run package'),
    );
    expect(check).toBeLessThan(macBuild);
    expect(installers.steps[macBuild]!.env?.CSC_LINK).toMatch(/secrets\.MAC_CSC_LINK/);
    // A test build holds no secret, and never looks for an identity.
    expect(JSON.stringify(testBuild)).not.toContain('secrets.');
    expect(
      (testBuild as unknown as { env: Record<string, string> }).env.CSC_IDENTITY_AUTO_DISCOVERY,
    ).toBe('false');
  });

  it('runs the proofs without the binary on every system: the unit tests (test/electron-host) and the stand-in journey', () => {
    const unit = testBuild.steps.find((s) => s.run === 'npm run test:unit');
    expect(unit?.if).toBeUndefined();
    const standIn = testBuild.steps.find((s) =>
      s.run?.includes('test/e2e/stand-in-electron.spec.ts'),
    );
    expect(standIn?.if).toBe("runner.os != 'Linux'");
    expect(
      testBuild.steps.find(
        (s) => s.run?.includes('--project=browser-host') && s.if === "runner.os == 'Linux'",
      )?.run,
    ).not.toContain('.spec.ts');
  });
});
