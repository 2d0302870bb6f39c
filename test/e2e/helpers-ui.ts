/**
 * Helpers for the screen specs (ui-details, ui-zh-tw, ui-offline-screens): the demo sign-in, axe,
 * the student's own translations (to compute what a screen must say), windowed lists, and the demo
 * site's server side (its member API as the student's truth, its token store for revocations).
 */
import type { Locator, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import type { BrowserHost } from '../../electron/browser-host/server';
import type { EmbeddedServer } from '../../embedded-server/index';
import { revokeGrant } from '../../embedded-server/store/tokens';
import { mintToken } from '../embedded-server/member-api/tokens';
import { expect } from './fixtures';

export { expectAccessible, libraryFromToday, SHOTS, startDemo } from './fixtures';

// ---------------------------------------------------------------- the app

export type NavScreen =
  'library' | 'notifications' | 'billing' | 'entitlements' | 'consulting' | 'profile' | 'settings';

/** Opens a screen from the sidebar and waits for its heading. */
export async function openScreen(page: Page, screen: NavScreen): Promise<void> {
  await page.getByTestId(`nav-${screen}`).click();
  await expect(page.getByTestId(`nav-${screen}`)).toHaveAttribute('aria-current', 'page');
  await expect(page.locator('#screen-title')).toBeVisible();
}

/**
 * Long lists are windowed: a row far down is not in the DOM until the screen is scrolled near it.
 * Scrolls the screen (the app's <main>) from the top until `target` is rendered, then brings it
 * into view.
 */
export async function scrollToRow(page: Page, target: Locator, maxSteps = 80): Promise<void> {
  const main = page.locator('#main');
  // Rows are rendered for the scroll position one frame after it changes: look only after that
  // frame.
  const settle = () =>
    page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  await main.evaluate((m) => m.scrollTo(0, 0));
  await settle();
  for (let i = 0; i < maxSteps && (await target.count()) === 0; i++) {
    const step = await main.evaluate((m) => {
      const before = m.scrollTop;
      m.scrollBy(0, Math.max(200, m.clientHeight * 0.6));
      return { moved: m.scrollTop !== before, height: m.scrollHeight };
    });
    if (!step.moved) {
      // At the end: a paged list may be loading its next page (the list then grows); otherwise stop
      // looking.
      const grew = await expect
        .poll(
          async () =>
            (await target.count()) > 0 ||
            (await main.evaluate((m) => m.scrollHeight)) > step.height,
          { timeout: 5_000 },
        )
        .toBe(true)
        .then(
          () => true,
          () => false,
        );
      if (!grew) break;
    } else {
      await settle();
    }
  }
  await expect(target.first()).toBeAttached({ timeout: 10_000 });
  await target.first().scrollIntoViewIfNeeded();
}

/**
 * Purchases shows orders collapsed: opens one (its disclosure button) unless it is open already.
 */
export async function expandOrder(order: Locator): Promise<void> {
  const toggle = order.first().getByTestId('order-toggle');
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
}

/** Opens one course from the library by its id. */
export async function openCourse(page: Page, courseId: string): Promise<void> {
  await openScreen(page, 'library');
  const card = page.locator(`[data-testid="course-card"][data-course-id="${courseId}"]`);
  await scrollToRow(page, card);
  await card.getByRole('heading').getByRole('button').click();
  await expect(page.getByTestId('lecture-row').first()).toBeVisible({ timeout: 15_000 });
}

// ---------------------------------------------------------------- the student's words and formats

type Tree = { readonly [k: string]: string | Tree };
const dictionaries: Record<string, Tree> = {};

/**
 * The app's own strings (renderer/src/i18n/<lng>.json) with i18next's rules for what the specs use:
 * `{{var}}` interpolation and plural keys (`_zero` for 0 where present, else Intl.PluralRules'
 * category, else the bare key).
 */
export function translator(
  lng: 'en' | 'zh-TW',
): (key: string, vars?: Readonly<Record<string, string | number>>) => string {
  dictionaries[lng] ??= JSON.parse(readFileSync(`renderer/src/i18n/${lng}.json`, 'utf8')) as Tree;
  const dict = dictionaries[lng];
  const at = (key: string): string | undefined => {
    const v = key
      .split('.')
      .reduce<string | Tree | undefined>(
        (n, p) => (n && typeof n === 'object' ? n[p] : undefined),
        dict,
      );
    return typeof v === 'string' ? v : undefined;
  };
  const rules = new Intl.PluralRules(lng);
  return (key, vars = {}) => {
    const count = vars['count'];
    let text: string | undefined;
    if (typeof count === 'number')
      text =
        (count === 0 ? at(`${key}_zero`) : undefined) ??
        at(`${key}_${rules.select(count)}`) ??
        at(`${key}_other`);
    text ??= at(key);
    if (text === undefined) throw new Error(`no string ${lng}:${key}`);
    return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) =>
      String(vars[name] ?? `{{${name}}}`),
    );
  };
}

/** Every leaf string of a language file (for "nothing left in English" checks). */
export function allStrings(lng: 'en' | 'zh-TW'): string[] {
  const tree = JSON.parse(readFileSync(`renderer/src/i18n/${lng}.json`, 'utf8')) as Tree;
  const out: string[] = [];
  const walk = (t: Tree) =>
    Object.values(t).forEach((v) => (typeof v === 'string' ? out.push(v) : walk(v)));
  walk(tree);
  return out;
}

/**
 * English UI phrases (from en.json, strings the Chinese file does not share) found on the page:
 * each string's fixed parts of two words or more and 12+ characters, so the bilingual demo data
 * itself does not count.
 */
export async function englishLeftovers(page: Page): Promise<string[]> {
  const zh = new Set(allStrings('zh-TW'));
  const phrases = new Set(
    allStrings('en')
      .filter((s) => !zh.has(s))
      .flatMap((s) => s.split(/\{\{[^}]*\}\}/))
      .map((s) => s.trim())
      .filter((s) => s.length >= 12 && /[A-Za-z]{2,}[ ’'][A-Za-z]{2,}/.test(s)),
  );
  const text = await page.locator('body').innerText();
  return [...phrases].filter((p) => text.includes(p));
}

/**
 * Dates in the short style (2026/11/28, 11/28) on a zh-TW screen, where every date is written
 * 2026年11月28日: two styles on one screen read as two kinds of date.
 */
export async function slashedDates(page: Page): Promise<string[]> {
  const text = await page.locator('body').innerText();
  return text.match(/\b\d{1,4}\/\d{1,2}(?:\/\d{1,4})?\b/g) ?? [];
}

/**
 * Text that does not fit where it is shown: the screen scrolling sideways, or a control, badge,
 * heading or cell whose content is wider than its box (and not meant to scroll). Returns a short
 * description of each.
 */
export async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const out = [];
    const main = document.querySelector('#main');
    if (main && main.scrollWidth > main.clientWidth + 1) out.push('#main scrolls sideways (' + main.scrollWidth + ' > ' + main.clientWidth + ')');
    for (const el of document.querySelectorAll('button, a.button, .tag, .state-badge, .pill, h1, h2, h3, label, th, td, dt, dd, p, select, summary')) {
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden' || el.clientWidth === 0) continue;
      if (el.closest('.visually-hidden, .table-scroll')) continue;
      if (style.overflowX !== 'visible' && style.textOverflow === 'ellipsis') continue;
      if (el.scrollWidth > el.clientWidth + 1) out.push(el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ').join('.') : '') + ': ' + (el.textContent || '').trim().slice(0, 60));
    }
    return out;
  })()`);
}

/** 754 -> "12:34", 4354 -> "1:12:34" (what a lecture's length looks like). */
export function clock(totalSeconds: number): string {
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
}

export type DateKind = 'date' | 'date-time' | 'range' | 'money';

/**
 * Formats in the page, with the page's own Intl (same ICU, time zone and locale as the screen), so
 * an expectation never depends on Node's ICU: 'date' (medium), 'date-time' (medium + short),
 * 'range' (two ISO dates), 'money' (amount + ISO 4217 code; TWD and other zero-decimal currencies
 * without decimals).
 */
export async function formatInPage(
  page: Page,
  lng: string,
  kind: DateKind,
  a: string | number,
  b?: string,
): Promise<string> {
  return page.evaluate(
    ([lng, kind, a, b]) => {
      if (kind === 'money') {
        const zero = ['TWD', 'JPY', 'KRW', 'VND', 'CLP', 'ISK', 'UGX', 'PYG'].includes(
          String(b).toUpperCase(),
        );
        return new Intl.NumberFormat(lng, {
          style: 'currency',
          currency: String(b),
          ...(zero ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {}),
        }).format(Number(a));
      }
      if (kind === 'date')
        return new Intl.DateTimeFormat(lng, { dateStyle: 'medium' }).format(new Date(String(a)));
      const f = new Intl.DateTimeFormat(lng, { dateStyle: 'medium', timeStyle: 'short' });
      if (kind !== 'range') return f.format(new Date(String(a)));
      // A range is two medium dates, the end's time alone on the same day (format.ts: Intl's
      // formatRange writes zh-TW dates in another style).
      const [start, end] = [new Date(String(a)), new Date(String(b))];
      const day = new Intl.DateTimeFormat(lng, { dateStyle: 'medium' });
      const endText =
        day.format(start) === day.format(end)
          ? new Intl.DateTimeFormat(lng, { timeStyle: 'short' }).format(end)
          : f.format(end);
      return `${f.format(start)} – ${endText}`;
    },
    [lng, kind, a, b ?? null] as const,
  );
}

// ---------------------------------------------------------------- the demo site's server side

/** The running demo site (the first of the two) the student signed in to. */
export function demoServer(host: BrowserHost): EmbeddedServer {
  const servers = host.core.demo?.servers();
  if (!servers) throw new Error('the demo sites are not running');
  return servers.demo;
}

/**
 * Asks the site's member API, as the student, what it holds (a token minted straight into the
 * site's token store for this read: the app's own tokens stay in its vault). This is the truth a
 * screen is compared with. `selection` is a selection set on `viewer`, e.g.
 * `{ unreadNotificationCount }`.
 */
export async function askSite<T>(server: EmbeddedServer, selection: string): Promise<T> {
  const { accessToken } = mintToken(server, { scopes: ['account:read'] });
  const res = await fetch(`${server.url}/member/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ query: `{ viewer ${selection} }` }),
  });
  const body = (await res.json()) as { data?: { viewer: T }; errors?: { message: string }[] };
  if (!res.ok || body.errors?.length || !body.data)
    throw new Error(`member API: HTTP ${res.status} ${body.errors?.[0]?.message ?? ''}`);
  return body.data.viewer;
}

/** Grants of the demo app (client demo-desktop) for the student that are still live at the site. */
export function liveAppGrants(server: EmbeddedServer): string[] {
  const rows = server.db
    .prepare(
      `SELECT DISTINCT grant_id AS grantId FROM token_pairs
        WHERE client_id = 'demo-desktop' AND user_id = 'usr_student' AND revoked_at IS NULL AND grant_id NOT LIKE 'grant_tok_test_%'`,
    )
    .all() as { grantId: string }[];
  return rows.map((r) => r.grantId);
}

/** Every grant the app was ever issued for the student at this site (live or revoked). */
export function allAppGrants(server: EmbeddedServer): string[] {
  const rows = server.db
    .prepare(
      `SELECT DISTINCT grant_id AS grantId FROM token_pairs WHERE client_id = 'demo-desktop' AND user_id = 'usr_student' AND grant_id NOT LIKE 'grant_tok_test_%'`,
    )
    .all() as { grantId: string }[];
  return rows.map((r) => r.grantId);
}

/**
 * Ends the app's sessions at the site, as the site does when the student signs out elsewhere or an
 * operator ends them: the same store call the revocation endpoint (RFC 7009) makes for a presented
 * refresh token. Returns how many grants were ended.
 */
export function revokeAppGrantsAtSite(server: EmbeddedServer): number {
  const grants = liveAppGrants(server);
  for (const g of grants) revokeGrant(server.db, g, server.clock.now(), 'revoked-by-test-operator');
  return grants.length;
}
