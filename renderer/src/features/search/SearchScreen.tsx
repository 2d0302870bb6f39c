import {
  Bell,
  CalendarDays,
  CirclePlay,
  CreditCard,
  LibraryBig,
  ListTree,
  MessagesSquare,
  Package,
  Receipt,
  Search,
  SearchX,
  UserRound,
  type LucideIcon,
} from 'lucide-react';
import { keepPreviousData } from '@tanstack/react-query';
import { useId, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  SEARCH_HIT_KINDS,
  type SearchHit,
  type SearchHitKind,
} from '../../../../electron/common/view-models';
import { assertNever } from '../../../../electron/common/result';
import { useApp } from '../../state/context';
import type { Route } from '../../state/routes';
import { useChannel } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { formatDate, formatMoney } from '../../ui/format';
import { Snippet } from '../../ui/Snippet';
import { EmptyState, Loading, ScreenHeader } from '../../ui/states';
import { VirtualList } from '../../ui/VirtualList';
import { paymentStateKey, summaryStateKey } from '../billing/index';
import { contextParts, hitRoute, hitTitle } from './hits';
import { SearchNotes, useNoteHits } from '../notes/index';

type SearchRoute = Extract<Route, { screen: 'search' }>;

const HIT_BUTTONS = '[data-testid="search-results"] .hit-title button';

/** Focuses the first hit's button (the search field's Down key); false when there is none. */
export function focusFirstHit(): boolean {
  const first = document.querySelector<HTMLElement>(HIT_BUTTONS);
  first?.focus();
  return first !== null;
}

function moveBetweenHits(e: KeyboardEvent<HTMLElement>) {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
  // The rendered rows (a window of the list, with overscan: the neighbours of a focused row are
  // always there).
  const buttons = [...e.currentTarget.querySelectorAll<HTMLElement>('.hit-title button')];
  const at = buttons.indexOf(document.activeElement as HTMLElement);
  if (at < 0) return;
  e.preventDefault();
  const next =
    buttons[e.key === 'ArrowDown' ? Math.min(at + 1, buttons.length - 1) : Math.max(at - 1, 0)]!;
  next.focus();
  next.scrollIntoView({ block: 'nearest' });
}

function kindIcon(kind: SearchHitKind): LucideIcon {
  switch (kind) {
    case 'course':
      return LibraryBig;
    case 'section':
      return ListTree;
    case 'lecture':
      return CirclePlay;
    case 'instructor':
      return UserRound;
    case 'order':
      return Receipt;
    case 'payment':
      return CreditCard;
    case 'product':
      return Package;
    case 'event':
      return CalendarDays;
    case 'consulting':
      return MessagesSquare;
    case 'notification':
      return Bell;
    default:
      return assertNever(kind, 'search hit kind');
  }
}

function HitRow({ hit, school }: { readonly hit: SearchHit; readonly school: string | null }) {
  const { t, i18n } = useTranslation();
  const { site, selectSite, navigate } = useApp();
  const KindIcon = kindIcon(hit.kind);
  const open = () => {
    if (hit.siteId !== site?.id) selectSite(hit.siteId);
    navigate(hitRoute(hit));
  };
  const context = contextParts(hit, {
    t: (key, options) => t(key, options),
    money: (value, currency) => formatMoney(value, currency, i18n.language),
    date: (iso) => formatDate(iso, i18n.language),
    orderStateKey: summaryStateKey,
    paymentStateKey,
  });
  return (
    // The whole card opens the hit; the title's button is its one control (stretched, as on course
    // cards).
    <div
      className="card hit clickable-card"
      data-testid="search-hit"
      data-kind={hit.kind}
      data-id={hit.id}
    >
      <span className="kind-icon" aria-hidden="true">
        <KindIcon />
      </span>
      <div>
        <h2 className="hit-title">
          <button type="button" className="card-link" onClick={open}>
            {hitTitle(hit) || t('common.unknown')}
          </button>
        </h2>
        <p className="small hit-context" data-testid="hit-context">
          {[t(`search.kind.${hit.kind}`), ...(school ? [school] : []), ...context].join(' · ')}
        </p>
        <p className="small muted">
          <Snippet text={hit.snippet} />
        </p>
      </div>
    </div>
  );
}

/**
 * Which kinds and which school to search: part of the route, so Back returns to the same filters.
 */
function Filters({ route }: { readonly route: SearchRoute }) {
  const { t } = useTranslation();
  const { sites, navigate } = useApp();
  const kindId = useId();
  const schoolId = useId();
  const set = (change: Partial<Pick<SearchRoute, 'kind' | 'siteId'>>) => {
    const next: SearchRoute = { ...route, ...change };
    navigate({
      screen: 'search',
      query: next.query,
      ...(next.kind ? { kind: next.kind } : {}),
      ...(next.siteId ? { siteId: next.siteId } : {}),
    });
  };
  return (
    <div className="search-filters" role="group" aria-label={t('search.filters')}>
      <label htmlFor={kindId}>
        {t('search.kindFilter')}
        <select
          id={kindId}
          value={route.kind ?? ''}
          onChange={(e) =>
            set({ kind: (e.target.value || undefined) as SearchHitKind | undefined })
          }
          data-testid="search-kind"
        >
          <option value="">{t('search.allKinds')}</option>
          {SEARCH_HIT_KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`search.kind.${k}`)}
            </option>
          ))}
        </select>
      </label>
      {sites.length > 1 && (
        <label htmlFor={schoolId}>
          {t('search.school')}
          <select
            id={schoolId}
            value={route.siteId ?? ''}
            onChange={(e) => set({ siteId: e.target.value || undefined })}
            data-testid="search-school"
          >
            <option value="">{t('search.allSchools')}</option>
            {sites.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );
}

export function SearchScreen({ route }: { readonly route: SearchRoute }) {
  const { t } = useTranslation();
  const { sites } = useApp();
  const trimmed = route.query.trim();
  // A site removed since the route was made: every school instead.
  const siteId =
    route.siteId && sites.some((s) => s.id === route.siteId) ? route.siteId : undefined;
  const q = useChannel(
    'search:query',
    {
      query: trimmed,
      ...(siteId ? { siteId } : {}),
      ...(route.kind ? { kinds: [route.kind] } : {}),
    },
    { enabled: trimmed.length > 0, placeholderData: keepPreviousData },
  );
  // The student's own notes, above the school's hits (a kind filter names a kind of the school's).
  const notes = useNoteHits(trimmed, siteId, route.kind === undefined);
  const noteCount = route.kind === undefined ? (notes.data?.length ?? 0) : 0;
  // Which text the results on screen answer (empty while an older text's are kept on screen): tests
  // and the start-up bench wait on it for "the last key's results are painted".
  const answered = trimmed !== '' && q.isSuccess && !q.isPlaceholderData ? trimmed : '';
  const schoolOf = (id: string) =>
    sites.length > 1 ? (sites.find((s) => s.id === id)?.label ?? null) : null;
  return (
    <div className="screen" data-results-for={answered}>
      <ScreenHeader
        title={trimmed ? t('search.titleFor', { query: trimmed }) : t('search.title')}
      />
      {trimmed !== '' && <Filters route={route} />}
      {trimmed !== '' && noteCount > 0 && <SearchNotes hits={notes.data} />}
      {trimmed === '' ? (
        <EmptyState title={t('search.prompt')} icon={Search} />
      ) : q.isPending ? (
        <Loading shape="rows" />
      ) : q.isError ? (
        <ErrorState title={t('search.failed')} error={q.error} onRetry={() => void q.refetch()} />
      ) : q.data.length === 0 ? (
        noteCount === 0 && (
          <EmptyState title={t('search.noResults', { query: trimmed })} icon={SearchX} />
        )
      ) : (
        <>
          <p className="muted count-line" role="status">
            {t('search.count', { count: q.data.length })}
          </p>
          {/* Up and Down move between the hits (each hit's title is its button); Enter opens one. */}
          <div onKeyDown={moveBetweenHits}>
            <VirtualList
              items={q.data}
              estimateSize={110}
              gap={8}
              getKey={(h) => `${h.siteId}:${h.kind}:${h.id}`}
              label={t('search.resultsLabel')}
              testId="search-results"
              render={(h) => <HitRow hit={h} school={schoolOf(h.siteId)} />}
            />
          </div>
        </>
      )}
    </div>
  );
}
