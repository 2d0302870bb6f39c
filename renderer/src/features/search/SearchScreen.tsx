import { Bell, CirclePlay, LibraryBig, ListTree, Search, SearchX, type LucideIcon } from 'lucide-react';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { SearchHit, SearchHitKind } from '../../../../electron/common/view-models';
import { assertNever } from '../../../../electron/common/result';
import { useApp, useSite } from '../../state/context';
import { useChannel } from '../../query';
import { ErrorState } from '../../ui/ErrorState';
import { Snippet } from '../../ui/Snippet';
import { EmptyState, Loading, ScreenHeader } from '../../ui/states';
import { VirtualList } from '../../ui/VirtualList';

function kindIcon(kind: SearchHitKind): LucideIcon {
  switch (kind) {
    case 'course':
      return LibraryBig;
    case 'section':
      return ListTree;
    case 'lecture':
      return CirclePlay;
    case 'notification':
      return Bell;
    default:
      return assertNever(kind, 'search hit kind');
  }
}

function HitRow({ hit }: { readonly hit: SearchHit }) {
  const { t } = useTranslation();
  const { navigate } = useApp();
  const courseId = hit.kind === 'course' ? hit.id : hit.courseId;
  const KindIcon = kindIcon(hit.kind);
  const open = () => {
    if (hit.kind === 'notification') navigate({ screen: 'notifications' });
    else if (courseId) navigate({ screen: 'course', courseId });
  };
  return (
    // The whole card opens the hit; the title's button is its one control (stretched, as on course cards).
    <div className="card hit clickable-card" data-testid="search-hit" data-kind={hit.kind}>
      <span className="kind-icon" aria-hidden="true">
        <KindIcon />
      </span>
      <div>
        <h2 className="hit-title">
          <button type="button" className="card-link" onClick={open}>
            {hit.title}
          </button>
        </h2>
        <p className="small">
          <span className="tag">{t(`search.kind.${hit.kind}`)}</span> <Snippet text={hit.snippet} />
        </p>
      </div>
    </div>
  );
}

export function SearchScreen({ query }: { readonly query: string }) {
  const { t } = useTranslation();
  const site = useSite();
  const trimmed = query.trim();
  const q = useChannel('search:query', { siteId: site.id, query: trimmed }, { enabled: trimmed.length > 0, placeholderData: keepPreviousData });
  // Which text the results on screen answer (empty while an older text's are kept on screen): tests and the
  // start-up bench wait on it for "the last key's results are painted".
  const answered = trimmed !== '' && q.isSuccess && !q.isPlaceholderData ? trimmed : '';
  return (
    <div className="screen" data-results-for={answered}>
      <ScreenHeader title={trimmed ? t('search.titleFor', { query: trimmed }) : t('search.title')} />
      {trimmed === '' ? (
        <EmptyState title={t('search.prompt')} icon={Search} />
      ) : q.isPending ? (
        <Loading shape="rows" />
      ) : q.isError ? (
        <ErrorState title={t('search.failed')} error={q.error} onRetry={() => void q.refetch()} />
      ) : q.data.length === 0 ? (
        <EmptyState title={t('search.noResults', { query: trimmed })} icon={SearchX} />
      ) : (
        <>
          <p className="muted count-line" role="status">
            {t('search.count', { count: q.data.length })}
          </p>
          <VirtualList
            items={q.data}
            estimateSize={90}
            gap={8}
            getKey={(h) => `${h.kind}:${h.id}`}
            label={t('search.resultsLabel')}
            testId="search-results"
            render={(h) => <HitRow hit={h} />}
          />
        </>
      )}
    </div>
  );
}
