import { afterAll, beforeAll } from 'vitest';
import type { Database } from 'better-sqlite3';
import { openDatabase } from '../../../embedded-server/store/db';
import { seedDatabase } from '../../../embedded-server/seed/index';
import { memberSchema } from '../../../embedded-server/member-api/schema';
import { createMemberContext } from '../../../embedded-server/member-api/context';
import { executeMemberRequest } from '../../../embedded-server/member-api/execute';

// In-process (ARCHITECTURE example 11): real schema, real resolvers, real SQLite with the demo
// seed.
export const NOW = Date.UTC(2026, 10, 22, 8, 0, 0);
export const READ = ['openid', 'account:read'];
export const BOTH = ['account:read', 'account:write'];
/** In-process there is no listening server: a fixed origin stands in for the issuer. */
export const BASE = 'http://127.0.0.1:4100';
/** The demo database of the calling test file (a live binding: set by useDemoDb's beforeAll). */
export let db: Database;

/** Opens and seeds a demo database before the file's tests, and closes it after them. */
export function useDemoDb(): void {
  beforeAll(() => {
    db = openDatabase();
    seedDatabase(db, { seed: 'demo', site: 'demo', now: NOW });
  });
  afterAll(() => db.close());
}

export async function run(
  query: string,
  variables: Record<string, unknown> = {},
  scopes: string[] = BOTH,
  userId = 'usr_student',
) {
  const ctx = createMemberContext(db, {
    schoolId: 'sch_demo',
    userId,
    scopes,
    now: NOW,
    baseUrl: BASE,
  });
  return executeMemberRequest(memberSchema(), { query, variables }, ctx);
}
export type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
export const data = (r: { data?: unknown }) => r.data as Data;
