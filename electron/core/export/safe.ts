/**
 * What an export does with a value the site sent (ARCHITECTURE "Data from a site is untrusted
 * input"): the stored rows keep the site's JSON as it came, so a field typed as a string or an enum
 * in view-models.ts may hold a number, an object, or a word the app does not know. An export shows
 * such a value, never throws on it.
 */

/**
 * The value as text: strings as they are, numbers and booleans written out, anything else (an
 * object) as JSON.
 */
export function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

/**
 * The label of an enum value in one of the export's tables, or the value itself when the table does
 * not have it (a payment method a school added after this version). Only the table's own keys:
 * `constructor` or `toString` is a word like any other, never a property of Object.prototype.
 */
export function label(table: Readonly<Record<string, string>>, value: unknown): string {
  return typeof value === 'string' && Object.hasOwn(table, value) ? table[value]! : text(value);
}
