import type { SiteConfig } from '../http/types';

export type SeedKind = 'demo' | 'large' | 'none';
export type SiteKey = 'demo' | 'demo2';

/**
 * What seedContent (seed/content.ts, owned by the content engineer) receives after identity is
 * seeded.
 */
export interface SeedContext {
  seed: Exclude<SeedKind, 'none'>;
  site: SiteKey;
  /** The school this database serves. */
  school: SiteConfig;
  /** Every seeded school (both demo schools exist in every database; roles differ). */
  schools: readonly SiteConfig[];
  /** Milliseconds since the epoch; all seeded times are relative to it. */
  now: number;
  /** Free-form options passed through from createEmbeddedServer({ seedOptions }). */
  options: Readonly<Record<string, unknown>>;
}
