/**
 * What the student allows their own AI assistant to read (Settings > AI assistant), kept in
 * `ai-assistant.json` in the data folder beside the settings. A file of its own, not a field of the
 * settings: the assistant's server is another process started by the assistant's client, knows only
 * the data folder, and must read the consent at every call without electron-store or the app
 * running. The app writes it atomically; the server only reads it.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ASSISTANT_CATEGORIES, type AssistantCategory } from '../../common/assistant';

export const CONSENT_FILE_NAME = 'ai-assistant.json';

/**
 * The kinds of data a school's consent covers (common/assistant.ts, which the settings screen
 * lists).
 */
export const CONSENT_CATEGORIES = ASSISTANT_CATEGORIES;
export type ConsentCategory = AssistantCategory;

/**
 * A school's categories when the student turns it on: the sensitive ones (money, identity) stay
 * off.
 */
export const DEFAULT_CATEGORIES: Readonly<Record<ConsentCategory, boolean>> = Object.freeze({
  courses: true,
  dates: true,
  notifications: true,
  products: true,
  purchases: false,
  profile: false,
});

/**
 * The surface the student agreed to: the tools and what they read. When a version of the app offers
 * more (a new tool, a new category), this changes and the feature stays off until the student looks
 * at it again.
 */
export const SURFACE_VERSION = 'tools-1';

const categoriesSchema = z
  .object(
    Object.fromEntries(
      CONSENT_CATEGORIES.map((c) => [c, z.boolean().catch(DEFAULT_CATEGORIES[c])]),
    ) as Record<ConsentCategory, z.ZodCatch<z.ZodBoolean>>,
  )
  .catch({ ...DEFAULT_CATEGORIES });

const schoolSchema = z.object({
  enabled: z.boolean().catch(false),
  categories: categoriesSchema,
});

const consentSchema = z.object({
  version: z.literal(1).catch(1),
  enabled: z.boolean().catch(false),
  /** The student read that an assistant may send what it reads to its own company's servers. */
  cloudAcknowledged: z.boolean().catch(false),
  /** SURFACE_VERSION when the student turned it on. */
  surface: z.string().max(100).nullable().catch(null),
  /** Payment codes in full (otherwise masked to their last four characters). */
  fullPaymentCodes: z.boolean().catch(false),
  /** The one write: asking the app to mark notices read (the app asks the student to confirm). */
  allowMarkRead: z.boolean().catch(false),
  schools: z.record(z.string().max(200), schoolSchema).catch({}),
});

export type SchoolConsent = z.infer<typeof schoolSchema>;
export type AssistantConsent = z.infer<typeof consentSchema>;

export const DEFAULT_CONSENT: AssistantConsent = Object.freeze({
  version: 1,
  enabled: false,
  cloudAcknowledged: false,
  surface: null,
  fullPaymentCodes: false,
  allowMarkRead: false,
  schools: {},
}) as AssistantConsent;

/** Parses anything into a complete consent; a damaged field falls back to its (closed) default. */
export function normaliseConsent(value: unknown): AssistantConsent {
  const base = value !== null && typeof value === 'object' ? value : {};
  return consentSchema.parse({ ...DEFAULT_CONSENT, ...base });
}

export const consentFile = (dataDir: string): string => join(dataDir, CONSENT_FILE_NAME);

/**
 * Whether the assistant may read anything at all: on, cloud acknowledged, and this surface agreed
 * to.
 */
export function isActive(consent: AssistantConsent): boolean {
  return consent.enabled && consent.cloudAcknowledged && consent.surface === SURFACE_VERSION;
}

/** The schools allowed `category` (every category when null), in the consent's order. */
export function allowedSchools(
  consent: AssistantConsent,
  category: ConsentCategory | null,
): string[] {
  if (!isActive(consent)) return [];
  return Object.entries(consent.schools)
    .filter(([, s]) => s.enabled && (category === null || s.categories[category]))
    .map(([id]) => id);
}

/**
 * The consent on disk, read again only when the file changed (size and mtime): the server calls
 * `current()` at every request, so a change the student makes applies to the next call.
 */
export class ConsentReader {
  readonly #file: string;
  #stamp = '';
  #consent: AssistantConsent = DEFAULT_CONSENT;

  constructor(dataDir: string) {
    this.#file = consentFile(dataDir);
  }

  current(): AssistantConsent {
    let stamp: string;
    try {
      const s = statSync(this.#file);
      stamp = `${s.size}:${s.mtimeMs}:${s.ino}`;
    } catch {
      stamp = 'missing';
    }
    if (stamp !== this.#stamp) {
      this.#stamp = stamp;
      this.#consent = stamp === 'missing' ? DEFAULT_CONSENT : readConsentFile(this.#file);
    }
    return this.#consent;
  }
}

function readConsentFile(file: string): AssistantConsent {
  try {
    return normaliseConsent(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    // Unreadable consent is no consent.
    return DEFAULT_CONSENT;
  }
}
