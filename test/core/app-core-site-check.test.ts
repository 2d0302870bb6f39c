import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../electron/core/app-core';
import { createEmbeddedServer, type EmbeddedServer } from '../../embedded-server/index';
import { createTestCore, valueOf, invoke } from '../helpers/test-core';

/**
 * sites:check: a school's address read without adding it, for a student with no application ID
 * (member clients are created by the school's operator, spec "OAuth client"; the welcome screen
 * then says who can create one).
 */
describe('app core: a school looked up without an application ID (sites:check)', () => {
  let dir: string;
  let server: EmbeddedServer | null = null;
  let core: AppCore | null = null;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ld-check-'));
  });
  afterEach(async () => {
    await core?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names a school that answers, adds nothing; an address that does not answer is said so', async () => {
    server = await createEmbeddedServer({ port: 0, seed: 'demo', site: 'demo' });
    core = await createTestCore({ dataDir: join(dir, 'app') });
    const found = valueOf(
      await invoke(core.handlers, 'sites:check', { baseUrl: `${server.url}/` }),
    );
    expect(found.baseUrl).toBe(server.url);
    expect(found.label.length).toBeGreaterThan(0);
    expect(found.label).not.toBe(new URL(server.url).host);
    expect(valueOf(await invoke(core.handlers, 'sites:list', undefined))).toEqual([]);

    const down = await invoke(core.handlers, 'sites:check', { baseUrl: 'http://127.0.0.1:9' });
    expect(down.ok ? null : down.error.code).toBe('site-unreachable');
    const bad = await invoke(core.handlers, 'sites:check', {
      baseUrl: 'http://school.example.com',
    });
    expect(bad.ok ? null : bad.error.code).toBe('invalid-input');
  });
});
