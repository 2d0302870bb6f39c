import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../helpers/server';
import { ScriptedBrowser } from '../../helpers/scripted-browser';
import type { EmbeddedServer } from '../../../embedded-server/index';
import { createMemberApp, operatorWithApps } from '../admin-browser';

const run = promisify(execFile);
const CALLBACK = 'http://127.0.0.1:8765/callback';

interface Block {
  /** The heading the block sits under (## or ###). */
  heading: string;
  lines: string[];
}

/** The ```sh blocks of the document, each with the heading above it. */
function shellBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  let heading = '';
  let open: Block | null = null;
  for (const line of markdown.split('\n')) {
    if (open) {
      if (line === '```') {
        blocks.push(open);
        open = null;
      } else open.lines.push(line);
    } else if (/^#{2,3} /.test(line)) heading = line.replace(/^#+ /, '');
    else if (line === '```sh') open = { heading, lines: [] };
    else
      expect(
        line.startsWith('```') && line !== '```',
        `a code block without a language: ${line}`,
      ).toBe(false);
  }
  return blocks;
}

/**
 * One command line, run by sh as written, in the variables the earlier lines set; returns its
 * output and the new variables.
 */
async function sh(
  line: string,
  env: Record<string, string>,
): Promise<{ out: string; env: Record<string, string> }> {
  // `set -a` exports what the line assigns so the next line sees it, as one shell session would.
  const script = `set -a\n${line}\nprintf '\\0__ENV__\\0'\nenv -0`;
  const { stdout } = await run('sh', ['-c', script], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    maxBuffer: 4 << 20,
  });
  const [out, rest] = stdout.split('\0__ENV__\0') as [string, string];
  const next: Record<string, string> = {};
  for (const pair of rest.split('\0').filter(Boolean)) {
    const i = pair.indexOf('=');
    next[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return { out, env: next };
}

/**
 * Follows /auth.md literally for one kind of client: every command of every block that applies runs
 * in sh (curl and openssl against the real server), each `<...>` replaced as the document says, the
 * browser step done on the real sign-in and consent pages with the printed address.
 */
async function followWalkthrough(
  server: EmbeddedServer,
  kind: 'Member app' | 'Operator tool',
  operatorClientId: string | null,
): Promise<string[]> {
  const markdown = await (await fetch(`${server.url}/auth.md`)).text();
  const other = kind === 'Member app' ? 'Operator tool' : 'Member app';
  let env: Record<string, string> = {};
  let lastJson: Record<string, unknown> = {};
  let code = '';
  const ran: string[] = [];
  const answer = (field: string): string => {
    expect(typeof lastJson[field], `${field} in ${JSON.stringify(lastJson)}`).toBe('string');
    return lastJson[field] as string;
  };
  const placeholders: Record<string, () => string> = {
    '<the client_id the operator gave you>': () => operatorClientId!,
    '<the client_id of the answer>': () => answer('client_id'),
    '<the code parameter of the callback address>': () => code,
    '<the access_token of the answer>': () => answer('access_token'),
    '<the refresh_token of the answer>': () => answer('refresh_token'),
    '<the access_token of the new answer>': () => answer('access_token'),
    '<the refresh_token of the new answer>': () => answer('refresh_token'),
  };
  for (const block of shellBlocks(markdown).filter((b) => !b.heading.startsWith(other))) {
    for (const written of block.lines) {
      const line = written.replace(/<[^<>]+>/g, (p) => {
        expect(placeholders[p], `a placeholder the test knows: ${p}`).toBeDefined();
        return placeholders[p]!();
      });
      const result = await sh(line, env).catch((err: Error & { stdout?: string }) => {
        throw new Error(`"${written}" failed: ${err.message} ${err.stdout ?? ''}`);
      });
      env = result.env;
      ran.push(written);
      if (result.out.startsWith(`${server.url}/oauth/authorize?`)) {
        // The printed address is one line with nothing to trim: pasting it changes nothing.
        expect(result.out).toMatch(/^\S+\n$/);
        const callback = new URL(
          await new ScriptedBrowser().authorize(result.out.trim(), {
            stopAt: CALLBACK,
            ...(kind === 'Operator tool'
              ? { email: 'owner@example.com', password: 'owner-demo' }
              : {}),
          }),
        );
        expect(callback.searchParams.get('error'), callback.href).toBeNull();
        expect(callback.searchParams.get('state')).toBe(env.STATE);
        expect(callback.searchParams.get('iss')).toBe(server.url);
        code = callback.searchParams.get('code')!;
      } else if (result.out.trim() !== '') {
        const body = result.out.trim().startsWith('event:')
          ? result.out.replace(/^[\s\S]*?data: /, '')
          : result.out;
        lastJson = JSON.parse(body) as Record<string, unknown>;
        expect(lastJson.error, result.out).toBeUndefined();
        expect(lastJson.errors, result.out).toBeUndefined();
        expect(
          (lastJson.result as { isError?: boolean } | undefined)?.isError,
          result.out,
        ).not.toBe(true);
      }
    }
  }
  // Both paths refresh and revoke: the steps after the path-specific ones apply to both.
  expect(ran.some((l) => l.includes('grant_type=refresh_token'))).toBe(true);
  expect(ran.some((l) => l.includes('/api/oauth/revoke'))).toBe(true);
  return ran;
}

describe('/auth.md followed as written (every command runs with curl against the server)', () => {
  it('a member app: the client_id from the operator, sign-in, tokens, the member API, /mcp, refresh, revoke', async () => {
    const server = await startTestServer();
    const { clientId } = await createMemberApp(server, await operatorWithApps(server), {
      name: 'My Member App',
      redirect_uris: 'http://127.0.0.1/callback',
    });
    const ran = await followWalkthrough(server, 'Member app', clientId);
    expect(ran.some((l) => l.includes('/member/graphql'))).toBe(true);
    expect(ran.some((l) => l.includes('/revoke'))).toBe(true);
  });

  it('an operator tool: registration, an owner signs in, the admin API, refresh, revoke', async () => {
    const server = await startTestServer();
    const ran = await followWalkthrough(server, 'Operator tool', null);
    expect(ran.some((l) => l.includes('/api/oauth/register'))).toBe(true);
    expect(ran.some((l) => l.includes('/api/admin/v1/courses'))).toBe(true);
  });

  it('every command is one line: no line of a code block is continued or indented', async () => {
    const server = await startTestServer();
    const blocks = shellBlocks(await (await fetch(`${server.url}/auth.md`)).text());
    expect(blocks.length).toBeGreaterThan(6);
    for (const line of blocks.flatMap((b) => b.lines)) {
      expect(line.endsWith('\\'), line).toBe(false);
      expect(line, line).toMatch(/^\S/);
    }
  });
});
