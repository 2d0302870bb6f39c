import type { ReadableDB } from '../db/index';
import { z } from 'zod';
import { getLastSyncedAt } from '../db/index';
import { allowedSchools, type AssistantConsent, type ConsentCategory } from './consent';
import { schoolLine } from './school-text';

/**
 * What a tool reads: the offline database (read-only), the clock, the consent and the schools as of
 * this call.
 */
export interface ToolContext {
  readonly db: ReadableDB;
  readonly now: Date;
  readonly consent: AssistantConsent;
  /** Every school in sites.json, in the app's order. */
  readonly schools: readonly SchoolInfo[];
  readonly timeZone: string;
  /**
   * The data folder (the one write leaves its request there) and the client's name, for that
   * request.
   */
  readonly dataDir: string;
  readonly client: string;
}

export interface SchoolInfo {
  readonly siteId: string;
  readonly name: string;
  readonly baseUrl: string;
}

/**
 * The names the settings screen gives the categories: a refusal tells the student which switch to
 * turn.
 */
export const CATEGORY_SETTING: Readonly<Record<ConsentCategory, string>> = {
  courses: 'Courses and progress',
  dates: 'Dates',
  notifications: 'Notifications',
  products: 'Products and files',
  purchases: 'Purchases and payment codes',
  profile: 'Profile',
};

export const SETTINGS_PLACE = 'Learning Desktop > Settings > AI assistant';

/**
 * A call the consent does not allow, or bad input: answered as a tool error whose message says what
 * to change.
 */
export class ToolRefusal extends Error {
  override readonly name = 'ToolRefusal';
  constructor(
    message: string,
    readonly kind: 'refused' | 'error' = 'refused',
  ) {
    super(message);
  }
}

/**
 * The schools a call may read for `category`: the one it names (refused when not allowed, with the
 * setting to change) or every allowed one.
 */
export function schoolsFor(
  ctx: ToolContext,
  category: ConsentCategory,
  siteId: string | undefined,
): SchoolInfo[] {
  const allowed = new Set(allowedSchools(ctx.consent, category));
  const known = ctx.schools.filter((s) => allowed.has(s.siteId));
  if (siteId === undefined) return known;
  const school = ctx.schools.find((s) => s.siteId === siteId);
  if (!school)
    throw new ToolRefusal(
      `No school with siteId "${schoolLine(siteId, 100)}" is kept in Learning Desktop. Call list_schools.`,
      'error',
    );
  if (!allowed.has(siteId))
    throw new ToolRefusal(
      `"${CATEGORY_SETTING[category]}" is off for ${school.name}. The student can turn it on in ` +
        `${SETTINGS_PLACE}.`,
    );
  return [school];
}

export const freshnessSchema = z.object({
  siteId: z.string(),
  name: z.string().describe("The school's name as the student saved it"),
  lastSyncedAt: z.string().nullable().describe('When this copy was last brought up to date'),
  dataAgeMinutes: z.number().nullable().describe('How old the data is, in minutes; null: never'),
});
export type Freshness = z.infer<typeof freshnessSchema>;

/** Which school and how old its data is: named by every result. */
export function freshness(ctx: ToolContext, school: SchoolInfo): Freshness {
  const last = getLastSyncedAt(ctx.db, school.siteId);
  const age = last === null ? null : (ctx.now.getTime() - Date.parse(last)) / 60_000;
  return {
    siteId: school.siteId,
    name: school.name,
    lastSyncedAt: last,
    dataAgeMinutes: age === null || !Number.isFinite(age) ? null : Math.max(0, Math.round(age)),
  };
}

/**
 * Masks an ATM / convenience-store code to its last four characters unless the student allows them
 * in full.
 */
export function paymentCode(ctx: ToolContext, code: string): string {
  if (ctx.consent.fullPaymentCodes) return code;
  return code.length <= 4 ? '****' : `${'*'.repeat(Math.min(8, code.length - 4))}${code.slice(-4)}`;
}

export const iso = (ms: number): string => new Date(ms).toISOString();
