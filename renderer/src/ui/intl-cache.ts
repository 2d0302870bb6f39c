/**
 * Intl formatters, made once per language and options. Building one costs far more than formatting
 * with it (locale data is resolved at construction): a screen of dates built ~2 per row, which was
 * ~120 ms of the first paint. A constructor that throws (an unknown time zone or currency from a
 * site) is not cached: the caller's catch stays in charge.
 */
const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>();
/**
 * Bounded: options carry site values (a currency, a time zone), so the set of keys is not fixed.
 */
const MAX = 200;

function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>(
  kind: string,
  lng: string,
  options: object,
  make: () => T,
): T {
  const key = `${kind}\u0000${lng}\u0000${JSON.stringify(options)}`;
  const hit = cache.get(key);
  if (hit) return hit as T;
  const made = make();
  if (cache.size >= MAX) cache.clear();
  cache.set(key, made);
  return made;
}

export const dateTimeFormat = (
  lng: string | undefined,
  options: Intl.DateTimeFormatOptions = {},
): Intl.DateTimeFormat =>
  cached('dt', lng ?? '', options, () => new Intl.DateTimeFormat(lng, options));

export const numberFormat = (
  lng: string,
  options: Intl.NumberFormatOptions = {},
): Intl.NumberFormat => cached('nf', lng, options, () => new Intl.NumberFormat(lng, options));

export const relativeTimeFormat = (
  lng: string,
  options: Intl.RelativeTimeFormatOptions = {},
): Intl.RelativeTimeFormat =>
  cached('rt', lng, options, () => new Intl.RelativeTimeFormat(lng, options));
