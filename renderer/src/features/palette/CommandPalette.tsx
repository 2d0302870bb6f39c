import { keepPreviousData } from '@tanstack/react-query';
import { BookOpen, Command, LayoutGrid, NotebookPen, Receipt, School, Search } from 'lucide-react';
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
// From the names module, not the contract: the contract brings its zod schemas into the window's
// first load.
import { PAGE_LIMIT_MAX } from '../../../../electron/common/ipc-names';
import type { ShortcutScreen } from '../../../../electron/common/shortcuts';
import { call } from '../../api';
import { useChannel } from '../../query';
import { useApp } from '../../state/context';
import { SETTINGS_SECTIONS, type Route } from '../../state/routes';
import { Dialog } from '../../ui/Dialog';
import { fileLanguage, receiveFile } from '../export/index';
import { formatMoney } from '../../ui/format';
import { hitRoute, hitTitle } from '../search/index';
import { useIsMac } from '../../state/platform';
import { pick, type PaletteItem, type PaletteKind } from './palette';
import { noteEntries } from './palette-notes';
import { extraCommands, lectureOnSite, paletteShortcut } from './palette-commands';

const ICONS: Record<PaletteKind, typeof Command> = {
  command: Command,
  screen: LayoutGrid,
  school: School,
  course: BookOpen,
  order: Receipt,
  found: Search,
  note: NotebookPen,
};
/** Search hits the palette adds below its own matches. */
const FOUND_MAX = 8;
const SCREENS: readonly (ShortcutScreen | 'settings')[] = [
  'library',
  'notifications',
  'billing',
  'entitlements',
  'consulting',
  'profile',
  'settings',
];

type Run = () => void;

/**
 * Ctrl/Cmd+K: one text field to reach any screen, school, course (of every school) or recent order,
 * and to run the app's commands. A combobox over a listbox (WAI-ARIA APG): the arrows move the
 * active option, Enter runs it, Escape closes; focus stays in the field throughout and returns
 * where it was when the palette closes.
 */
export function CommandPalette({
  open,
  onClose,
  onShowShortcuts,
}: {
  readonly open: boolean;
  readonly onClose: () => void;
  readonly onShowShortcuts: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} title={t('palette.title')} onClose={onClose} testId="command-palette">
      {open && <PaletteBody onClose={onClose} onShowShortcuts={onShowShortcuts} />}
    </Dialog>
  );
}

function PaletteBody({
  onClose,
  onShowShortcuts,
}: {
  readonly onClose: () => void;
  readonly onShowShortcuts: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { sites, site, selectSite, navigate } = useApp();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  // The 100 most recently active courses of every school and the current school's 100 latest orders
  // (a page each), read from the offline copy when the palette opens; older ones are a search away.
  const courses = useChannel('library:all-page', {
    filter: 'all',
    sort: 'recent',
    offset: 0,
    limit: PAGE_LIMIT_MAX,
  });
  const orders = useChannel(
    'billing:orders',
    { siteId: site?.id ?? '', offset: 0, limit: PAGE_LIMIT_MAX },
    { enabled: site !== null },
  );
  const today = useChannel('today:get', undefined, { enabled: sites.length > 0 });
  const settings = useChannel('settings:get', undefined, { staleTime: Infinity });
  const isMac = useIsMac();

  const entries = useMemo(() => {
    const list: { item: PaletteItem; run: Run }[] = [];
    const go = (route: Route, siteId?: string) => () => {
      if (siteId && siteId !== site?.id) selectSite(siteId);
      navigate(route);
    };
    const siteLabel = (id: string) => sites.find((s) => s.id === id)?.label ?? '';
    list.push(...extraCommands(t, today.data?.continueLearning[0], settings.data));
    if (site?.status === 'ready')
      list.push({
        item: { id: 'sync', kind: 'command', label: t('palette.sync', { site: site.label }) },
        run: () => void call('sync:now', { siteId: site.id }).catch(() => undefined),
      });
    const ready = sites.filter((s) => s.status === 'ready');
    if (ready.length > 1)
      list.push({
        item: { id: 'sync-all', kind: 'command', label: t('palette.syncAll') },
        run: () =>
          ready.forEach((s) => void call('sync:now', { siteId: s.id }).catch(() => undefined)),
      });
    if (site && (orders.data?.total ?? 0) > 0)
      list.push({
        item: {
          id: 'export',
          kind: 'command',
          label: t('palette.exportPurchases', { site: site.label }),
        },
        run: () => {
          navigate({ screen: 'billing' });
          void call('export:orders-csv', { siteId: site.id, language: fileLanguage(i18n.language) })
            .then(receiveFile)
            .catch(() => undefined);
        },
      });
    for (const s of sites.filter((x) => x.status === 'ready'))
      list.push({
        item: {
          id: `sign-out-${s.id}`,
          kind: 'command',
          label: t('palette.signOut', { site: s.label }),
        },
        run: go({ screen: 'settings', intent: { signOut: s.id } }),
      });
    list.push({
      item: { id: 'shortcuts', kind: 'command', label: t('palette.shortcuts') },
      run: onShowShortcuts,
    });
    for (const screen of SCREENS)
      list.push({
        item: { id: `go-${screen}`, kind: 'screen', label: t(`nav.${screen}`) },
        run: go({ screen }),
      });
    list.push({
      item: { id: 'go-add-site', kind: 'screen', label: t('nav.addSite') },
      run: go({ screen: 'add-site' }),
    });
    // Each part of Settings by its name ("Settings › Storage"); the demo's switches are reached
    // from Settings itself.
    for (const section of SETTINGS_SECTIONS)
      if (section !== 'demo')
        list.push({
          item: {
            id: `settings-${section}`,
            kind: 'screen',
            label: t('palette.settingsSection', { section: t(`settings.nav.${section}`) }),
            keywords: [t('nav.settings')],
          },
          run: go({ screen: 'settings', section }),
        });
    if (sites.length > 0)
      list.push({
        item: { id: 'check-sign-in', kind: 'command', label: t('palette.checkSignIn') },
        run: go({ screen: 'settings', section: 'schools', intent: { checkSignIn: true } }),
      });
    for (const s of sites)
      if (s.id !== site?.id)
        list.push({
          item: {
            id: `school-${s.id}`,
            kind: 'school',
            label: t('palette.switchTo', { site: s.label }),
          },
          run: () => selectSite(s.id),
        });
    for (const c of courses.data?.items ?? [])
      list.push({
        item: {
          id: `course-${c.siteId}-${c.courseId}`,
          kind: 'course',
          label: c.title,
          detail: sites.length > 1 ? siteLabel(c.siteId) : (c.instructorName ?? undefined),
          keywords: c.instructorName ? [c.instructorName] : [],
        },
        run: go({ screen: 'course', courseId: c.courseId }, c.siteId),
      });
    for (const o of orders.data?.items ?? [])
      list.push({
        item: {
          id: `order-${o.tradeNo}`,
          kind: 'order',
          label: o.title || o.tradeNo,
          detail: `${o.tradeNo} · ${formatMoney(o.totalAmount, o.currency, i18n.language)}`,
          keywords: [o.tradeNo],
        },
        run: go({ screen: 'billing', tradeNo: o.tradeNo }),
      });
    return list.map((e) => {
      const shortcut = paletteShortcut(e.item.id, isMac);
      return shortcut ? { ...e, item: { ...e.item, shortcut } } : e;
    });
  }, [
    t,
    i18n.language,
    sites,
    site,
    selectSite,
    navigate,
    courses.data,
    orders.data,
    onShowShortcuts,
    today.data,
    settings.data,
    isMac,
  ]);

  // The app's search for what is typed (2 characters or more): lectures, instructors, events,
  // notices... of every school, listed after the palette's own matches (a course or order already
  // listed is not repeated).
  const typed = query.trim();
  const found = useChannel(
    'search:query',
    { query: typed },
    { enabled: [...typed].length >= 2, placeholderData: keepPreviousData },
  );
  const notes = useChannel(
    'notes:search',
    { query: typed, limit: 8 },
    { enabled: [...typed].length >= 2, placeholderData: keepPreviousData },
  );
  const shown = useMemo(() => {
    const byId = new Map(entries.map((e) => [e.item.id, e]));
    const picked = pick(
      entries.map((e) => e.item),
      query,
    ).map((item) => byId.get(item.id)!);
    if ([...typed].length < 2) return picked;
    const listed = new Set(picked.map((e) => e.item.id));
    const hits = (found.data ?? [])
      .filter(
        (h) =>
          !listed.has(
            h.kind === 'course'
              ? `course-${h.siteId}-${h.id}`
              : h.kind === 'order'
                ? `order-${h.id}`
                : '',
          ),
      )
      .slice(0, FOUND_MAX)
      .flatMap((h) => [
        {
          item: {
            id: `found-${h.siteId}-${h.kind}-${h.id}`,
            kind: 'found' as const,
            label: hitTitle(h) || h.id,
            detail: [t(`search.kind.${h.kind}`), h.context.course, h.context.tradeNo]
              .filter(Boolean)
              .join(' · '),
          },
          run: () => {
            if (h.siteId !== site?.id) selectSite(h.siteId);
            navigate(hitRoute(h));
          },
        },
        ...[lectureOnSite(t, h)].filter((e) => e !== null),
      ]);
    return [...picked, ...noteEntries(t, notes.data ?? []), ...hits];
  }, [entries, query, typed, found.data, notes.data, t, site, selectSite, navigate]);
  const current = Math.min(active, Math.max(0, shown.length - 1));
  const optionId = (i: number) => `${listId}-${i}`;

  const runAt = (i: number) => {
    const entry = shown[i];
    if (!entry) return;
    onClose();
    entry.run();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const move = (to: number) => {
      e.preventDefault();
      setActive(to);
      document.getElementById(optionId(to))?.scrollIntoView({ block: 'nearest' });
    };
    if (e.key === 'ArrowDown') move(shown.length === 0 ? 0 : (current + 1) % shown.length);
    else if (e.key === 'ArrowUp')
      move(shown.length === 0 ? 0 : (current - 1 + shown.length) % shown.length);
    else if (e.key === 'Home' && e.ctrlKey) move(0);
    else if (e.key === 'End' && e.ctrlKey) move(Math.max(0, shown.length - 1));
    else if (e.key === 'Enter') {
      e.preventDefault();
      runAt(current);
    }
  };

  return (
    <div className="palette">
      <input
        type="text"
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={shown.length > 0 ? optionId(current) : undefined}
        aria-label={t('palette.inputLabel')}
        placeholder={t('palette.placeholder')}
        value={query}
        autoFocus
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        data-testid="palette-input"
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={t('palette.results')}
        className="palette-list"
        data-testid="palette-list"
      >
        {shown.map((entry, i) => {
          const Icon = ICONS[entry.item.kind];
          return (
            // The options are reached through the field (aria-activedescendant); a click runs one
            // too.
            <li
              key={entry.item.id}
              id={optionId(i)}
              role="option"
              aria-selected={i === current}
              className="palette-option"
              onMouseMove={() => setActive(i)}
              onClick={() => runAt(i)}
              data-testid="palette-option"
              data-kind={entry.item.kind}
              data-id={entry.item.id}
            >
              <Icon aria-hidden="true" />
              <span className="palette-label">{entry.item.label}</span>
              <span className="palette-kind">{t(`palette.kind.${entry.item.kind}`)}</span>
              {entry.item.detail && <span className="palette-detail">{entry.item.detail}</span>}
              {entry.item.shortcut && (
                <kbd className="palette-shortcut" data-testid="palette-shortcut">
                  {entry.item.shortcut}
                </kbd>
              )}
            </li>
          );
        })}
      </ul>
      {shown.length === 0 && (
        <p className="muted" role="status">
          {t('palette.none', { query })}
        </p>
      )}
    </div>
  );
}
