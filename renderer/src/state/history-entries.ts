import { SEARCH_HIT_KINDS } from '../../../electron/common/view-models';
import { isSettingsSection, type Route, type Screen } from './routes';

/**
 * The pure half of the screens' history (state/history.ts): what an entry holds, read back and
 * compared. No DOM.
 */

export interface HistoryEntry {
  readonly route: Route;
  readonly siteId: string | null;
}

const SCREENS: ReadonlySet<Screen> = new Set<Screen>([
  'today',
  'library',
  'course',
  'billing',
  'entitlements',
  'consulting',
  'notifications',
  'profile',
  'search',
  'settings',
  'add-site',
]);

/**
 * A history entry read back from history.state (anything the page stored before, or another
 * version's shape).
 */
export function readEntry(state: unknown): HistoryEntry | null {
  if (typeof state !== 'object' || state === null) return null;
  const { route, siteId } = state as { route?: unknown; siteId?: unknown };
  if (typeof route !== 'object' || route === null) return null;
  const r = route as { screen?: unknown; courseId?: unknown; query?: unknown; section?: unknown };
  if (typeof r.screen !== 'string' || !SCREENS.has(r.screen as Screen)) return null;
  if (r.screen === 'course' && typeof r.courseId !== 'string') return null;
  if (r.screen === 'search' && typeof r.query !== 'string') return null;
  // An invite outcome or a sign-out to confirm is a moment, not a place: going back shows the
  // screen as it is (at the Settings section it was at; a section this version does not have is the
  // top).
  const kept: Route =
    r.screen === 'add-site'
      ? { screen: 'add-site' }
      : r.screen === 'settings'
        ? isSettingsSection(r.section)
          ? { screen: 'settings', section: r.section }
          : { screen: 'settings' }
        : (route as Route);
  if (kept.screen === 'billing' && kept.tradeNo !== undefined && typeof kept.tradeNo !== 'string')
    return null;
  if (kept.screen === 'course' && !optionalText(kept.lectureId, kept.sectionId)) return null;
  if (
    (kept.screen === 'entitlements' ||
      kept.screen === 'consulting' ||
      kept.screen === 'notifications') &&
    !optionalText(kept.itemId)
  )
    return null;
  if (kept.screen === 'search') {
    if (!optionalText(kept.siteId)) return null;
    if (kept.kind !== undefined && !(SEARCH_HIT_KINDS as readonly string[]).includes(kept.kind))
      return null;
  }
  return { route: kept, siteId: typeof siteId === 'string' ? siteId : null };
}

const optionalText = (...values: unknown[]) =>
  values.every((v) => v === undefined || typeof v === 'string');

export function sameRoute(a: Route, b: Route): boolean {
  if (a.screen !== b.screen) return false;
  if (a.screen === 'course' && b.screen === 'course')
    return a.courseId === b.courseId && a.lectureId === b.lectureId && a.sectionId === b.sectionId;
  if (a.screen === 'search' && b.screen === 'search')
    return a.query === b.query && a.kind === b.kind && a.siteId === b.siteId;
  if (a.screen === 'billing' && b.screen === 'billing') return a.tradeNo === b.tradeNo;
  if (a.screen === 'entitlements' && b.screen === 'entitlements') return a.itemId === b.itemId;
  if (a.screen === 'consulting' && b.screen === 'consulting') return a.itemId === b.itemId;
  if (a.screen === 'notifications' && b.screen === 'notifications') return a.itemId === b.itemId;
  if (a.screen === 'settings' && b.screen === 'settings')
    return a.intent === undefined && b.intent === undefined && a.section === b.section;
  return a.screen !== 'add-site';
}

/**
 * Typing a search changes the route at every key: one entry for the whole search, not one a letter.
 */
export function replacesEntry(current: Route, next: Route): boolean {
  return current.screen === 'search' && next.screen === 'search';
}

/** The parts of a KeyboardEvent the Back and Forward keys are read from. */
export interface HistoryKeyPress {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
  readonly shiftKey: boolean;
}

/**
 * Back or Forward by the keys the installed app's Go menu gives them (core/desktop/menu-model.ts):
 * Cmd+[ and Cmd+] on macOS (Apple HIG), Alt+Left and Alt+Right elsewhere. The browser host's page
 * reads them itself, as a headless or embedded browser may not, and a real one would otherwise
 * leave the app.
 */
export function historyDirection(
  press: HistoryKeyPress,
  isMac: boolean,
): 'back' | 'forward' | null {
  if (press.shiftKey) return null;
  if (isMac) {
    if (!press.metaKey || press.ctrlKey || press.altKey) return null;
    return press.key === '[' ? 'back' : press.key === ']' ? 'forward' : null;
  }
  if (!press.altKey || press.ctrlKey || press.metaKey) return null;
  return press.key === 'ArrowLeft' ? 'back' : press.key === 'ArrowRight' ? 'forward' : null;
}

/**
 * A route that names a place of its own (a search hit, an order, a Settings section) scrolls there
 * itself.
 */
export function namesAPlace(route: Route): boolean {
  return Object.entries(route).some(
    ([k, v]) =>
      k !== 'screen' &&
      k !== 'courseId' &&
      k !== 'query' &&
      k !== 'kind' &&
      k !== 'siteId' &&
      v !== undefined,
  );
}
