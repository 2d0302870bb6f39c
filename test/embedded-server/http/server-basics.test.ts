import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import { startTestServer, tempDir } from '../../helpers/server';
import { createEmbeddedServer } from '../../../embedded-server/index';
import { createRouter } from '../../../embedded-server/http/router';
import {
  DatabaseTooNewError,
  loadMigrations,
  migrate,
  openDatabase,
} from '../../../embedded-server/store/db';
import type { Route } from '../../../embedded-server/http/types';
import { seedDatabase } from '../../../embedded-server/seed/index';

describe('Router: the one table of paths', () => {
  it('matches literal segments before parameters and decodes parameters', () => {
    const noop = () => undefined;
    const router = createRouter(
      [{ method: 'GET', path: '/a/:id', handler: noop }],
      [{ method: 'GET', path: '/a/literal', handler: noop }],
    );
    const lit = router.match('GET', '/a/literal');
    expect(lit?.route?.path).toBe('/a/literal');
    const param = router.match('GET', '/a/x%20y');
    expect(param?.route ? param.params : null).toEqual({ id: 'x y' });
    expect(router.match('POST', '/a/1')).toEqual({ allow: ['GET'] });
    expect(router.match('GET', '/b')).toBeNull();
  });

  it('refuses a duplicate route at start-up', () => {
    const r: Route = { method: 'GET', path: '/x/:a', handler: () => undefined };
    expect(() => createRouter([r], [{ ...r, path: '/x/:b' }])).toThrow(/duplicate route/);
  });

  it('answers unknown paths 404 and wrong methods 405 as JSON errors', async () => {
    const server = await startTestServer();
    const missing = await fetch(`${server.url}/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: 'not_found' });
    const wrong = await fetch(`${server.url}/api/oauth/token`);
    expect(wrong.status).toBe(405);
    // RFC 9110 §15.5.6: Allow names the methods the path serves.
    expect(wrong.headers.get('allow')).toBe('POST');
    expect(
      (await fetch(`${server.url}/covers/x.svg`, { method: 'DELETE' })).headers.get('allow'),
    ).toBe('GET, HEAD');
    expect(
      (await fetch(`${server.url}/api/oauth/userinfo`, { method: 'PUT' })).headers.get('allow'),
    ).toBe('GET, POST');
  });
});

describe('Errors: unexpected exceptions become a bare server_error (ARCHITECTURE example 5)', () => {
  it('hides the message, stack and class of an injected exception', async () => {
    const server = await startTestServer({
      extraRoutes: [
        {
          method: 'GET',
          path: '/test/explode',
          handler: () => {
            throw new TypeError('SELECT secret FROM internals at /home/server/db.ts:42');
          },
        },
      ],
    });
    const res = await fetch(`${server.url}/test/explode`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      error: 'server_error',
      error_description: 'The server encountered an unexpected condition.',
    });
    expect(text).not.toMatch(/secret|internals|TypeError|db\.ts/);
  });
});

describe('Body limits (http/body.ts)', () => {
  it('refuses a token request body over 64 KB with 413 invalid_request', async () => {
    const server = await startTestServer();
    const res = await fetch(`${server.url}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=refresh_token&refresh_token=${'a'.repeat(70 * 1024)}`,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('refuses a repeated form parameter (RFC 6749 §3.2)', async () => {
    const server = await startTestServer();
    const res = await fetch(`${server.url}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token&grant_type=authorization_code',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('refuses a JSON body on a form endpoint', async () => {
    const server = await startTestServer();
    const res = await fetch(`${server.url}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request' });
  });
});

describe('Store: numbered migrations keyed on PRAGMA user_version (ARCHITECTURE example 9)', () => {
  it('brings a fresh database to the latest version with foreign keys on', () => {
    const db = openDatabase(':memory:');
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(loadMigrations().length);
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      const tables = (
        db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
          name: string;
        }[]
      ).map((r) => r.name);
      expect(tables).toEqual(
        expect.arrayContaining([
          'schools',
          'users',
          'memberships',
          'oauth_clients',
          'token_pairs',
          'signing_keys',
        ]),
      );
    } finally {
      db.close();
    }
  });

  it('refuses a database written by a newer server with a named error', () => {
    const dir = tempDir();
    const file = join(dir, 'new.db');
    const raw = new Database(file);
    raw.pragma('user_version = 999');
    raw.close();
    expect(() => openDatabase(file)).toThrow(DatabaseTooNewError);
  });

  it('runs all pending migrations in one transaction: a failing one leaves the database untouched', () => {
    const dir = tempDir();
    const migrations = join(dir, 'migrations');
    mkdirSync(migrations);
    writeFileSync(join(migrations, '001-a.sql'), 'CREATE TABLE a (x INTEGER);');
    writeFileSync(join(migrations, '002-b.sql'), 'CREATE TABLE b (x INTEGER); THIS IS NOT SQL;');
    const db = new Database(':memory:');
    try {
      expect(() => migrate(db, loadMigrations(migrations))).toThrow();
      expect(db.pragma('user_version', { simple: true })).toBe(0);
      expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'a'").get()).toEqual({
        n: 0,
      });
    } finally {
      db.close();
    }
  });

  it('has no column that could hold a token, code, secret or session id in clear (only *_hash columns)', () => {
    const db = openDatabase(':memory:');
    try {
      // The identity/OAuth tables of migration 001 (content tables have payment codes, which are
      // not secrets).
      const tables = [...loadMigrations()[0]!.sql.matchAll(/CREATE TABLE (\w+)/g)].map(
        (m) => m[1]!,
      );
      const columns = tables.flatMap((t) =>
        (db.prepare(`PRAGMA table_info(${t})`).all() as { name: string }[]).map(
          (c) => `${t}.${c.name}`,
        ),
      );
      const clear = columns.filter((c) => /(token|secret|password|code|session)$/.test(c));
      expect(clear).toEqual([]);
      expect(columns).toEqual(
        expect.arrayContaining([
          'token_pairs.access_hash',
          'token_pairs.refresh_hash',
          'authorization_codes.code_hash',
          'oauth_clients.secret_hash',
        ]),
      );
    } finally {
      db.close();
    }
  });
});

describe('Seed: deterministic identity (seed/identity.ts)', () => {
  it('two fresh databases seeded with the same inputs hold identical identity and client rows', () => {
    const dump = () => {
      const db = openDatabase(':memory:');
      try {
        seedDatabase(db, { seed: 'demo', site: 'demo', now: 1_700_000_000_000 });
        return ['schools', 'users', 'memberships', 'oauth_clients', 'vendor_platforms'].map((t) =>
          db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all(),
        );
      } finally {
        db.close();
      }
    };
    const a = dump();
    expect(a[1]).toHaveLength(2);
    expect(dump()).toEqual(a);
  });

  it('seeding an already seeded database changes nothing (restarts keep their state)', () => {
    const db = openDatabase(':memory:');
    try {
      expect(seedDatabase(db, { seed: 'demo', site: 'demo', now: 1 })).toBe(true);
      db.prepare("UPDATE users SET name = 'Renamed' WHERE id = 'usr_student'").run();
      expect(seedDatabase(db, { seed: 'demo', site: 'demo', now: 2 })).toBe(false);
      expect(db.prepare("SELECT name FROM users WHERE id = 'usr_student'").get()).toEqual({
        name: 'Renamed',
      });
    } finally {
      db.close();
    }
  });
});

describe('Server lifecycle', () => {
  it('serves one site on its own origin with no trailing slash and closes cleanly', async () => {
    const server = await createEmbeddedServer({ port: 0 });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.site).toEqual({ schoolId: 'sch_demo', name: 'Demo School', subdomain: 'demo' });
    await server.close();
    await expect(fetch(`${server.url}/.well-known/oauth-authorization-server`)).rejects.toThrow();
  });

  it('keeps state in a file database across restarts (WAL)', async () => {
    const file = join(tempDir(), 'site.db');
    const first = await createEmbeddedServer({ database: file });
    const kid1 = await first.rotateSigningKey();
    await first.close();
    const second = await createEmbeddedServer({ database: file });
    try {
      expect(second.db.pragma('journal_mode', { simple: true })).toBe('wal');
      const jwks = (await (await fetch(`${second.url}/oauth/jwks`)).json()) as {
        keys: { kid: string }[];
      };
      expect(jwks.keys.map((k) => k.kid)).toContain(kid1);
      expect(second.db.prepare('SELECT count(*) AS n FROM users').get()).toEqual({ n: 2 });
    } finally {
      await second.close();
    }
  });

  it('never logs query strings (codes and tokens travel there)', async () => {
    const lines: string[] = [];
    const server = await startTestServer({ logger: (l) => lines.push(l) });
    await fetch(`${server.url}/oauth/authorize?client_id=demo-desktop&code=ac_SECRET`);
    expect(lines.some((l) => l.startsWith('GET /oauth/authorize '))).toBe(true);
    expect(lines.join('\n')).not.toContain('SECRET');
  });
});
