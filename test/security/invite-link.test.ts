import { readdirSync, readFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inviteLink } from '../../electron/core/invite/invite-link';
import { createLogger } from '../../electron/core/log';
import { createTestCore, invoke } from '../helpers/test-core';

/**
 * A school's invite link that (wrongly) carries a secret: whether it reaches the app from the
 * system (Electron's open-url / argv) or from the page (the browser host's address, a paste), the
 * secret is refused and never read out:
 * no Result, event, log line or file of the app holds it.
 */
const CANARY = 'cs_canary_6f1d2e9a8b7c';
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .filter((p) => statSync(p).size < 50_000_000);
}

describe('invite links with a secret in them', () => {
  it('are refused as secret-in-link, and the secret appears in no answer, event, log line or file', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ld-invite-sec-'));
    dirs.push(dataDir);
    const lines: string[] = [];
    const core = await createTestCore({
      dataDir,
      openExternal: async () => {},
      logger: createLogger((line) => lines.push(line), { level: 'debug' }),
    });
    const events: unknown[] = [];
    core.onEvent((event, payload) => events.push({ event, payload }));
    const answers: unknown[] = [];
    try {
      const links = [
        `${inviteLink('https://school.example.com', 'app_1')}&client_secret=${CANARY}`,
        `learning-desktop://add-site?site=https://school.example.com&client_id=app_1&password=${CANARY}`,
        `learning-desktop://app_1:${CANARY}@add-site?site=https://school.example.com&client_id=app_1`,
        `learning-desktop://add-site?site=https://app_1:${CANARY}@school.example.com&client_id=app_1`,
        `http://127.0.0.1:4000/add-site?site=https://school.example.com&client_id=app_1&access_token=${CANARY}`,
      ];
      for (const link of links) {
        core.openInviteLink(link);
        answers.push(await invoke(core.handlers, 'invite:take-pending', undefined));
        answers.push(await invoke(core.handlers, 'invite:parse', { link }));
      }
      // Each was refused (the test saw live refusals, not silence)...
      const refusals = answers.map(
        (a) => (a as { value: { ok: boolean; refusal?: string } }).value.refusal,
      );
      expect(refusals).toEqual([
        'secret-in-link',
        'secret-in-link',
        'secret-in-link',
        'secret-in-link',
        'secret-in-link',
        'secret-in-link',
        'site-has-credentials',
        'site-has-credentials',
        'secret-in-link',
        'secret-in-link',
      ]);
      expect(events).toHaveLength(links.length);
    } finally {
      await core.close();
    }
    // ...and the secret went nowhere.
    expect(JSON.stringify(answers)).not.toContain(CANARY);
    expect(JSON.stringify(events)).not.toContain(CANARY);
    expect(lines.join('\n')).not.toContain(CANARY);
    for (const file of filesUnder(dataDir))
      expect(readFileSync(file).includes(CANARY), file).toBe(false);
  });
});
