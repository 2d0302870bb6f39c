import type { Database } from 'better-sqlite3';
import { siteText } from '../../../common/site-values';

/**
 * The one form of text the search index holds and a query is matched in. Unicode NFKC
 * (https://unicode.org/reports/tr15/#Norm_Forms) folds the compatibility forms a school's titles
 * and a student's typing mix freely: full-width Latin, digits and punctuation (`線上問答：資料職涯` has a
 * full-width colon, a student may type an ASCII one), half-width kana, ligatures, circled and
 * super-script digits. Then the text is cleaned as every view shows a site's text (site-values.ts
 * siteText: no bidi controls, invisible characters or line breaks). This form is for matching only:
 * a hit shows the school's own title (context.ts, shown.ts), through siteText too.
 */
export function searchForm(value: unknown): string {
  return siteText(
    typeof value === 'string' ? value.normalize('NFKC') : value,
    Number.MAX_SAFE_INTEGER,
  );
}

/**
 * `search_form(text)` in SQL, for the statements that write the index (build.ts, migration 019).
 * Registered on every connection that writes (migrate.ts), deterministic so SQLite may evaluate it
 * once per value.
 */
export function registerSearchFunctions(db: Database): void {
  db.function('search_form', { deterministic: true }, (value: unknown) => searchForm(value));
}
