import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { createEmbeddedServer, type EmbeddedServer, type EmbeddedServerOptions } from '../../../../embedded-server/index';
import { openOfflineDatabase, type OpenedDatabase } from '../../../../electron/core/db';
import { getMemberToken, siteClient, FULL_SCOPE } from './member-token';

export interface TestSite {
  readonly server: EmbeddedServer;
  readonly accessToken: string;
  readonly client: ReturnType<typeof siteClient>;
}

/** A real embedded server on 127.0.0.1 port 0 and a real member token for it; closed when the test ends. */
export async function startSite(options: EmbeddedServerOptions = {}, scope = FULL_SCOPE): Promise<TestSite> {
  const server = await createEmbeddedServer({ port: 0, seed: 'demo', ...options });
  onTestFinished(() => server.close());
  const { accessToken } = await getMemberToken(server, scope);
  return { server, accessToken, client: siteClient(server.url, accessToken) };
}

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ld-sync-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A real SQLite file in a temp dir, closed when the test ends. */
export function openTempDb(file = join(tempDir(), 'offline.db')): OpenedDatabase & { file: string } {
  const opened = openOfflineDatabase(file);
  onTestFinished(() => {
    if (opened.db.open) opened.db.close();
  });
  return { ...opened, file };
}

export const noSleep = async (): Promise<void> => {};
