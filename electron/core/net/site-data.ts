/**
 * The limits on what a site may send, and the one check of a parsed answer's shape, where the app
 * reads it (ARCHITECTURE "Data from a site is untrusted input": limits on size, depth, count and
 * time). A site that breaks one is refused as a whole with `site-data-invalid`: the student is told
 * the site sent data the app cannot read, the last good copy stays, and the sync is not retried on
 * its own (it is not a network failure).
 */
import { CoreError } from '../errors';

/**
 * One GraphQL answer, decompressed. The embedded server refuses answers over 4 MiB; a page of
 * courses is ~0.5 MB.
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
/**
 * All the answers one sync stages, decompressed: a sync of the large seed (30,000 lectures, 5,000
 * payments) is ~30 MB.
 */
export const MAX_SYNC_BYTES = 256 * 1024 * 1024;
/** A small JSON document: discovery, a token answer, JWKS, UserInfo. */
export const MAX_DOCUMENT_BYTES = 512 * 1024;
/** What is kept of an error answer's body: enough for an error's name, never a page of data. */
export const MAX_ERROR_BYTES = 16 * 1024;
/**
 * Nesting of objects and arrays in one answer, its envelope included. The deepest path the sync
 * asks for is data.viewer.enrolledCourses.nodes[i].sections[j].lectures[k].field (9); a value
 * nested deeper than this is not data the schema describes, and would overflow the stack of any
 * recursive reader (JSON.stringify) later.
 */
export const MAX_JSON_DEPTH = 32;
/**
 * Pages of one connection in one sync: 25,000 courses, 50,000 payments, 100,000 notifications at
 * the page sizes asked for.
 */
export const MAX_PAGES_PER_PART = 1000;
/**
 * A page cursor is an opaque short string (Relay cursor connections); a longer one is not a cursor.
 */
export const MAX_CURSOR_LENGTH = 1024;
/** How long one request may take from start to its last byte (not only between bytes). */
export const REQUEST_DEADLINE_MS = 120_000;

/**
 * The refusal of a site's answer as a whole; `reason` is for the log and the tests, never a value
 * the site sent.
 */
export function siteDataInvalid(reason: string, cause?: unknown): CoreError {
  return new CoreError(
    'site-data-invalid',
    'The site sent data the app cannot read; your last synced copy is kept.',
    { reason },
    cause === undefined ? undefined : { cause },
  );
}

/**
 * A connection whose walk did not add up, walked again and again: its rows kept moving across its
 * pages while they were read (a course's enrolment time changed mid-sync). The school's data is
 * readable, only not still; nothing of this sync is kept, so no row is lost or shown twice, and the
 * next sync, once it settles, brings it.
 */
export function siteDataChanging(
  part: string,
  detail: { readonly walks: number; readonly walked: number; readonly totalCount: number | null },
): CoreError {
  return new CoreError(
    'site-data-changing',
    `Your ${PART_WORDS[part] ?? part} changed at the school while this sync read them, so your saved copy is kept as it was. Sync again in a minute.`,
    { part, ...detail },
  );
}
const PART_WORDS: Readonly<Record<string, string>> = {
  courses: 'courses',
  digitalProducts: 'products',
  eventRegistrations: 'events',
  consultingServices: 'consulting services',
  payments: 'purchases',
  notifications: 'notices',
};

/**
 * A request that took longer than its deadline: the site answers, but too slowly to be waited for.
 */
export function deadlinePassed(ms: number): CoreError {
  return new CoreError(
    'server-error',
    `The site took longer than ${Math.round(ms / 1000)} s to send one answer; the sync stopped.`,
    {
      reason: 'deadline',
    },
  );
}

/**
 * True when objects/arrays nest deeper than `max` levels. Recursion is bounded by `max` itself, so
 * this never overflows.
 */
export function nestsDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (max <= 0) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (nestsDeeperThan(item, max - 1)) return true;
    return false;
  }
  for (const key in value)
    if (nestsDeeperThan((value as Record<string, unknown>)[key], max - 1)) return true;
  return false;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes (UTF-8, strictly) and parses one answer, refusing it as a whole when it is too large, not
 * JSON, or too deep.
 */
export function parseSiteJson(
  body: Uint8Array | ArrayBuffer | string,
  maxBytes: number = MAX_ANSWER_BYTES,
): unknown {
  const size = typeof body === 'string' ? body.length : body.byteLength;
  if (size > maxBytes) throw siteDataInvalid('too-large');
  let value: unknown;
  try {
    value = JSON.parse(typeof body === 'string' ? body : utf8.decode(body));
  } catch (cause) {
    throw siteDataInvalid('not-json', cause);
  }
  if (nestsDeeperThan(value)) throw siteDataInvalid('too-deep');
  return value;
}

/** The string ids of a page's nodes (a node without one is counted by the fetch, not compared). */
export function idsOf(nodes: readonly unknown[]): string[] {
  const ids: string[] = [];
  for (const node of nodes) {
    const id =
      node !== null && typeof node === 'object' ? (node as { id?: unknown }).id : undefined;
    if (typeof id === 'string') ids.push(id);
  }
  return ids;
}
