import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useChannel } from '../../query';
import { Snippet } from '../../ui/Snippet';
import { NoteItem } from './NoteItem';
import { useNoteList } from './use-note-list';
import './notes.css';

/**
 * The student's notes holding the words typed (Search: above the school's hits; off for a kind
 * filter).
 */
export function useNoteHits(query: string, siteId: string | undefined, enabled: boolean) {
  return useChannel(
    'notes:search',
    { query, ...(siteId ? { siteId } : {}) },
    { enabled: enabled && query.length > 0, placeholderData: keepPreviousData },
  );
}

export function SearchNotes({ hits }: { readonly hits: ReturnType<typeof useNoteHits>['data'] }) {
  const { t } = useTranslation();
  const list = useNoteList();
  if (!hits || hits.length === 0) return list.extras;
  return (
    <section
      className="search-notes"
      aria-labelledby="search-notes-title"
      data-testid="search-notes"
    >
      <h2 id="search-notes-title">
        {t('notes.searchHeading')}{' '}
        <span className="muted small">{t('notes.searchCount', { count: hits.length })}</span>
      </h2>
      <ul className="course-notes-list">
        {hits.map((h) => (
          <li key={h.note.id} data-testid="search-note">
            <NoteItem note={h.note} showContext onEdit={list.onEdit} onDelete={list.onDelete} />
            <p className="small muted">
              <Snippet text={h.snippet} />
            </p>
          </li>
        ))}
      </ul>
      {list.extras}
    </section>
  );
}
