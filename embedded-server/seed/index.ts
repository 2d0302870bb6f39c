import type { Database } from 'better-sqlite3';
import { seedIdentity, SITES } from './identity';
import { seedContent } from './content';
import type { SeedKind, SiteKey } from './types';

export type { SeedContext, SeedKind, SiteKey } from './types';
export { SITES, DEMO_USERS, DEMO_CLIENTS, DEMO_VENDOR } from './identity';

export interface SeedOptions {
  seed: SeedKind;
  site: SiteKey;
  now: number;
  options?: Readonly<Record<string, unknown>>;
}

/**
 * Seeds a fresh database: identity first, then content (seed/content.ts). Deterministic for a given
 * (seed, site, now). A database that already holds the schools is left alone, so a file database
 * keeps what happened to it across restarts. Returns whether anything was seeded.
 */
export function seedDatabase(db: Database, opts: SeedOptions): boolean {
  if (opts.seed === 'none') return false;
  const already = db.prepare('SELECT 1 FROM schools WHERE id = ?').get(SITES[opts.site].schoolId);
  if (already) return false;
  const seed = opts.seed;
  db.transaction(() => {
    seedIdentity(db, opts.site, opts.now);
    seedContent(db, {
      seed,
      site: opts.site,
      school: SITES[opts.site],
      schools: Object.values(SITES),
      now: opts.now,
      options: opts.options ?? {},
    });
  })();
  return true;
}
