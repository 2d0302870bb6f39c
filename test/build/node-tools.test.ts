import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, typed by use.
import { binEntry, npmCli } from '../../scripts/node-tools.mjs';

/**
 * The scripts start npm tools as JS entry points of this Node. `npx` and `npm` are npx.cmd and
 * npm.cmd on Windows:
 * spawned without a shell they fail with ENOENT, or EINVAL since Node 20.12 (CVE-2024-27980), so no
 * Windows test build or installer was ever made.
 */
const SPAWN_OF_A_SHELL_SCRIPT =
  /\b(?:spawn|spawnSync|execFile|execFileSync)\(\s*['"`](?:npx|npm|pnpm|yarn)(?:\.cmd)?['"`]/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(?:mjs|ts)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

describe('npm tools run as JS entry points (Windows has no npx without a shell)', () => {
  it('no script or test spawns npx or npm', () => {
    const offenders = [...sources('scripts'), ...sources('test')].filter((f) =>
      SPAWN_OF_A_SHELL_SCRIPT.test(readFileSync(f, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('each tool’s entry point runs with this Node and a PATH that holds no npx or npm', () => {
    const env = { ...process.env, PATH: '' };
    for (const [entry, args] of [
      [binEntry('electron-vite'), ['--version']],
      [binEntry('electron-builder'), ['--version']],
      [npmCli(), ['--version']],
    ] as const) {
      const run = spawnSync(process.execPath, [entry, ...args], {
        env,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status, `${entry}: ${run.stderr}`).toBe(0);
      expect(run.stdout).toMatch(/\d+\.\d+\.\d+/);
    }
  });
});
