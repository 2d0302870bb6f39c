/**
 * `npm run server -- --port <p> [--seed demo|large|none] [--data <file prefix>] [--id-tokens
 * sign|publish-jwks-only|off]`
 *
 * Starts the demo site on --port (default 4100; 0 = any free port) and the second demo site on
 * port+1 (any free port when 0). With --data, each site keeps its own SQLite file: <prefix>.demo.db
 * and <prefix>.demo2.db.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { createEmbeddedServer, type EmbeddedServer } from './index';
import type { IdTokenMode } from './http/types';
import type { SeedKind } from './seed/types';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4100' },
      seed: { type: 'string', default: 'demo' },
      data: { type: 'string' },
      'id-tokens': { type: 'string', default: 'sign' },
      quiet: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65534)
    fail(`--port must be 0..65534, got ${values.port}`);
  const seed = values.seed as SeedKind;
  if (!['demo', 'large', 'none'].includes(seed)) fail('--seed must be demo, large or none');
  const idTokens = values['id-tokens'] as IdTokenMode;
  if (!['sign', 'publish-jwks-only', 'off'].includes(idTokens))
    fail('--id-tokens must be sign, publish-jwks-only or off');
  const prefix = values.data?.replace(/\.db$/, '');
  if (prefix) mkdirSync(dirname(prefix), { recursive: true });
  const logger = values.quiet ? undefined : (line: string) => process.stderr.write(`${line}\n`);

  const servers: EmbeddedServer[] = [];
  const sites = [
    { site: 'demo' as const, port },
    { site: 'demo2' as const, port: port === 0 ? 0 : port + 1 },
  ];
  for (const s of sites) {
    const server = await createEmbeddedServer({
      port: s.port,
      site: s.site,
      seed,
      idTokens,
      ...(prefix ? { database: `${prefix}.${s.site}.db` } : {}),
      ...(logger ? { logger } : {}),
    });
    servers.push(server);
    process.stdout.write(`listening at ${server.url} (${server.site.name})\n`);
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`${signal}: closing\n`);
    void Promise.all(servers.map((s) => s.close())).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  process.stderr.write(`cannot start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
