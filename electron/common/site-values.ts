/**
 * Values a site sent, made safe to show (data from a site is untrusted input, ARCHITECTURE.md). The
 * core's view models pass every enum, title and label through these, so the screens, the OS
 * notifications and the exports all see the same thing: an enum value this version does not know is
 * 'unknown' (shown as "unknown", never thrown), a text is a string without the invisible characters
 * that could reorder or hide what it says. Pure functions: no `node:` or `electron` import
 * (electron/common).
 */

/** What the app shows for an enum value it does not know (a school's new payment method, say). */
export const UNKNOWN = 'unknown';
export type Unknown = typeof UNKNOWN;

/**
 * `value` when it is one of `known` (an own member, never a prototype name like "constructor"),
 * else 'unknown'.
 */
export function knownOr<T extends string>(value: unknown, known: readonly T[]): T | Unknown {
  return typeof value === 'string' && (known as readonly string[]).includes(value)
    ? (value as T)
    : UNKNOWN;
}

// Unicode bidirectional formatting characters (UAX #9 §2: LRE, RLE, PDF, LRO, RLO; LRI, RLI, FSI,
// PDI; LRM, RLM, ALM):
// an override makes "gpj.exe" read "exe.jpg" (Unicode TR36 §2.3 "Bidirectional Text Spoofing"). The
// text's own strong characters keep their direction; only the invisible controls go.
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/gu;
// Invisible characters with no job in a title (TR36 §2.4 "Invisible characters"): zero width space,
// word joiner, invisible operators, deprecated format characters, BOM, Mongolian vowel separator,
// interlinear annotation, soft hyphen.
const INVISIBLE = /[\u200B\u2060-\u2064\u206A-\u206F\uFEFF\u180E\uFFF9-\uFFFB\u00AD]/gu;
// Zero width (non-)joiners shape emoji sequences and Indic/Persian words, always between two such
// characters; next to ASCII, a space or an end they only hide a difference between two look-alike
// names.
// eslint-disable-next-line no-control-regex -- finding control characters is this pattern's job
const JOINER_HIDING = /(?<=^|[\x00-\x7F])[\u200C\u200D]|[\u200C\u200D](?=$|[\x00-\x7F])/gu;
// Tag characters are invisible except as the letters of a subdivision flag (U+1F3F4 then tags,
// UTS #51 §2.8).
const STRAY_TAGS = /(?<!\u{1F3F4}[\u{E0020}-\u{E007E}]*)[\u{E0001}-\u{E007F}]/gu;
// C0/C1 controls: never text. Line and paragraph separators and NEL end a line where a title has
// none.
// eslint-disable-next-line no-control-regex -- finding control characters is this pattern's job
const CONTROLS_KEEP_LINES = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F]/g;
const LINE_BREAKS = /[\r\n\u0085\u2028\u2029]+/g;

// Any character the cleaners below touch; most titles have none and are returned as they are.
const SUSPECT =
  // eslint-disable-next-line no-control-regex -- finding control characters is this pattern's job
  /[\x00-\x1F\x7F-\x9F\u00AD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB\u{E0000}-\u{E007F}]/u;

function clean(text: string): string {
  if (!SUSPECT.test(text)) return text;
  return text
    .replace(BIDI_CONTROLS, '')
    .replace(INVISIBLE, '')
    .replace(JOINER_HIDING, '')
    .replace(STRAY_TAGS, '')
    .replace(CONTROLS_KEEP_LINES, '');
}

/**
 * A one-line text from a site (a title, a label, a name): a string (numbers and booleans as
 * written, anything else empty), without bidi controls or invisible characters, line breaks as
 * spaces, at most `max` characters.
 */
export function siteText(value: unknown, max = 2000): string {
  const text =
    typeof value === 'string'
      ? value
      : typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : '';
  const out = clean(text).replace(LINE_BREAKS, ' ').replace(/\t/g, ' ');
  return out.length > max ? `${out.slice(0, max)}…` : out;
}

/**
 * siteText that keeps its line breaks (a notification's body, a description): CR LF, NEL, LS and PS
 * become "\n".
 */
export function siteParagraphs(value: unknown, max = 20_000): string {
  const text =
    typeof value === 'string'
      ? value
      : typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : '';
  const out = clean(text).replace(/\r\n?|\u0085|\u2028|\u2029/g, '\n');
  return out.length > max ? `${out.slice(0, max)}…` : out;
}

/**
 * siteText, or null for a value the site left out (null/undefined) or that is empty once cleaned.
 */
export function siteTextOrNull(value: unknown, max?: number): string | null {
  if (value === null || value === undefined) return null;
  const out = siteText(value, max);
  return out === '' ? null : out;
}

/**
 * A finite number, or `fallback` for anything else (a string, NaN, an object): amounts and counts
 * are shown as numbers.
 */
export function siteNumber(value: unknown, fallback = 0): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/**
 * What tells two site labels apart when they could be taken for each other: the same words once
 * case, width, spacing and invisible characters are set aside (Unicode TR36 §2.1 "visually
 * confusable"; NFKC folds full-width and compatibility forms). The screens show each such site's
 * host beside its label.
 */
export function labelSkeleton(label: string): string {
  return siteText(label).normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

// A label that reads as a host name ("school.example.com"): it could pass for that site.
const HOST_LIKE = /(?:^|[\s/@(])((?:[a-z0-9-]+\.)+[a-z]{2,})(?=$|[\s/:)])/u;

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/**
 * The sites whose label could be taken for another's, so the screens show their host beside it
 * (TR36 §2.1): a label the same as another site's once case, width, spacing and invisible
 * characters are set aside, or one that names a host other than the site's own.
 */
export function labelsNeedingHost(
  sites: readonly { readonly id: string; readonly label: string; readonly baseUrl: string }[],
): Map<string, string> {
  const bySkeleton = new Map<string, number>();
  for (const s of sites)
    bySkeleton.set(labelSkeleton(s.label), (bySkeleton.get(labelSkeleton(s.label)) ?? 0) + 1);
  const out = new Map<string, string>();
  for (const s of sites) {
    const host = hostOf(s.baseUrl);
    const named = HOST_LIKE.exec(labelSkeleton(s.label))?.[1];
    const namesOtherHost = named !== undefined && named !== host.toLowerCase().replace(/:\d+$/, '');
    if ((bySkeleton.get(labelSkeleton(s.label)) ?? 0) > 1 || namesOtherHost) out.set(s.id, host);
  }
  return out;
}

/**
 * A site's label as text outside the screens' own layout (an OS notification's title, a sentence):
 * the label, and its host in brackets when labelsNeedingHost says it could be taken for another
 * site's ("Hostile School (evil.example.net)"), so two schools that name themselves alike are told
 * apart there too.
 */
export function distinctSiteLabel(
  site: { readonly id: string; readonly label: string },
  sites: readonly { readonly id: string; readonly label: string; readonly baseUrl: string }[],
): string {
  const host = labelsNeedingHost(sites).get(site.id);
  return host === undefined ? site.label : `${site.label} (${host})`;
}
