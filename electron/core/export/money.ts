/**
 * Amounts in exported files: plain decimal numbers in the currency's major unit (view-models.ts),
 * written with exactly the currency's minor-unit digits so a spreadsheet reads them as numbers and
 * a receipt shows them as the site priced them.
 */

import { kept } from './memo';

// ISO 4217 minor units, where they differ from the usual 2. TWD is listed with 2 by ISO 4217, but
// it is priced and paid in whole dollars; the project treats it as having none (ARCHITECTURE
// "Filling what the spec leaves out").
const ZERO_DIGITS = new Set([
  'TWD',
  'JPY',
  'KRW',
  'VND',
  'CLP',
  'ISK',
  'UGX',
  'PYG',
  'XAF',
  'XOF',
  'XPF',
  'RWF',
  'KMF',
  'GNF',
  'DJF',
  'BIF',
  'VUV',
]);
const THREE_DIGITS = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);

/** Digits after the decimal point for an ISO 4217 code (2 when the code is unknown). */
export function minorUnits(currency: string): number {
  const code = String(currency).toUpperCase();
  if (ZERO_DIGITS.has(code)) return 0;
  if (THREE_DIGITS.has(code)) return 3;
  return 2;
}

/**
 * 1200 TWD -> "1200"; 12.5 USD -> "12.50"; -3 USD -> "-3.00". No grouping, '.' as the separator (a
 * CSV cell).
 */
export function plainAmount(amount: number, currency: string): string {
  const digits = minorUnits(currency);
  // Rounded in minor units first: 0.1 + 0.2 must print as 0.30, and -0 as 0.
  const scale = 10 ** digits;
  const minor = Math.round(Number(amount) * scale);
  if (!Number.isFinite(minor)) return String(amount);
  const text = (Math.abs(minor) / scale).toFixed(digits);
  return minor < 0 ? `-${text}` : text;
}

/**
 * Formatters by (language, currency): built once each, for the same reason as the date formatters
 * (dates.ts).
 */
const currencyFormats = new Map<string, Intl.NumberFormat>();
const CURRENCY_FORMATS_KEPT = 32;

function currencyFormat(language: string, currency: string, digits: number): Intl.NumberFormat {
  // Throws for a code Intl does not know; nothing is kept for it.
  return kept(
    currencyFormats,
    CURRENCY_FORMATS_KEPT,
    `${language}\u0000${currency}`,
    () =>
      new Intl.NumberFormat(language, {
        style: 'currency',
        currency,
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      }),
  );
}

/** "NT$1,200" / "$12.50" in the reader's language, with the currency's own minor units. */
export function displayAmount(amount: number, currency: string, language: string): string {
  const digits = minorUnits(currency);
  try {
    return currencyFormat(language, currency, digits).format(amount);
  } catch {
    // An unknown code: still readable, never wrong about the digits.
    return `${currency} ${plainAmount(amount, currency)}`;
  }
}
