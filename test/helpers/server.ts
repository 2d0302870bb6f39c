import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, onTestFinished } from 'vitest';
import {
  createEmbeddedServer,
  type EmbeddedServer,
  type EmbeddedServerOptions,
} from '../../embedded-server/index';
import { openApiProblems } from './openapi-responses';

/**
 * Starts a real embedded server on 127.0.0.1 (port 0) for one test and closes it when the test
 * finishes. Call inside a test (it registers onTestFinished); in beforeAll/afterAll use
 * createEmbeddedServer directly.
 */
export async function startTestServer(
  options: EmbeddedServerOptions = {},
): Promise<EmbeddedServer> {
  // Every answer the test sees is checked against the server's own /openapi.json; a mismatch fails
  // the test.
  const problems: string[] = [];
  const server = await createEmbeddedServer({
    port: 0,
    seed: 'demo',
    ...options,
    onResponse: (r) => {
      problems.push(...openApiProblems(r));
      options.onResponse?.(r);
    },
  });
  onTestFinished(async () => {
    await server.close();
    expect(problems, 'answers that /openapi.json does not describe').toEqual([]);
  });
  return server;
}

/** A temporary directory removed when the test finishes (for file databases). */
export function tempDir(prefix = 'ld-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A controllable clock: tests move time forward to cross expiry boundaries. */
export class TestClock {
  constructor(public ms = Date.UTC(2026, 0, 15, 9, 0, 0)) {}
  now = (): number => this.ms;
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}
