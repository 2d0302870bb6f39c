/**
 * The first frame from the last session (electron/common/first-screen.ts): kept in the data folder,
 * read by a host before the core opens, and put into the first page it sends, so a cold start
 * paints the student's Today (their courses, from this computer) as soon as the page's HTML and
 * styles are in, while the app's scripts load and the core opens. The live app then takes the
 * window over (renderer/src/state/first-screen.ts).
 *
 * This module is on the start's critical path, before the core: node:fs only, no zod (its import
 * alone costs 60-100 ms of a cold start), so the file is checked by hand, and anything unexpected
 * means "no frame", never an error.
 *
 * The frame shows offline data, so it goes with that data: removing a site or its data forgets it
 * first (handlers/ sites.ts), and a save naming a school that is gone is refused. The page's CSP
 * (script-src 'self', no inline script) governs the frame like the rest of the page; on top, the
 * markup is parsed against an allow-list of the elements and attributes the app renders and sent as
 * that parse writes it out (frame-markup.ts): anything else (a script, an event handler, a form, a
 * javascript: address however it is spelled) means no frame at all. The frame is inert too.
 */
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  FIRST_SCREEN_ID,
  FIRST_SCREEN_MAX_BYTES,
  type FirstScreenInput,
} from '../../common/first-screen';
import { writeFileAtomic } from '../fs/atomic-file';
import { sanitizeFrameMarkup } from './frame-markup';

export const FIRST_SCREEN_FILE = 'first-screen.json';

/** A saved frame, as read back: what was sent, and when. */
export interface SavedFirstScreen extends FirstScreenInput {
  readonly savedAt: string;
}

const LANG = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8}){0,3}$/;
const BUILD = /^[A-Za-z0-9._-]{1,200}$/;
/**
 * `html` as the frame to send (frame-markup.ts), or null: too large, or anything in it outside the
 * allow-list.
 */
export function sendableMarkup(html: string): string | null {
  return Buffer.byteLength(html, 'utf8') <= FIRST_SCREEN_MAX_BYTES
    ? sanitizeFrameMarkup(html)
    : null;
}

/** Whether `html` may be sent as the frame. */
export function isSendableMarkup(html: string): boolean {
  return sendableMarkup(html) !== null;
}

/**
 * The input's own checks, shared by the save (after zod) and the read (by hand): null when it is
 * acceptable.
 */
export function firstScreenProblem(value: FirstScreenInput): string | null {
  if (!isSendableMarkup(value.html)) return 'markup too large or not the app’s own';
  if (!BUILD.test(value.build)) return 'build';
  if (!LANG.test(value.lang)) return 'lang';
  if (value.dir !== 'ltr' && value.dir !== 'rtl') return 'dir';
  if (value.theme !== null && value.theme !== 'light' && value.theme !== 'dark') return 'theme';
  return null;
}

/**
 * The saved frame in `dataDir`, or null (none, unreadable, too large, or not in the expected
 * shape). Synchronous.
 */
export function readFirstScreen(dataDir: string): SavedFirstScreen | null {
  const file = join(dataDir, FIRST_SCREEN_FILE);
  try {
    // Room for the JSON's escapes around the markup's own limit.
    if (statSync(file).size > FIRST_SCREEN_MAX_BYTES * 2 + 4096) return null;
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof value !== 'object' || value === null) return null;
    const v = value as Record<string, unknown>;
    if (
      typeof v.html !== 'string' ||
      typeof v.build !== 'string' ||
      typeof v.lang !== 'string' ||
      typeof v.savedAt !== 'string'
    )
      return null;
    if (!Array.isArray(v.siteIds) || !v.siteIds.every((id) => typeof id === 'string')) return null;
    const screen: SavedFirstScreen = {
      html: v.html,
      build: v.build,
      lang: v.lang,
      dir: v.dir as FirstScreenInput['dir'],
      theme: (v.theme ?? null) as FirstScreenInput['theme'],
      siteIds: v.siteIds as string[],
      savedAt: v.savedAt,
    };
    return firstScreenProblem(screen) === null ? screen : null;
  } catch {
    return null;
  }
}

/**
 * The page's build: the file name of its main module script (Vite names it by its content's hash).
 */
export function buildIdOf(indexHtml: string): string | null {
  const tag = /<script\b[^>]*\btype="module"[^>]*>/i.exec(indexHtml)?.[0];
  const src = tag ? /\bsrc="([^"]+)"/i.exec(tag)?.[1] : undefined;
  return src?.split('/').pop() ?? null;
}

const attr = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * `indexHtml` with the frame in it, or null when it must not be sent (another build drew it, or the
 * page has no
 * #root). The frame is inert and hidden from assistive technology: what a screen reader or a click
 * reaches is the live app beneath it. `stylesheet`, when given, turns the page's stylesheet link
 * into the same rules inline, so the frame paints without waiting for a request the host may answer
 * late while it opens the core.
 */
export function pageWithFirstScreen(
  indexHtml: string,
  screen: SavedFirstScreen,
  stylesheet?: (href: string) => string | null,
): string | null {
  const markup = sendableMarkup(screen.html);
  if (buildIdOf(indexHtml) !== screen.build || markup === null) return null;
  const root = '<div id="root"></div>';
  if (!indexHtml.includes(root)) return null;
  const theme = screen.theme ? ` data-theme="${screen.theme}"` : '';
  let page = indexHtml
    .replace(/<html\b[^>]*>/i, `<html lang="${attr(screen.lang)}" dir="${screen.dir}"${theme}>`)
    .replace(
      root,
      `${root}<div id="${FIRST_SCREEN_ID}" class="first-screen" aria-hidden="true" inert>${markup}</div>`,
    );
  if (stylesheet) {
    page = page.replace(/<link\b[^>]*\brel="stylesheet"[^>]*>/gi, (link) => {
      const href = /\bhref="([^"]+)"/i.exec(link)?.[1];
      const css = href ? stylesheet(href) : null;
      // A stylesheet that could end the element early stays a link.
      return css === null || /<\/style/i.test(css) ? link : `<style>${css}</style>`;
    });
  }
  return page;
}

export interface FirstScreenStore {
  /**
   * Keeps the frame, unless it fails its checks or names a school without offline data here: then
   * says why.
   */
  save(input: FirstScreenInput): Promise<{ saved: true } | { saved: false; reason: string }>;
  /** Forgets the frame (data removed, appearance changed). */
  forget(): Promise<void>;
}

/**
 * Saves and forgets in order (one queue), so a forget that follows a save always wins. A frame
 * shows offline data: it is kept only when every school it names is listed in `sites` with a last
 * sync (the data is here) as the save runs.
 */
export function createFirstScreenStore(
  dataDir: string,
  sites: { getSite(siteId: string): { readonly lastSyncedAt: string | null } | null },
): FirstScreenStore {
  const hasOfflineData = (siteId: string) => (sites.getSite(siteId)?.lastSyncedAt ?? null) !== null;
  const file = join(dataDir, FIRST_SCREEN_FILE);
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };
  return {
    save: (input) =>
      serial(async () => {
        const problem = firstScreenProblem(input);
        if (problem !== null) return { saved: false as const, reason: problem };
        if (input.siteIds.length === 0 || !input.siteIds.every(hasOfflineData))
          return { saved: false as const, reason: 'a school it shows has no data here' };
        const saved: SavedFirstScreen = { ...input, savedAt: new Date().toISOString() };
        await writeFileAtomic(file, JSON.stringify(saved));
        return { saved: true as const };
      }),
    forget: () => serial(async () => rmSync(file, { force: true })),
  };
}
